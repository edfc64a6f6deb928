import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useT } from '../lib/i18n.tsx';
import { dismissToast, getToasts, holdToast, releaseToast, subscribeToasts } from '../lib/toast-store.ts';
import { getDialogToastSlot, subscribeDialogSlot } from './dialog.tsx';
import styles from './toaster.module.css';

type Item = ReturnType<typeof getToasts>[number];

/**
 * Toasts, top-right. Errors and warnings are alerts (role=alert, announced when they appear);
 * the others arrive in a polite live region that is there before any message (a region added
 * together with its text is not announced by some screen readers). Each toast stays while the
 * pointer is over it or focus is in it, and has a button that dismisses it. While a modal dialog
 * is open they are shown in it, above its content (dialog.tsx).
 */
export function Toaster() {
  const t = useT('chrome');
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  // While a modal dialog is open the toasts are shown inside it, above its content, never over it.
  const slot = useSyncExternalStore(subscribeDialogSlot, getDialogToastSlot, () => null);
  const urgent = (item: Item) => item.type === 'error' || item.type === 'warning';
  const region = (
    <section
      className={slot ? `${styles.toaster} ${styles.toasterInDialog}` : styles.toaster}
      aria-label={t('notifications')}
    >
      <div className={styles.toastStack}>
        {toasts.filter(urgent).map((item) => (
          <Toast key={item.id} item={item} role="alert" dismissLabel={t('dismiss')} />
        ))}
      </div>
      <div className={styles.toastStack} aria-live="polite">
        {toasts
          .filter((item) => !urgent(item))
          .map((item) => (
            <Toast key={item.id} item={item} role="status" dismissLabel={t('dismiss')} />
          ))}
      </div>
    </section>
  );
  return slot ? createPortal(region, slot) : region;
}

function Toast({ item, role, dismissLabel }: { item: Item; role: 'alert' | 'status'; dismissLabel: string }) {
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: pointer and focus only hold the toast's clock; its one control is the close button
    <div
      className={`${styles.toast} ${styles[`toast-${item.type}`]}`}
      data-testid={`toast-${item.type}`}
      onMouseEnter={() => holdToast(item.id)}
      onMouseLeave={() => releaseToast(item.id)}
      onFocus={() => holdToast(item.id)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) releaseToast(item.id);
      }}
    >
      <span className={styles.toastIcon} aria-hidden="true" />
      <p className={styles.toastMessage} role={role}>
        {item.message}
      </p>
      {item.button ? (
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            dismissToast(item.id);
            item.button?.onClick();
          }}
        >
          {item.button.label}
        </button>
      ) : null}
      <button
        type="button"
        className={styles.toastClose}
        aria-label={dismissLabel}
        onClick={() => dismissToast(item.id)}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
