import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import type { ImpersonationSession } from '../../../lib/impersonation-mode.ts';
import { toast } from '../../../lib/toast-store.ts';
import { type BasicSettings, useImpersonatedSiteStatus } from '../api/impersonated-site-api.ts';

/**
 * Confirms deactivating (or activating) the site through the impersonation. The server allows it
 * only with ManageSite; a refusal closes the dialog and toasts the server's text.
 */
export function SiteStatusConfirm({
  session,
  current,
  onClose,
}: {
  session: ImpersonationSession;
  current: BasicSettings;
  onClose: () => void;
}) {
  const t = useT('impersonation');
  const setStatus = useImpersonatedSiteStatus(session);
  const deactivate = current.Status === 'active';
  const onConfirm = () => {
    setStatus.mutate(deactivate ? 'inactive' : 'active', {
      onSuccess: () => toast.success(deactivate ? t('siteDeactivated') : t('siteActivated')),
      onSettled: onClose,
    });
  };
  return (
    <ConfirmDialog
      title={t(deactivate ? 'deactivateSiteTitle' : 'activateSiteTitle', { app: current.AppName })}
      confirmLabel={t(deactivate ? 'deactivate' : 'activate')}
      busyLabel={t('working')}
      cancelLabel={t('cancel')}
      danger={deactivate}
      busy={setStatus.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>{deactivate ? t('deactivateSiteDetail') : t('activateSiteDetail')}</p>
    </ConfirmDialog>
  );
}
