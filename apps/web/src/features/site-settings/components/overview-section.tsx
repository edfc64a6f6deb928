import { useState } from 'react';
import { QueryStatus } from '../../../components/query-status.tsx';
import { SiteInfoList } from '../../../components/site-info-list.tsx';
import { SiteStatusConfirm } from '../../../components/site-status-confirm.tsx';
import { useApiAuth } from '../../../lib/api-auth.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useSetSiteStatus, useSiteInfo } from '../api/overview-api.ts';
import { AccessNote } from './access-note.tsx';
import type { SectionProps } from './section-props.ts';

/**
 * Overview: everything about the site in one read (plan, status, data center, database, web
 * apps, features), and Activate / Deactivate when the caller may change the site's status.
 */
export function OverviewSection({ site, headingId }: SectionProps) {
  const t = useT('siteSettings');
  const auth = useApiAuth();
  const info = useSiteInfo(site);
  const setStatus = useSetSiteStatus(site);
  const [confirming, setConfirming] = useState(false);
  const s = info.data;
  const canSetStatus = auth.allows('setSiteStatus');
  return (
    <section aria-labelledby={headingId}>
      <div className="page-header">
        <h2 id={headingId}>{t('overview')}</h2>
        {s && canSetStatus ? (
          <div className="page-header-actions">
            <button
              type="button"
              className={s.Status === 'active' ? 'button button-small button-danger' : 'button button-small'}
              onClick={() => setConfirming(true)}
            >
              {s.Status === 'active' ? t('deactivateSite') : t('activateSite')}
            </button>
          </div>
        ) : null}
      </div>
      {s && !canSetStatus ? <AccessNote endpoint="setSiteStatus" kind="status" /> : null}
      <QueryStatus query={info} />
      {s ? <SiteInfoList site={s} featuresHeadingId={`${headingId}-features`} /> : null}
      {confirming && s ? (
        <SiteStatusConfirm
          appName={s.AppName}
          status={s.Status}
          busy={setStatus.isPending}
          setStatus={(next, done) => setStatus.mutate(next, done)}
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </section>
  );
}
