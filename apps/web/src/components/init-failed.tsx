import { MESSAGES } from '@sac/contract/messages';
import styles from './init-failed.module.css';
import offlineOverlayStyles from './offline-overlay.module.css';

/** The full-page message when start-up fails (spec section 2). */
export function InitFailed() {
  return (
    <main className={styles.initFailed}>
      <div className={styles.initFailedCard} role="alert">
        <span className={offlineOverlayStyles.overlayIcon} aria-hidden="true" />
        <h1 className={styles.initFailedTitle}>{MESSAGES.initializationFailed}</h1>
      </div>
    </main>
  );
}
