import type { Site } from '@sac/contract/customers';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useSetSiteStatus } from '../api/customer-writes-api.ts';

/**
 * Confirms activating or deactivating one owned site ('Deactivate <AppName>?'); the row of the
 * cached site list takes the answer, so the table updates without a reload.
 */
export function SiteStatusDialog({ uid, site, onClose }: { uid: string; site: Site; onClose: () => void }) {
  const t = useT('customers');
  const setStatus = useSetSiteStatus(uid);
  const deactivate = site.Status === 'active';
  const onConfirm = () => {
    setStatus.mutate(
      { appId: site.appId, Status: deactivate ? 'inactive' : 'active' },
      {
        onSuccess: () => {
          toast.success(deactivate ? t('siteDeactivated') : t('siteActivated'));
          onClose();
        },
      },
    );
  };
  return (
    <ConfirmDialog
      title={t(deactivate ? 'deactivateTitle' : 'activateTitle', { name: site.AppName })}
      confirmLabel={t(deactivate ? 'deactivate' : 'activate')}
      busyLabel={t('working')}
      cancelLabel={t('cancel')}
      danger={deactivate}
      busy={setStatus.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>{deactivate ? t('deactivateDetail') : t('activateDetail')}</p>
    </ConfirmDialog>
  );
}
