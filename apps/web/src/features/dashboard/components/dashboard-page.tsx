import skeletonStyles from '../../../components/skeleton.module.css';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { type Dashboard, useDashboard } from '../api/dashboard-api.ts';
import { AccessReviewCard } from './access-review-card.tsx';
import { BreakGlassReviewCard } from './break-glass-review-card.tsx';
import styles from './dashboard-page.module.css';
import { AwaitingCard, GrantsCard, MineCard } from './impersonation-cards.tsx';
import { RecentCustomersCard, StaffCard } from './people-cards.tsx';
import { CustomersCard, SitesCard } from './platform-cards.tsx';
import { StaffActivityCard } from './staff-activity-card.tsx';

/**
 * /dashboard: the spec's placeholder 'Super admin main page', made a dashboard and headed so
 * (docs/decisions.md): what awaits the viewer and how the platform stands. One call; the server
 * sends only the parts the viewer may read, and a card is shown per part, in order of what most
 * needs attention. It reads again when the notification stream says requests changed.
 */
export default function DashboardPage() {
  const t = useT('dashboard');
  const common = useT('common');
  const user = useCurrentUser();
  const q = useDashboard();
  return (
    <div className="page-stack">
      <section className="card" aria-labelledby="screen-title">
        <h1 id="screen-title">{t('heading')}</h1>
        <p className="muted">
          {user.name || user.email ? `${t('welcome', { name: user.name || user.email })} ` : ''}
          {t('intro')}
        </p>
      </section>
      {q.isError ? (
        <p className="form-alert" role="alert">
          {errorText(q.error, common('tableFetchError'))}
        </p>
      ) : q.data ? (
        <Cards data={q.data} />
      ) : (
        <CardSkeletons label={t('loading')} />
      )}
    </div>
  );
}

function Cards({ data }: { data: Dashboard }) {
  const imp = data.Impersonation;
  return (
    <div className={`card-grid ${styles.dashboardGrid}`}>
      {imp?.AwaitingMyDecision ? (
        <AwaitingCard awaiting={imp.AwaitingMyDecision} awaitingCustomer={imp.AwaitingCustomer} />
      ) : null}
      {imp ? <GrantsCard grants={imp.LiveGrants} /> : null}
      {imp ? <MineCard count={imp.MineAwaitingOthers.Count} /> : null}
      {data.Customers ? <CustomersCard customers={data.Customers} /> : null}
      {data.Sites ? <SitesCard sites={data.Sites} domains={data.CustomDomains} /> : null}
      {data.StaffSignIns || data.StaffWithoutSecondFactor ? (
        <StaffCard signIns={data.StaffSignIns} withoutFactor={data.StaffWithoutSecondFactor} />
      ) : null}
      {data.BreakGlassReview && (data.BreakGlassReview.Open > 0 || data.BreakGlassReview.Enabled) ? (
        <BreakGlassReviewCard queue={data.BreakGlassReview} />
      ) : null}
      {data.AccessReview ? <AccessReviewCard review={data.AccessReview} /> : null}
      {data.StaffActivity ? <StaffActivityCard activity={data.StaffActivity} /> : null}
      {data.RecentCustomers ? <RecentCustomersCard recent={data.RecentCustomers} /> : null}
    </div>
  );
}

/** Card-shaped placeholders while the call is on its way; screen readers hear the label once. */
function CardSkeletons({ label }: { label: string }) {
  return (
    <>
      <p className="visually-hidden" role="status">
        {label}
      </p>
      <div className={`card-grid ${styles.dashboardGrid}`} aria-hidden="true">
        {['a', 'b', 'c', 'd'].map((k) => (
          <div key={k} className={`card ${styles.dashboardCard} ${skeletonStyles.skeletonBlock}`}>
            <span className={`skeleton ${skeletonStyles.skeletonTitle}`} />
            <span className="skeleton" />
            <span className="skeleton" />
            <span className="skeleton" />
          </div>
        ))}
      </div>
    </>
  );
}
