import { consolePaths } from '@sac/contract/console-paths';
import type { Dashboard } from '@sac/contract/dashboard';
import { DataCenterName } from '../../../components/data-center-name.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { PermittedLink } from '../../../lib/may-open.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import dashboardPageStyles from './dashboard-page.module.css';
import { BarList, DayChart } from './day-chart.tsx';
import impersonationCardsStyles from './impersonation-cards.module.css';
import styles from './platform-cards.module.css';

const sum = (days: ReadonlyArray<{ Count: number }>) => days.reduce((n, d) => n + d.Count, 0);
const most = (days: ReadonlyArray<{ Count: number }>) => Math.max(0, ...days.map((d) => d.Count));
const figure = (n: number) => n.toLocaleString('en');

/** Customers: the total, new in the last 30 days as a chart. */
export function CustomersCard({ customers }: { customers: NonNullable<Dashboard['Customers']> }) {
  const t = useT('dashboard');
  const { permissions } = useCurrentUser();
  const fresh = sum(customers.NewByDay);
  return (
    <section className={`card ${dashboardPageStyles.dashboardCard}`} aria-labelledby="dash-customers">
      <header className={impersonationCardsStyles.dashboardCardHeader}>
        <h2 id="dash-customers">{t('customersTitle')}</h2>
      </header>
      <dl className={styles.dashboardFigures}>
        <div>
          <dt>{t('customersTotal')}</dt>
          <dd>{figure(customers.Total)}</dd>
        </div>
        <div>
          <dt>{t('customersNew')}</dt>
          <dd>{figure(fresh)}</dd>
        </div>
      </dl>
      {customers.Total === 0 ? (
        <p className="muted">
          {t('customersEmpty')}{' '}
          {permissions.has('customers.write') ? (
            <PermittedLink to={consolePaths.createCustomer()}>{t('createCustomer')}</PermittedLink>
          ) : null}
        </p>
      ) : (
        <DayChart
          days={customers.NewByDay}
          label={t('customersChart', { count: fresh, max: most(customers.NewByDay) })}
        />
      )}
      <PermittedLink className={impersonationCardsStyles.dashboardMore} to={consolePaths.customerSearch()}>
        {t('searchCustomers')}
      </PermittedLink>
    </section>
  );
}

/** Sites: totals, new per day, by plan and data center, trials ending soon, pending and failing domains. */
export function SitesCard({
  sites,
  domains,
}: {
  sites: NonNullable<Dashboard['Sites']>;
  domains: Dashboard['CustomDomains'];
}) {
  const t = useT('dashboard');
  const fresh = sum(sites.NewByDay);
  const trials = sites.TrialsEndingSoon;
  return (
    <section
      className={`card ${dashboardPageStyles.dashboardCard} ${styles.dashboardCardWide}`}
      aria-labelledby="dash-sites"
    >
      <header className={impersonationCardsStyles.dashboardCardHeader}>
        <h2 id="dash-sites">{t('sitesTitle')}</h2>
      </header>
      <dl className={styles.dashboardFigures}>
        <div>
          <dt>{t('sitesTotal')}</dt>
          <dd>{figure(sites.Total)}</dd>
        </div>
        <div>
          <dt>{t('sitesNew')}</dt>
          <dd>{figure(fresh)}</dd>
        </div>
        {domains ? (
          <>
            <div>
              <dt>{t('domainsPending')}</dt>
              <dd>
                <PermittedLink
                  to={consolePaths.customDomains({ status: 'pending' })}
                  aria-label={`${t('showDomainsPending')}: ${domains.PendingVerification}`}
                >
                  {figure(domains.PendingVerification)}
                </PermittedLink>
              </dd>
            </div>
            <div>
              <dt>{t('domainsFailing')}</dt>
              <dd>
                <PermittedLink
                  to={consolePaths.customDomains({ status: 'failing' })}
                  aria-label={`${t('showDomainsFailing')}: ${domains.FailingRechecks}`}
                >
                  {figure(domains.FailingRechecks)}
                </PermittedLink>
              </dd>
            </div>
          </>
        ) : null}
      </dl>
      <DayChart days={sites.NewByDay} label={t('sitesChart', { count: fresh, max: most(sites.NewByDay) })} />
      <div className={styles.dashboardColumns}>
        <div>
          <h3>{t('byPlan')}</h3>
          <BarList rows={sites.ByPlan.map((p) => ({ key: p.Plan, label: p.Plan, count: p.Count }))} />
        </div>
        <div>
          <h3>{t('byDataCenter')}</h3>
          <BarList
            rows={sites.ByDataCenter.map((d) => ({
              key: d.Code || '-',
              label: d.Code ? <DataCenterName code={d.Code} name={d.Name} /> : t('noDataCenter'),
              count: d.Count,
            }))}
          />
        </div>
        <TrialsEnding trials={trials} />
      </div>
    </section>
  );
}

/** The trials ending soon: a sample, their count, and links to the whole list. */
function TrialsEnding({ trials }: { trials: NonNullable<Dashboard['Sites']>['TrialsEndingSoon'] }) {
  const t = useT('dashboard');
  return (
    <div>
      <h3>
        <PermittedLink to={consolePaths.trialsEnding()}>{t('trialsTitle')}</PermittedLink>{' '}
        <span className={styles.dashboardFigureSmall}>{trials.Count}</span>
      </h3>
      {trials.Items.length === 0 ? (
        <p className="muted">{t('trialsEmpty')}</p>
      ) : (
        <ul className={impersonationCardsStyles.dashboardList}>
          {trials.Items.map((s) => (
            <li key={s.AppId}>
              <PermittedLink to={consolePaths.siteConfiguration({ uid: s.OwnerUid, appId: s.AppId })}>
                {s.AppName}
              </PermittedLink>
              <span className={`muted ${impersonationCardsStyles.dashboardMeta}`}>
                {t('trialEnds')} <Timestamp value={s.TrialEndsAt} />
              </span>
            </li>
          ))}
          {trials.Count > trials.Items.length ? (
            <li>
              <PermittedLink
                to={consolePaths.trialsEnding()}
                aria-label={t('trialsMoreLabel', {
                  count: trials.Count,
                  more: trials.Count - trials.Items.length,
                })}
              >
                {t('trialsMore', { count: trials.Count - trials.Items.length })}
              </PermittedLink>
            </li>
          ) : null}
        </ul>
      )}
    </div>
  );
}
