import { planStatusText } from '@sac/contract/customers';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session';
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import {
  type EndedImpersonation,
  endImpersonation,
  type ImpersonationSession,
  useImpersonation,
} from '../../../lib/impersonation-mode.ts';
import { toast } from '../../../lib/toast-store.ts';
import {
  type BasicSettings,
  useEndImpersonation,
  useImpersonatedBasicSettings,
  useImpersonatedDataCenter,
  useImpersonatedFeatures,
  useImpersonatedSiteInfo,
  useImpersonationHeartbeat,
} from '../api/impersonated-site-api.ts';
import { EditWebAppsDialog } from './edit-web-apps-dialog.tsx';
import { GrantDetails } from './grant-details.tsx';
import { ImpersonationBanner } from './impersonation-banner.tsx';
import { customerViewPath, impersonatedSitePath, impersonatePath } from './impersonation-paths.ts';
import { SiteStatusConfirm } from './site-status-confirm.tsx';

/** Ended impersonations already toasted (the notice may mount more than once). */
const announced = new WeakSet<EndedImpersonation>();

/**
 * /impersonation/site?uid=&appId=: the site seen THROUGH the tab's impersonation session. The
 * banner counts down to the grant's end; the sections read the site with the impersonation pair;
 * the actions are those the grant allows (Edit web apps with ManageSettings) plus Deactivate site,
 * which the server refuses without ManageSite. When the session ends (a 401 of its pair, from any
 * call or the 30-second heartbeat, or the countdown at zero) the screen says so and links back to
 * the customer.
 */
export default function ImpersonatedSitePage() {
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
    navigate(customerViewPath(session.ownerUid));
  }, [end, navigate, session, t]);

  if (leaving) {
    return (
      <p className="muted" role="status">
        {t('leaving')}
      </p>
    );
  }
  if (session && session.grant.AppId === appId && session.ownerUid === uid) {
    return <ActiveSite session={session} onEnd={onEnd} ending={end.isPending} />;
  }
  if (ended && !session) return <EndedNotice ended={ended} />;
  return <NoSession uid={uid} appId={appId} active={session} />;
}

function ActiveSite({
  session,
  onEnd,
  ending,
}: {
  session: ImpersonationSession;
  onEnd: () => void;
  ending: boolean;
}) {
  const t = useT('impersonation');
  const basic = useImpersonatedBasicSettings(session);
  useImpersonationHeartbeat(session);
  const [editing, setEditing] = useState(false);
  const [confirmStatus, setConfirmStatus] = useState(false);
  const { grant } = session;
  const canEdit = grant.Permissions.includes('ManageSettings');
  const onExpired = useCallback(
    () => endImpersonation(IMPERSONATION_SESSION_MESSAGES.ended, session),
    [session],
  );

  return (
    <div className="page-stack impersonated-site">
      <ImpersonationBanner session={session} ending={ending} onEnd={onEnd} onExpired={onExpired} />
      <section className="card" aria-labelledby="screen-title">
        <div className="page-header">
          <div>
            <h1 id="screen-title">{grant.AppName}</h1>
            <p className="muted">{t('siteIntro')}</p>
          </div>
        </div>
      </section>
      <section className="card" aria-labelledby="impersonated-basic-settings">
        <div className="page-header">
          <h2 id="impersonated-basic-settings">{t('basicSettings')}</h2>
          <div className="page-header-actions">
            {canEdit && basic.data ? (
              <button type="button" className="button button-small" onClick={() => setEditing(true)}>
                {t('editWebApps')}
              </button>
            ) : null}
            {basic.data ? (
              <button
                type="button"
                className={
                  basic.data.Status === 'active' ? 'button button-small button-danger' : 'button button-small'
                }
                onClick={() => setConfirmStatus(true)}
              >
                {basic.data.Status === 'active' ? t('deactivateSite') : t('activateSite')}
              </button>
            ) : null}
          </div>
        </div>
        <SectionStatus query={basic} />
        {basic.data ? <BasicSettingsList s={basic.data} /> : null}
      </section>
      <FeaturesSection session={session} />
      <DataCenterSection session={session} />
      <section className="card" aria-labelledby="impersonated-grant">
        <h2 id="impersonated-grant">{t('grantedAccess')}</h2>
        <GrantDetails grant={grant} layout="compact" />
      </section>
      {editing && basic.data ? (
        <EditWebAppsDialog session={session} current={basic.data} onClose={() => setEditing(false)} />
      ) : null}
      {confirmStatus && basic.data ? (
        <SiteStatusConfirm session={session} current={basic.data} onClose={() => setConfirmStatus(false)} />
      ) : null}
    </div>
  );
}

