import type { Site } from '@sac/contract/customers';
import { SiteStatusConfirm } from '../../../components/site-status-confirm.tsx';
import { useSetSiteStatus } from '../api/customer-writes-api.ts';

/**
 * Confirms activating or deactivating one owned site; the row of the cached site list takes the
 * answer, so the table updates without a reload.
 */
export function SiteStatusDialog({ uid, site, onClose }: { uid: string; site: Site; onClose: () => void }) {
  const setStatus = useSetSiteStatus(uid);
  return (
    <SiteStatusConfirm
      appName={site.AppName}
      status={site.Status}
      busy={setStatus.isPending}
      setStatus={(Status, done) => setStatus.mutate({ appId: site.appId, Status }, done)}
      onClose={onClose}
    />
  );
}
