import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import initFailedStyles from '../components/init-failed.module.css';
import offlineOverlayStyles from '../components/offline-overlay.module.css';
import { useT } from '../lib/i18n.tsx';

/** A lazily loaded screen whose file could not be fetched (offline, or a new release replaced it). */
const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error &&
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
    error.message,
  );

/** The router's error screen: a plain message and a reload button; reloads itself once back online. */
export function RouteError() {
  const t = useT('common');
  const error = useRouteError();
  const chunk = isChunkLoadError(error);
  useEffect(() => {
    if (!chunk) return;
    const onOnline = () => window.location.reload();
    window.addEventListener('online', onOnline);
    return () => window.removeEventListener('online', onOnline);
  }, [chunk]);
  return (
    <main className={initFailedStyles.initFailed}>
      <div className={initFailedStyles.initFailedCard} role="alert">
        <span className={offlineOverlayStyles.overlayIcon} aria-hidden="true" />
        <h1>{t('errorTitle')}</h1>
        <p className="muted">{chunk ? t('chunkErrorBody') : t('errorBody')}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          {t('reload')}
        </button>
      </div>
    </main>
  );
}
