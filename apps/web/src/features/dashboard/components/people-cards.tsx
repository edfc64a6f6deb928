import { consolePaths } from '@sac/contract/console-paths';
import type { Dashboard } from '@sac/contract/dashboard';
import { Timestamp } from '../../../components/timestamp.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { PermittedLink } from '../../../lib/may-open.tsx';
import dashboardPageStyles from './dashboard-page.module.css';
import impersonationCardsStyles from './impersonation-cards.module.css';
import platformCardsStyles from './platform-cards.module.css';

/**
 * Staff sign-in failures of the last day (every failed step: wrong passwords and wrong
 * second-factor codes, apart) and lockouts; staff without a second factor.
 */
export function StaffCard({
  signIns,
  withoutFactor,
}: {
  signIns: Dashboard['StaffSignIns'];
  withoutFactor: Dashboard['StaffWithoutSecondFactor'];
}) {
  const t = useT('dashboard');
  return (
    <section className={`card ${dashboardPageStyles.dashboardCard}`} aria-labelledby="dash-staff">
      <header className={impersonationCardsStyles.dashboardCardHeader}>
        <h2 id="dash-staff">{t('staffTitle')}</h2>
      </header>
      {signIns ? (
        <dl className={platformCardsStyles.dashboardFigures}>
          <div>
            <dt>{t('signInFailures')}</dt>
            <dd>{signIns.Failures}</dd>
            <dd className={platformCardsStyles.dashboardFigureParts}>
              <PermittedLink to={consolePaths.auditTrail({ action: 'login.failed', range: '24h' })}>
                {t('byPassword')}: {signIns.PasswordFailures}
              </PermittedLink>
              <PermittedLink to={consolePaths.auditTrail({ action: 'mfa.failed', range: '24h' })}>
                {t('bySecondFactor')}: {signIns.SecondFactorFailures}
              </PermittedLink>
            </dd>
          </div>
          <div>
            <dt>{t('lockouts')}</dt>
            <dd>
              <PermittedLink
                to={consolePaths.auditTrail({ action: 'login.lockout', range: '24h' })}
                aria-label={`${t('showLockouts')}: ${signIns.Lockouts}`}
              >
                {signIns.Lockouts}
              </PermittedLink>
            </dd>
          </div>
        </dl>
      ) : null}
      {withoutFactor ? (
        <>
          <h3>
            {t('withoutFactor')}{' '}
            <span className={platformCardsStyles.dashboardFigureSmall}>{withoutFactor.Count}</span>
          </h3>
          <p className="muted">
            {withoutFactor.Count === 0 ? t('withoutFactorNone') : t('withoutFactorHint')}
          </p>
          <PermittedLink className={impersonationCardsStyles.dashboardMore} to={consolePaths.superusers()}>
            {t('team')}
          </PermittedLink>
        </>
      ) : null}
    </section>
  );
}

/** The customers the viewer opened last. */
export function RecentCustomersCard({ recent }: { recent: NonNullable<Dashboard['RecentCustomers']> }) {
  const t = useT('dashboard');
  return (
    <section className={`card ${dashboardPageStyles.dashboardCard}`} aria-labelledby="dash-recent">
      <header className={impersonationCardsStyles.dashboardCardHeader}>
        <h2 id="dash-recent">{t('recentTitle')}</h2>
      </header>
      {recent.length === 0 ? (
        <p className="muted">
          {t('recentEmpty')}{' '}
          <PermittedLink to={consolePaths.customerSearch()}>{t('searchCustomers')}</PermittedLink>
        </p>
      ) : (
        <ul className={impersonationCardsStyles.dashboardList}>
          {recent.map((c) => (
            <li key={c.Uid}>
              <PermittedLink to={consolePaths.customerView({ uid: c.Uid })}>
                {c.Name || c.Email}
              </PermittedLink>
              <span className={`muted ${impersonationCardsStyles.dashboardMeta}`}>
                {c.Email} · {t('viewed')} <Timestamp value={c.ViewedAt} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
