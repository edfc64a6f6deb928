import { planStatusText, type SiteInfo } from '@sac/contract/customers';
import { formatDate } from '../lib/date-format.ts';
import { useT } from '../lib/i18n.tsx';
import { CopyableCode } from './copy-button.tsx';
import { DataCenterName } from './data-center-name.tsx';
import { DetailList } from './detail-list.tsx';

/**
 * Everything about one site (GET /admin/appinfobyid): identity, status, plan, data center,
 * database (a custom connection string arrives masked) and web apps, then its features. Shown by
 * the customer view's site details and by the site configuration's overview.
 */
export function SiteInfoList({ site: s, featuresHeadingId }: { site: SiteInfo; featuresHeadingId: string }) {
  const t = useT('common');
  const dash = t('notSet');
  return (
    <>
      <DetailList
        items={[
          { label: t('site.appId'), value: s.appId },
          { label: t('site.appName'), value: s.AppName },
          {
            label: t('site.apiKey'),
            value: <CopyableCode text={s.ApiKey} label={t('copyApiKey', { site: s.AppName })} />,
          },
          { label: t('site.owner'), value: s.OwnerEmail },
          { label: t('site.status'), value: s.Status === 'active' ? t('site.active') : t('site.inactive') },
          { label: t('site.plan'), value: s.Plan },
          { label: t('site.planStatus'), value: planStatusText(s.PlanStatus, s.TrialEndsAt, new Date()) },
          { label: t('site.billing'), value: s.Billing || dash },
          {
            label: t('site.dataCenter'),
            value: <DataCenterName code={s.DataCenter} name={s.DataCenterName} />,
          },
          { label: t('site.globalServer'), value: s.GlobalServer ?? dash },
          { label: t('site.databaseName'), value: s.Database.Name || dash },
          {
            label: t('site.databaseType'),
            value: s.Database.Custom ? t('site.customDatabase') : t('site.managedDatabase'),
          },
          s.Database.Custom && {
            label: t('site.connectionString'),
            value: <code>{s.Database.ConnectionString ?? dash}</code>,
          },
          { label: t('site.productionUrl'), value: s.ProductionUrl || dash },
          { label: t('site.stagingUrl'), value: s.StagingUrl || dash },
          { label: t('site.createdDate'), value: formatDate(s.CreatedDate) },
          { label: t('site.modifiedDate'), value: formatDate(s.ModifiedDate) },
        ]}
      />
      <h3 id={featuresHeadingId}>{t('site.features')}</h3>
      {s.Features.length === 0 ? (
        <p className="muted">{t('site.noFeatures')}</p>
      ) : (
        <ul className="tag-list" aria-labelledby={featuresHeadingId}>
          {s.Features.map((f) => (
            <li key={f} className="tag">
              {f}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
