import { planStatusText } from '@sac/contract/customers';
import { DetailList } from '../../../components/detail-list.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useAppSettings } from '../api/plan-info-api.ts';
import type { SectionProps } from './section-props.ts';

/** Plan info: the plan, trial (active till / expired on) or subscribed, and the billing period. */
export function PlanInfoSection({ site, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const settings = useAppSettings(site);
  const s = settings.data;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{t('planInfo')}</h2>
      <QueryStatus query={settings} />
      {s ? (
        <DetailList
          items={[
            { label: t('siteName'), value: s.AppName },
            { label: t('plan'), value: s.Plan },
            { label: t('planStatus'), value: planStatusText(s.PlanStatus, s.TrialEndsAt, new Date()) },
            { label: t('billing'), value: s.Billing || t('notSet') },
          ]}
        />
      ) : null}
    </section>
  );
}
