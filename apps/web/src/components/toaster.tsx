import { useSyncExternalStore } from 'react';
import { useT } from '../lib/i18n.tsx';
import { dismissToast, getToasts, holdToast, releaseToast, subscribeToasts } from '../lib/toast-store.ts';

/**
 * Toasts, top-right. Errors are announced assertively (role=alert), others politely (role=status).
 * Each stays while the pointer is over it or focus is in it.
 */
export function Toaster() {
  const t = useT('chrome');
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <section className="toaster" aria-label={t('notifications')}>
      {toasts.map((item) => (
        // biome-ignore lint/a11y/noStaticElementInteractions: pointer and focus only hold the toast's clock; its one control is the close button
        <div
          key={item.id}
          className={`toast toast-${item.type}`}
          data-testid={`toast-${item.type}`}
          onMouseEnter={() => holdToast(item.id)}
          onMouseLeave={() => releaseToast(item.id)}
          onFocus={() => holdToast(item.id)}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) releaseToast(item.id);
          }}
        >
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
