import { useSyncExternalStore } from 'react';
import { useT } from '../lib/i18n.tsx';
import { dismissToast, getToasts, subscribeToasts } from '../lib/toast-store.ts';

/** Toasts, top-right. Errors are announced assertively (role=alert), others politely (role=status). */
export function Toaster() {
  const t = useT('chrome');
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <section className="toaster" aria-label={t('notifications')}>
      {toasts.map((item) => (
        <div key={item.id} className={`toast toast-${item.type}`} data-testid={`toast-${item.type}`}>
          <span className="toast-icon" aria-hidden="true" />
          <p
            className="toast-message"
            role={item.type === 'error' || item.type === 'warning' ? 'alert' : 'status'}
          >
            {item.message}
          </p>
          <button
            type="button"
            className="toast-close"
            aria-label={t('dismiss')}
            onClick={() => dismissToast(item.id)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </section>
  );
}
