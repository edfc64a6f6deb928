import type { BreakGlassReviewItem } from '@sac/contract/break-glass';
import { consolePaths } from '@sac/contract/console-paths';
import type { Dashboard } from '@sac/contract/dashboard';
import { useState } from 'react';
import { useT } from '../../../lib/i18n.tsx';
import { PermittedLink } from '../../../lib/may-open.tsx';
import cardStyles from './break-glass-review-card.module.css';
import { BreakGlassReviewRow, CloseReviewDialog } from './break-glass-review-row.tsx';
import dashboardPageStyles from './dashboard-page.module.css';
import impersonationCardsStyles from './impersonation-cards.module.css';
import platformCardsStyles from './platform-cards.module.css';

/**
 * The break-glass review queue (SuperAdmins): the oldest open reviews, with their reason and case;
 * an overdue one (past 24 hours) in red, as the card itself while one is. Another SuperAdmin than
 * the opener closes each with a note. "See all" opens the reviews page (every one, and the closed).
 */
export function BreakGlassReviewCard({ queue }: { queue: NonNullable<Dashboard['BreakGlassReview']> }) {
  const t = useT('dashboard');
  const [closing, setClosing] = useState<BreakGlassReviewItem | undefined>();
  const overdue = queue.Overdue > 0;
  return (
    <section
      className={`card ${dashboardPageStyles.dashboardCard} ${overdue ? cardStyles.overdueCard : ''}`}
      aria-labelledby="dash-break-glass"
      data-testid="break-glass-reviews"
    >
      <header className={impersonationCardsStyles.dashboardCardHeader}>
        <h2 id="dash-break-glass">{t('breakGlassTitle')}</h2>
      </header>
      <dl className={platformCardsStyles.dashboardFigures}>
        <div>
          <dt>{t('breakGlassOpen')}</dt>
          <dd data-testid="break-glass-open">{queue.Open}</dd>
        </div>
        <div>
          <dt>{t('breakGlassOverdue')}</dt>
          <dd data-testid="break-glass-overdue" className={overdue ? cardStyles.overdueFigure : undefined}>
            {queue.Overdue}
          </dd>
        </div>
      </dl>
      {queue.Items.length === 0 ? (
        <p className="muted">{t('breakGlassNone')}</p>
      ) : (
        <ul className={impersonationCardsStyles.dashboardList} aria-label={t('breakGlassListLabel')}>
          {queue.Items.map((r) => (
            <BreakGlassReviewRow key={r.RequestId} item={r} onClose={setClosing} />
          ))}
        </ul>
      )}
      {queue.Enabled ? null : <p className="muted">{t('breakGlassOff')}</p>}
      <PermittedLink className={impersonationCardsStyles.dashboardMore} to={consolePaths.breakGlassReviews()}>
        {t('breakGlassSeeAll')}
      </PermittedLink>
      {closing ? <CloseReviewDialog item={closing} onClose={() => setClosing(undefined)} /> : null}
    </section>
  );
}
