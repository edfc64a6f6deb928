import { consolePaths } from '@sac/contract/console-paths';
import { Link, useNavigate } from 'react-router';
import { useT } from '../../../lib/i18n.tsx';
import { type Grant, useImpersonation } from '../../../lib/impersonation-mode.ts';
import { useStartImpersonation } from '../api/impersonation-session-api.ts';
import { GrantDetails } from './grant-details.tsx';

/**
 * The viewer's live grant on the site (updateaccess): roles, permissions and expiry, and 'Start
 * impersonation', which opens the session (account/switchapp), keeps it for the tab and opens the
 * impersonated site. `uid` is the customer the Impersonate action came from (the site's owner).
 */
export function GrantPanel({ uid, grant }: { uid: string; grant: Grant }) {
  const t = useT('impersonation');
  const navigate = useNavigate();
  const start = useStartImpersonation();
  const { session } = useImpersonation();
  const activeHere = session && session.grant.AppId === grant.AppId && session.ownerUid === uid;

  const onStart = () => {
    if (start.isPending) return;
    start.mutate(
      { ownerUid: uid, appId: grant.AppId },
      { onSuccess: () => navigate(consolePaths.impersonatedSite({ uid, appId: grant.AppId })) },
    );
  };

  return (
    <section className="card form-card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('grantTitle', { app: grant.AppName })}</h1>
          <p className="muted">{t('grantIntro', { app: grant.AppName })}</p>
        </div>
      </div>
      {activeHere ? (
        <p className="notice notice-info" role="status">
          {t('activeHere', { app: grant.AppName })}{' '}
          <Link to={consolePaths.impersonatedSite({ uid, appId: grant.AppId })}>
            {t('returnToImpersonation')}
          </Link>
        </p>
      ) : null}
      <GrantDetails grant={grant} layout="wide" />
      <div className="form-actions">
        <button type="button" className="button button-primary" aria-busy={start.isPending} onClick={onStart}>
          {start.isPending ? t('starting') : t('startImpersonation')}
        </button>
        <Link className="button" to={consolePaths.customerView({ uid })}>
          {t('cancel')}
        </Link>
      </div>
    </section>
  );
}
