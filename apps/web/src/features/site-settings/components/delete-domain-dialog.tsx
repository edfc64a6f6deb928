import { SETTINGS_MESSAGES } from '@sac/contract/site-settings';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
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
    <ConfirmDialog
      title={t('deleteDomainTitle', { domain: domain.Domain })}
      confirmLabel={t('delete')}
      busyLabel={t('working')}
      cancelLabel={t('cancel')}
      danger
      busy={remove.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>{t('deleteDomainDetail')}</p>
    </ConfirmDialog>
  );
}
