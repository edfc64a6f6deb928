import { planStatusText } from '@sac/contract/customers';
import { useT } from '../../../lib/i18n.tsx';
import { useAppSettings } from '../api/site-settings-api.ts';
import type { SectionProps } from './section-props.ts';
import { SectionStatus } from './section-status.tsx';

/** Plan info: the plan, trial (active till / expired on) or subscribed, and the billing period. */
export function PlanInfoSection({ site, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const settings = useAppSettings(site);
  const s = settings.data;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('planInfo')}</h2>
      <SectionStatus query={settings} />
      {s ? (
        <dl className="detail-list detail-list-compact">
          <div>
            <dt>{t('siteName')}</dt>
            <dd>{s.AppName}</dd>
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
            <dd>{s.Billing || t('notSet')}</dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}
