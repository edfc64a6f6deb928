import { planStatusText, type Site } from '@sac/contract/customers';
import { Dialog } from '../../../components/dialog.tsx';
import { formatDate } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useSiteInfo } from '../api/customers-api.ts';
import { QueryStatus } from './query-status.tsx';

/** Everything about one site of the customer (appinfobyid), in a dialog. */
export function SiteDetailsDialog({ uid, site, onClose }: { uid: string; site: Site; onClose: () => void }) {
  const t = useT('customers');
  const info = useSiteInfo(uid, site.appId);
  const s = info.data;
  const dash = t('notSet');
  return (
    <Dialog title={t('siteDetailsTitle', { name: site.AppName })} onClose={onClose} wide>
      <QueryStatus query={info} />
      {s ? (
        <>
          <dl className="detail-list detail-list-compact">
            <div>
              <dt>{t('appId')}</dt>
              <dd>{s.appId}</dd>
            </div>
            <div>
              <dt>{t('appName')}</dt>
              <dd>{s.AppName}</dd>
            </div>
            <div>
              <dt>{t('apiKey')}</dt>
              <dd>
                <code>{s.ApiKey}</code>
              </dd>
            </div>
            <div>
              <dt>{t('owner')}</dt>
              <dd>{s.OwnerEmail}</dd>
            </div>
            <div>
              <dt>{t('status')}</dt>
              <dd>{s.Status === 'active' ? t('siteActive') : t('siteInactive')}</dd>
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
              <dd>{s.Billing}</dd>
            </div>
            <div>
              <dt>{t('dataCenter')}</dt>
              <dd>{s.DataCenter ?? dash}</dd>
            </div>
            <div>
              <dt>{t('globalServer')}</dt>
              <dd>{s.GlobalServer ?? dash}</dd>
            </div>
            <div>
              <dt>{t('databaseName')}</dt>
              <dd>{s.Database.Name || dash}</dd>
            </div>
            <div>
              <dt>{t('databaseType')}</dt>
              <dd>{s.Database.Custom ? t('customDatabase') : t('managedDatabase')}</dd>
            </div>
            {s.Database.Custom ? (
              <div>
                <dt>{t('connectionString')}</dt>
                <dd>
                  <code>{s.Database.ConnectionString ?? dash}</code>
                </dd>
              </div>
            ) : null}
            <div>
              <dt>{t('productionUrl')}</dt>
              <dd>{s.ProductionUrl || dash}</dd>
            </div>
            <div>
              <dt>{t('stagingUrl')}</dt>
              <dd>{s.StagingUrl || dash}</dd>
            </div>
            <div>
              <dt>{t('createdDate')}</dt>
              <dd>{formatDate(s.CreatedDate)}</dd>
            </div>
            <div>
              <dt>{t('modifiedDate')}</dt>
              <dd>{formatDate(s.ModifiedDate)}</dd>
            </div>
          </dl>
          <h3 id="site-features">{t('features')}</h3>
          {s.Features.length === 0 ? (
            <p className="muted">{t('noFeatures')}</p>
          ) : (
            <ul className="tag-list" aria-labelledby="site-features">
              {s.Features.map((f) => (
                <li key={f} className="tag">
                  {f}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </Dialog>
  );
}
