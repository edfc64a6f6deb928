import { useT } from '../../../lib/i18n.tsx';

/** 'You do not have the Access for Impersonation' in place of a screen. */
export function NoImpersonationAccess() {
  const t = useT('impersonation');
  return (
    <section className="card empty-state" aria-labelledby="screen-title">
      <h1 id="screen-title" className="visually-hidden">
        {t('noAccess')}
      </h1>
      <p className="form-alert" role="alert">
        {t('noAccess')}
      </p>
    </section>
  );
}
