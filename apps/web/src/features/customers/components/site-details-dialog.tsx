import type { Site } from '@sac/contract/customers';
import { Dialog } from '../../../components/dialog.tsx';
import { QueryStatus } from '../../../components/query-status.tsx';
import { SiteInfoList } from '../../../components/site-info-list.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useSiteInfo } from '../api/customers-api.ts';

/** Everything about one site of the customer (appinfobyid), in a dialog. */
export function SiteDetailsDialog({ uid, site, onClose }: { uid: string; site: Site; onClose: () => void }) {
  const t = useT('customers');
  const info = useSiteInfo(uid, site.appId);
  return (
    <Dialog title={t('siteDetailsTitle', { name: site.AppName })} onClose={onClose} wide>
      <QueryStatus query={info} />
      {info.data ? <SiteInfoList site={info.data} featuresHeadingId="site-features" /> : null}
    </Dialog>
  );
}
