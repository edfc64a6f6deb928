import { consolePaths } from '@sac/contract/console-paths';
import type { Dashboard } from '@sac/contract/dashboard';
import { useEffect, useState } from 'react';
import { ReasonNote } from '../../../components/reason-view.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { PermittedLink } from '../../../lib/may-open.tsx';
import dashboardPageStyles from './dashboard-page.module.css';
import styles from './impersonation-cards.module.css';

type Impersonation = NonNullable<Dashboard['Impersonation']>;

/** 'mm:ss' under an hour, 'h:mm:ss' from an hour on. */
function countdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

function useSecondClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Pending requests an approver may decide now (the owner has consented): the count, the first
 * five with their reason and case, a link to all of them; beside it, how many still wait for the
 * owner's consent.
 */
export function AwaitingCard({
  awaiting,
  awaitingCustomer,
}: {
  awaiting: NonNullable<Impersonation['AwaitingMyDecision']>;
  awaitingCustomer: Impersonation['AwaitingCustomer'];
}) {
  const t = useT('dashboard');
  const imp = useT('impersonation');
  return (
    <section className={`card ${dashboardPageStyles.dashboardCard}`} aria-labelledby="dash-awaiting">
      <header className={styles.dashboardCardHeader}>
        <h2 id="dash-awaiting">{t('awaitingTitle')}</h2>
        <span className={styles.dashboardFigure}>{awaiting.Count}</span>
      </header>
      {awaiting.Items.length === 0 ? (
        <p className="muted">{t('awaitingEmpty')}</p>
      ) : (
        <ul className={styles.dashboardList}>
          {awaiting.Items.map((r) => (
            <li key={r.Id}>
              <PermittedLink
                to={consolePaths.impersonationRequests({ request: r.Id })}
                aria-label={t('requestLabel', { id: r.Id, app: r.AppName })}
              >
                #{r.Id} {r.AppName}
              </PermittedLink>
              <span className={`${styles.priority} ${styles[`priority-${r.Priority.toLowerCase()}`]}`}>
                {imp(`priority.${r.Priority}` as never)}
              </span>
              <span className={`muted ${styles.dashboardMeta}`}>
                {t('requestedAgo')} <Timestamp value={r.RequestCreatedDate} />
                {r.AssignedToMe ? ` · ${t('assignedToMe')}` : ''}
                {r.Consent ? '' : ` · ${t('noConsent')}`}
              </span>
              <ReasonNote shown={r} className={styles.dashboardMeta} />
            </li>
          ))}
        </ul>
      )}
      {awaitingCustomer ? (
        <p className={styles.awaitingCustomer}>
          <span>
            {t('awaitingCustomerTitle')}{' '}
            <span className={styles.dashboardFigureBeside}>{awaitingCustomer.Count}</span>
          </span>
          <span className={`muted ${styles.dashboardMeta}`}>{t('awaitingCustomerHint')}</span>
        </p>
      ) : null}
      <PermittedLink
        className={styles.dashboardMore}
        to={consolePaths.impersonationRequests({ status: 'Pending' })}
      >
        {t('awaitingAll')}
      </PermittedLink>
    </section>
  );
}

/** The viewer's own pending requests. */
export function MineCard({ count }: { count: number }) {
  const t = useT('dashboard');
  return (
    <section className={`card ${dashboardPageStyles.dashboardCard}`} aria-labelledby="dash-mine">
      <header className={styles.dashboardCardHeader}>
        <h2 id="dash-mine">{t('mineTitle')}</h2>
        <span className={styles.dashboardFigure}>{count}</span>
      </header>
      <p className="muted">{count === 0 ? t('mineEmpty') : t('mineCount', { count })}</p>
      <PermittedLink
        className={styles.dashboardMore}
        to={consolePaths.impersonationRequests({ status: 'Pending' })}
      >
        {t('mineLink')}
      </PermittedLink>
    </section>
  );
}

/**
 * Who is inside which customer's site, with roles and a countdown; approvers get Revoke. A
 * break-glass grant is marked Emergency access, with its reason and case.
 */
export function GrantsCard({ grants }: { grants: Impersonation['LiveGrants'] }) {
  const t = useT('dashboard');
  const now = useSecondClock();
  const live = grants.Items.filter((g) => new Date(g.ExpiresAt).getTime() > now);
  const more = grants.Count - grants.Items.length;
  return (
    <section className={`card ${dashboardPageStyles.dashboardCard}`} aria-labelledby="dash-grants">
      <header className={styles.dashboardCardHeader}>
        <h2 id="dash-grants">{t('grantsTitle')}</h2>
        <span className={styles.dashboardFigure}>{grants.Count}</span>
      </header>
      {live.length === 0 ? (
        <p className="muted">{t('grantsEmpty')}</p>
      ) : (
        <ul className={styles.dashboardList}>
          {live.map((g) => (
            <li key={g.Id}>
              <span>
                <PermittedLink to={consolePaths.impersonationRequests({ request: g.Id })}>
                  #{g.Id}
                </PermittedLink>{' '}
                {t('grantHolder', { holder: g.Holder, app: g.AppName })}
              </span>
              {g.BreakGlass ? (
                <span className="status-badge status-rejected">{t('grantBreakGlass')}</span>
              ) : null}
              {g.BreakGlass ? (
                <ReasonNote shown={g} lead={t('grantBreakGlassWhy')} className={styles.dashboardMeta} />
              ) : null}
              <span className={`muted ${styles.dashboardMeta}`}>
                {[...g.Roles, ...g.AdditionalPermissions].join(', ')} ·{' '}
                <time dateTime={g.ExpiresAt} className={styles.countdown}>
                  {t('grantEnds', { time: countdown(new Date(g.ExpiresAt).getTime() - now) })}
                </time>
              </span>
              {g.CanRevoke ? (
                <PermittedLink
                  className="button button-small button-danger"
                  to={consolePaths.impersonationRequests({ request: g.Id })}
                  aria-label={t('revokeLabel', { id: g.Id, holder: g.Holder, app: g.AppName })}
                >
                  {t('revoke')}
                </PermittedLink>
              ) : null}
            </li>
          ))}
          {more > 0 ? <li className="muted">{t('grantsMore', { count: more })}</li> : null}
        </ul>
      )}
      <PermittedLink
        className={styles.dashboardMore}
        to={consolePaths.impersonationRequests({ status: 'Approved' })}
      >
        {t('grantsAll')}
      </PermittedLink>
    </section>
  );
}
