import { SETTINGS_MESSAGES } from '@sac/contract/site-settings';
import { Dialog } from '../../../components/dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { type CustomDomain, type SiteRef, useDeleteCustomDomain } from '../api/site-settings-api.ts';

/** Confirms deleting one custom domain; the row leaves the table and the server's Message is toasted. */
export function DeleteDomainDialog({
  site,
  domain,
  onClose,
}: {
  site: SiteRef;
  domain: CustomDomain;
  onClose: () => void;
}) {
  const t = useT('siteSettings');
  const remove = useDeleteCustomDomain(site);
  const onConfirm = () => {
    if (remove.isPending) return;
    remove.mutate(domain.Domain, {
      onSuccess: (answer) => {
        toast.success(answer.Message || SETTINGS_MESSAGES.customDomainDeleted);
        onClose();
      },
    });
  };
  return (
    <Dialog
      title={t('deleteDomainTitle', { domain: domain.Domain })}
      onClose={onClose}
      busy={remove.isPending}
    >
      <p>{t('deleteDomainDetail')}</p>
      <div className="form-actions dialog-actions">
        <button
          type="button"
          className="button button-danger-solid"
          aria-busy={remove.isPending}
          onClick={onConfirm}
        >
          {remove.isPending ? t('working') : t('delete')}
        </button>
        <button type="button" className="button" disabled={remove.isPending} onClick={onClose} data-autofocus>
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}
