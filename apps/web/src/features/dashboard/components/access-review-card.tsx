import { ACCESS_REVIEW_MESSAGES } from '@sac/contract/access-review';
import { consolePaths } from '@sac/contract/console-paths';
import type { Dashboard } from '@sac/contract/dashboard';
import { formatDate } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { PermittedLink } from '../../../lib/may-open.tsx';
import dashboardPageStyles from './dashboard-page.module.css';
import impersonationCardsStyles from './impersonation-cards.module.css';
import platformCardsStyles from './platform-cards.module.css';

/**
 * The periodic access review (SuperAdmins): how many members are due and overdue, the most urgent
 * of them, and whether overdue roles go automatically (never the last SuperAdmin's).
 */
export function AccessReviewCard({ review }: { review: NonNullable<Dashboard['AccessReview']> }) {
  const t = useT('dashboard');
  return (
    <section className={`card ${dashboardPageStyles.dashboardCard}`} aria-labelledby="dash-review">
      <header className={impersonationCardsStyles.dashboardCardHeader}>
        <h2 id="dash-review">{t('reviewTitle')}</h2>
      </header>
      <dl className={platformCardsStyles.dashboardFigures}>
        <div>
          <dt>{t('reviewDue')}</dt>
          <dd data-testid="review-due">{review.Due}</dd>
        </div>
        <div>
          <dt>{t('reviewOverdue')}</dt>
          <dd data-testid="review-overdue">{review.Overdue}</dd>
        </div>
      </dl>
      {review.Items.length === 0 ? (
        <p className="muted">{t('reviewNone')}</p>
      ) : (
        <ul className={impersonationCardsStyles.dashboardList} aria-label={t('reviewListLabel')}>
          {review.Items.map((m) => (
            <li key={m.Uid}>
              <PermittedLink to={consolePaths.superuserProfile({ uid: m.Uid })}>
                {m.FullName || m.Email}
              </PermittedLink>
              <span
                className={
                  m.State === 'overdue' ? 'status-badge status-rejected' : 'status-badge status-pending'
                }
              >
                {t(m.State === 'overdue' ? 'reviewOverdueOne' : 'reviewDueOne')}
              </span>
              <span className={`muted ${impersonationCardsStyles.dashboardMeta}`}>
                {m.Roles.join(', ')} · {t('reviewBy', { date: formatDate(m.DueAt) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="muted">
        {review.AutoRevoke
          ? ACCESS_REVIEW_MESSAGES.autoRevokeOn(review.Days)
          : ACCESS_REVIEW_MESSAGES.autoRevokeOff(review.Days)}
      </p>
      <PermittedLink className={impersonationCardsStyles.dashboardMore} to={consolePaths.superusers()}>
        {t('reviewOpen')}
      </PermittedLink>
    </section>
  );
}
