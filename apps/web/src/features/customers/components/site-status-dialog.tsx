import type { Site } from '@sac/contract/customers';
import { Dialog } from '../../../components/dialog.tsx';
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
    if (setStatus.isPending) return;
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
    <Dialog
      title={t(deactivate ? 'deactivateTitle' : 'activateTitle', { name: site.AppName })}
      onClose={onClose}
      busy={setStatus.isPending}
    >
      <p>{deactivate ? t('deactivateDetail') : t('activateDetail')}</p>
      <div className="form-actions dialog-actions">
        <button
          type="button"
          className={deactivate ? 'button button-danger-solid' : 'button button-primary'}
          aria-busy={setStatus.isPending}
          onClick={onConfirm}
        >
          {setStatus.isPending ? t('working') : t(deactivate ? 'deactivate' : 'activate')}
        </button>
        <button
          type="button"
          className="button"
          disabled={setStatus.isPending}
          onClick={onClose}
          data-autofocus
        >
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}
