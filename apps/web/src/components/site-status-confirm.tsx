import { useT } from '../lib/i18n.tsx';
import { toast } from '../lib/toast-store.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

type SiteStatus = 'active' | 'inactive';

/**
 * Confirms activating or deactivating one site ('Deactivate <AppName>?'). The caller's mutation
 * does the call; on success the new status is toasted and the dialog closes. A refusal is toasted
 * by the query client with the server's text and leaves the dialog open.
 */
export function SiteStatusConfirm({
  appName,
  status,
  busy,
  setStatus,
  onClose,
}: {
  appName: string;
  status: SiteStatus;
  busy: boolean;
  setStatus: (next: SiteStatus, done: { onSuccess: () => void }) => void;
  onClose: () => void;
}) {
  const t = useT('common');
  const deactivate = status === 'active';
  const onConfirm = () =>
    setStatus(deactivate ? 'inactive' : 'active', {
      onSuccess: () => {
        toast.success(deactivate ? t('siteDeactivated') : t('siteActivated'));
        onClose();
      },
    });
  return (
    <ConfirmDialog
      title={t(deactivate ? 'deactivateSiteTitle' : 'activateSiteTitle', { name: appName })}
      confirmLabel={t(deactivate ? 'deactivateSite' : 'activateSite')}
      busyLabel={t('working')}
      cancelLabel={t('cancel')}
      danger={deactivate}
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
      {...(deactivate ? { typedName: appName } : {})}
    >
      <p>{deactivate ? t('deactivateSiteDetail') : t('activateSiteDetail')}</p>
    </ConfirmDialog>
  );
}
