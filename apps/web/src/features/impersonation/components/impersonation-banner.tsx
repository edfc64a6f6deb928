import { useEffect } from 'react';
import { CaseValue } from '../../../components/reason-view.tsx';
import { useT } from '../../../lib/i18n.tsx';
import type { ImpersonationSession } from '../../../lib/impersonation-mode.ts';
import { formatCountdown, useRemaining } from './countdown.ts';
import styles from './impersonation-banner.module.css';

interface Props {
  session: ImpersonationSession;
  ending: boolean;
  onEnd: () => void;
  /** Called once when the countdown reaches zero. */
  onExpired: () => void;
}

/**
 * The impersonation banner (region 'Impersonation', warning colour, kept in view): 'Impersonating
 * <AppName> as <Roles> — <time> left', a live countdown to the grant's expiry, the granted
 * permissions and 'End impersonation'. The time is a timer (not read out every second). A
 * break-glass session's banner is red and says so, with the reason and the case it was opened for
 * (the case a link to the tracker when the operator set one).
 */
export function ImpersonationBanner({ session, ending, onEnd, onExpired }: Props) {
  const t = useT('impersonation');
  const left = useRemaining(session.grant.ExpiresAt);
  const { grant } = session;
  const expired = left === 0;
  useEffect(() => {
    if (expired) onExpired();
  }, [expired, onExpired]);
  const roles = grant.Roles.length ? grant.Roles.join(', ') : t('noRoles');
  const permissions = grant.Permissions.length ? grant.Permissions.join(', ') : t('none');
  const breakGlass = grant.BreakGlass === true;
  return (
    <section
      className={`${styles.impersonationBanner} ${breakGlass ? styles.breakGlass : ''}`}
      aria-label={breakGlass ? t('breakGlassSession') : t('impersonation')}
      data-break-glass={breakGlass || undefined}
    >
      <div className="impersonation-banner-text">
        {breakGlass ? (
          <>
            <p className={styles.breakGlassLabel}>{t('breakGlassBanner')}</p>
            <p className={styles.breakGlassWhy}>
              {t('bannerReason', { reason: grant.ReasonLabel ?? t('none') })}
              {grant.CaseReference ? (
                <>
                  {' · '}
                  {t('bannerCase')} <CaseValue shown={grant} />
                </>
              ) : null}
            </p>
          </>
        ) : null}
        <p className={styles.impersonationBannerLead}>
          {t('bannerLead', { app: grant.AppName, roles })}{' '}
          <span role="timer" className={styles.impersonationCountdown}>
            {formatCountdown(left)}
          </span>{' '}
          {t('bannerLeft')}
        </p>
        <p className={styles.impersonationBannerPermissions}>{t('bannerPermissions', { permissions })}</p>
      </div>
      <button
        type="button"
        className={`button ${breakGlass ? 'button-danger-solid' : styles.buttonWarning}`}
        onClick={onEnd}
        disabled={ending}
        aria-busy={ending}
      >
        {ending ? t('ending') : t('endImpersonation')}
      </button>
    </section>
  );
}
