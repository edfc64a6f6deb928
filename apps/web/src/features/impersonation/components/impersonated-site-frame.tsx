import { consolePaths } from '@sac/contract/console-paths';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import { useCallback, useEffect, useState } from 'react';
import { Link, Outlet, useNavigate, useSearchParams } from 'react-router';
import { ImpersonationAuthProvider } from '../../../lib/api-auth.tsx';
import { useT } from '../../../lib/i18n.tsx';
import {
  type EndedImpersonation,
  endImpersonation,
  type ImpersonationSession,
  useImpersonation,
} from '../../../lib/impersonation-mode.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useEndImpersonation, useImpersonationHeartbeat } from '../api/impersonation-session-api.ts';
import { GrantDetails } from './grant-details.tsx';
import { ImpersonationBanner } from './impersonation-banner.tsx';

/** Ended impersonations already toasted (the notice may mount more than once). */
const announced = new WeakSet<EndedImpersonation>();

/**
 * /impersonation/site?uid=&appId=: the frame of impersonation mode. While the tab's session is
 * for the site in the address, it shows the banner (countdown to the grant's end, End
 * impersonation), keeps the 30-second heartbeat, and renders the route's screen (the site
 * configuration) calling with the session's pair, then the granted access. When the session ends
 * (a 401 of its pair, from any call or the heartbeat, or the countdown at zero) it says so and
 * links back to the customer; without a session for this site it offers the way back.
 */
export default function ImpersonatedSiteFrame() {
  const t = useT('impersonation');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const uid = params.get('uid') ?? '';
  const appId = Number(params.get('appId'));
  const { session, ended } = useImpersonation();
  const end = useEndImpersonation();
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    if (!ended || announced.has(ended)) return;
    announced.add(ended);
    toast.error(ended.message);
  }, [ended]);

  const onEnd = useCallback(() => {
    if (!session) return;
    setLeaving(true);
    end.mutate(session);
    toast.success(t('impersonationEndedToast'));
    navigate(consolePaths.customerView({ uid: session.ownerUid }));
  }, [end, navigate, session, t]);

  if (leaving) {
    return (
      <p className="muted" role="status">
        {t('leaving')}
      </p>
    );
  }
  if (session && session.grant.AppId === appId && session.ownerUid === uid) {
    return <ActiveSession session={session} onEnd={onEnd} ending={end.isPending} />;
  }
  if (ended && !session) return <EndedNotice ended={ended} />;
  return <NoSession uid={uid} appId={appId} active={session} />;
}

function ActiveSession({
  session,
  onEnd,
  ending,
}: {
  session: ImpersonationSession;
  onEnd: () => void;
  ending: boolean;
}) {
  const t = useT('impersonation');
  useImpersonationHeartbeat(session);
  const onExpired = useCallback(
    () => endImpersonation(IMPERSONATION_SESSION_MESSAGES.ended, session),
    [session],
  );
  return (
    <div className="page-stack impersonated-site">
      <ImpersonationBanner session={session} ending={ending} onEnd={onEnd} onExpired={onExpired} />
      <ImpersonationAuthProvider session={session}>
        <Outlet />
      </ImpersonationAuthProvider>
      <section className="card" aria-labelledby="impersonated-grant">
        <h2 id="impersonated-grant">{t('grantedAccess')}</h2>
        <GrantDetails grant={session.grant} layout="compact" />
      </section>
    </div>
  );
}

/** The impersonation ended by itself (revoked or expired): the server's words and the way back. */
function EndedNotice({ ended }: { ended: EndedImpersonation }) {
  const t = useT('impersonation');
  return (
    <section className="card empty-state impersonation-ended" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('endedTitle')}</h1>
      <p className="form-alert" role="alert">
        {ended.message || t('endedDefault')}
      </p>
      <p>
        <Link className="button button-primary" to={consolePaths.customerView({ uid: ended.ownerUid })}>
          {t('backToCustomer')}
        </Link>
      </p>
    </section>
  );
}

/** This tab holds no impersonation of the site in the address. */
function NoSession({
  uid,
  appId,
  active,
}: {
  uid: string;
  appId: number;
  active: ImpersonationSession | undefined;
}) {
  const t = useT('impersonation');
  const complete = uid !== '' && Number.isInteger(appId) && appId > 0;
  return (
    <section className="card empty-state" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('noSessionTitle')}</h1>
      <p className="muted">{t('noSessionText')}</p>
      <div className="form-actions">
        {active ? (
          <Link
            className="button button-primary"
            to={consolePaths.impersonatedSite({ uid: active.ownerUid, appId: active.grant.AppId })}
          >
            {t('returnToImpersonation')}
          </Link>
        ) : null}
        {complete ? (
          <Link className="button" to={consolePaths.impersonate({ uid, appId })}>
            {t('impersonateAgain')}
          </Link>
        ) : null}
        {uid ? (
          <Link className="button" to={consolePaths.customerView({ uid })}>
            {t('backToCustomer')}
          </Link>
        ) : null}
      </div>
    </section>
  );
}
