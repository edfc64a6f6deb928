import { Dialog } from '../../../components/dialog.tsx';
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
    if (setStatus.isPending) return;
    setStatus.mutate(deactivate ? 'inactive' : 'active', {
      onSuccess: () => toast.success(deactivate ? t('siteDeactivated') : t('siteActivated')),
      onSettled: onClose,
    });
  };
  return (
    <Dialog
      title={t(deactivate ? 'deactivateSiteTitle' : 'activateSiteTitle', { app: current.AppName })}
      onClose={onClose}
      busy={setStatus.isPending}
    >
      <p>{deactivate ? t('deactivateSiteDetail') : t('activateSiteDetail')}</p>
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
