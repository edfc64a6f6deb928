import { useSyncExternalStore } from 'react';
import { useT } from '../lib/i18n.tsx';
import styles from './offline-overlay.module.css';

const subscribe = (cb: () => void) => {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
};
const isOnline = () => navigator.onLine;

/** Covers the console with an internet-connection message while the browser is offline. */
export function OfflineOverlay() {
  const t = useT('chrome');
  const online = useSyncExternalStore(subscribe, isOnline, () => true);
  if (online) return null;
  return (
    <div
      className={styles.overlay}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="offline-title"
      aria-describedby="offline-body"
    >
      <div className={styles.overlayCard}>
        <span className={styles.overlayIcon} aria-hidden="true" />
        <h2 id="offline-title">{t('offlineTitle')}</h2>
        <p id="offline-body">{t('offlineBody')}</p>
      </div>
    </div>
  );
}
