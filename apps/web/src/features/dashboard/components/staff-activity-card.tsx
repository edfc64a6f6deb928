import { consolePaths } from '@sac/contract/console-paths';
import type { Dashboard } from '@sac/contract/dashboard';
import { ActionWords } from '../../../components/action-words.tsx';
import { Timestamp } from '../../../components/timestamp.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { PermittedLink } from '../../../lib/may-open.tsx';
import { useTrailStream } from '../api/dashboard-api.ts';
import dashboardPageStyles from './dashboard-page.module.css';
import impersonationCardsStyles from './impersonation-cards.module.css';
import platformCardsStyles from './platform-cards.module.css';

type Activity = NonNullable<Dashboard['StaffActivity']>;

/**
 * For those who read the trail (the Auditor's home): what staff did lately, the refused calls and
 * failed changes of the last day and the exports of the last week, each figure a link into the
 * trail with that filter: the refused calls by result (every refused action), the rest by action.
 */
export function StaffActivityCard({ activity }: { activity: Activity }) {
  const t = useT('dashboard');
  const label = (action: string) => t(`action.${action}` as never);
  const figures = (rows: Activity['Failed'], range: string) => (
    <ul className={impersonationCardsStyles.dashboardList}>
      {rows.map((r) => (
        <li key={r.Action}>
          <PermittedLink to={consolePaths.auditTrail({ action: r.Action, range })}>
            {label(r.Action)} <span className={platformCardsStyles.dashboardFigureSmall}>{r.Count}</span>
          </PermittedLink>
        </li>
      ))}
    </ul>
  );
  return (
    <section
      className={`card ${dashboardPageStyles.dashboardCard} ${platformCardsStyles.dashboardCardWide}`}
      aria-labelledby="dash-activity"
    >
      <header className={impersonationCardsStyles.dashboardCardHeader}>
        <h2 id="dash-activity">{t('activityTitle')}</h2>
      </header>
      <div className={platformCardsStyles.dashboardColumns}>
        <div>
          <h3>{t('activityRecent')}</h3>
          {activity.Recent.length === 0 ? (
            <p className="muted">{t('activityEmpty')}</p>
          ) : (
            <ul className={impersonationCardsStyles.dashboardList}>
              {activity.Recent.map((e) => (
                <li key={e.Id}>
                  <ActionWords action={e.Action} />
                  <span className={`muted ${impersonationCardsStyles.dashboardMeta}`}>
                    {e.ActorEmail ? `${e.ActorEmail} · ` : ''}
                    <Timestamp value={e.At} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className={platformCardsStyles.dashboardStack}>
          <h3>{t('refused')}</h3>
          <p>
            <PermittedLink
              className={platformCardsStyles.dashboardFigureLarge}
              to={consolePaths.auditTrail({ result: 'refused', range: '24h' })}
              aria-label={`${t('showRefused')}: ${activity.Refused}`}
            >
              {activity.Refused}
            </PermittedLink>
          </p>
          <h3>
            <PermittedLink to={consolePaths.auditTrail({ result: 'failed', range: '24h' })}>
              {t('failed')}
            </PermittedLink>
          </h3>
          {figures(activity.Failed, '24h')}
        </div>
        <div>
          <h3>{t('exports')}</h3>
          {figures(activity.Exports, '7d')}
        </div>
      </div>
      <TrailStreamLine />
      <PermittedLink
        className={impersonationCardsStyles.dashboardMore}
        to={consolePaths.auditTrail({ range: '24h' })}
      >
        {t('activityAll')}
      </PermittedLink>
    </section>
  );
}

/** One line per SIEM sink the operator set up (none: nothing shown): up to date, behind, or failing. */
function TrailStreamLine() {
  const t = useT('dashboard');
  const { data } = useTrailStream();
  if (!data || data.length === 0) return null;
  const line = (s: (typeof data)[number]) => {
    const target = `${s.Sink} (${s.Target})`;
    if (s.LastError) return t('streamFailing', { target, error: s.LastError, count: s.PendingRows });
    if (s.PendingRows === 0) return t('streamUpToDate', { target });
    const words = s.PendingCapped ? 'streamBehindCapped' : 'streamBehind';
    return t(words, { target, count: s.PendingRows, seconds: s.LagSeconds });
  };
  return (
    <div role="status">
      <h3>{t('streamTitle')}</h3>
      <ul className={impersonationCardsStyles.dashboardList}>
        {data.map((s) => (
          <li key={s.Sink} className={s.LastError ? dashboardPageStyles.dashboardStreamFailing : undefined}>
            {line(s)}
          </li>
        ))}
      </ul>
    </div>
  );
}