function BasicSettingsList({ s }: { s: BasicSettings }) {
  const t = useT('impersonation');
  const dash = t('notSet');
  return (
    <dl className="detail-list detail-list-compact">
      <div>
        <dt>{t('appId')}</dt>
        <dd>{s.appId}</dd>
      </div>
      <div>
        <dt>{t('plan')}</dt>
        <dd>{s.Plan}</dd>
      </div>
      <div>
        <dt>{t('planStatus')}</dt>
        <dd>{planStatusText(s.PlanStatus, s.TrialEndsAt, new Date())}</dd>
      </div>
      <div>
        <dt>{t('billing')}</dt>
        <dd>{s.Billing || dash}</dd>
      </div>
      <div>
        <dt>{t('productionUrl')}</dt>
        <dd>{s.ProductionUrl || dash}</dd>
      </div>
      <div>
        <dt>{t('stagingUrl')}</dt>
        <dd>{s.StagingUrl || dash}</dd>
      </div>
      <div>
        <dt>{t('siteStatus')}</dt>
        <dd>{s.Status === 'active' ? t('siteActive') : t('siteInactive')}</dd>
      </div>
    </dl>
  );
}

function FeaturesSection({ session }: { session: ImpersonationSession }) {
  const t = useT('impersonation');
  const features = useImpersonatedFeatures(session);
  const list = features.data?.Features;
  return (
    <section className="card" aria-labelledby="impersonated-features">
      <h2 id="impersonated-features">{t('features')}</h2>
      <SectionStatus query={features} />
      {list && list.length === 0 ? <p className="muted">{t('noFeatures')}</p> : null}
      {list && list.length > 0 ? (
        <ul className="tag-list" aria-label={t('featuresLabel')}>
          {list.map((f) => (
            <li key={f} className="tag">
              {f}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function DataCenterSection({ session }: { session: ImpersonationSession }) {
  const t = useT('impersonation');
  const dc = useImpersonatedDataCenter(session);
  const info = useImpersonatedSiteInfo(session);
  const dash = t('notSet');
  const d = dc.data;
  const current = d?.Current;
  const center = d?.DataCenters.find((c) => c.Code === current?.DataCenter);
  const server = d?.GlobalServers.find((g) => g.Code === current?.GlobalServer);
  const database = info.data?.Database;
  return (
    <section className="card" aria-labelledby="impersonated-data-center">
      <h2 id="impersonated-data-center">{t('dataCenterAndDatabase')}</h2>
      <SectionStatus query={dc} />
      {current ? (
        <dl className="detail-list detail-list-compact">
          <div>
            <dt>{t('dataCenter')}</dt>
            <dd>{center ? center.Name : (current.DataCenter ?? dash)}</dd>
          </div>
          <div>
            <dt>{t('globalServer')}</dt>
            <dd>{server ? server.Name : (current.GlobalServer ?? dash)}</dd>
          </div>
          <div>
            <dt>{t('databaseName')}</dt>
            <dd>{current.DbName || dash}</dd>
          </div>
          <div>
            <dt>{t('databaseType')}</dt>
            <dd>{current.CustomDb ? t('customDatabase') : t('managedDatabase')}</dd>
          </div>
          {current.CustomDb ? (
            <div>
              <dt>{t('connectionString')}</dt>
              <dd>
                {database ? <code>{database.ConnectionString ?? dash}</code> : <SectionStatus query={info} />}
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
    </section>
  );
}

/** Loading and error lines of one section (the server's text, e.g. a refused call). */
function SectionStatus({ query }: { query: { isPending: boolean; isError: boolean; error: unknown } }) {
  const t = useT('impersonation');
  if (query.isError) {
    return (
      <p className="form-alert" role="alert">
        {errorText(query.error)}
      </p>
    );
  }
  if (query.isPending) {
    return (
      <p className="muted" role="status">
        {t('loading')}
      </p>
    );
  }
  return null;
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
        <Link className="button button-primary" to={customerViewPath(ended.ownerUid)}>
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
            to={impersonatedSitePath(active.ownerUid, active.grant.AppId)}
          >
            {t('returnToImpersonation')}
          </Link>
        ) : null}
        {complete ? (
          <Link className="button" to={impersonatePath(uid, appId)}>
            {t('impersonateAgain')}
          </Link>
        ) : null}
        {uid ? (
          <Link className="button" to={customerViewPath(uid)}>
            {t('backToCustomer')}
          </Link>
        ) : null}
      </div>
    </section>
  );
}
