import { SETTINGS_MESSAGES } from '@sac/contract/site-settings';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { type CustomObject, type SiteRef, useRemoveCustomObject } from '../api/site-settings-api.ts';

/** Confirms removing one custom object; the row leaves the table and the server's Message is toasted. */
export function RemoveCustomObjectDialog({
  site,
  object,
  onClose,
}: {
  site: SiteRef;
  object: CustomObject;
  onClose: () => void;
}) {
  const t = useT('siteSettings');
  const remove = useRemoveCustomObject(site);
  const onConfirm = () => {
    if (remove.isPending) return;
    remove.mutate(object.Id, {
      onSuccess: (answer) => {
        toast.success(answer.Message || SETTINGS_MESSAGES.customObjectRemoved);
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog
      title={t('removeObjectTitle', { id: object.Id })}
      confirmLabel={t('remove')}
      busyLabel={t('working')}
      cancelLabel={t('cancel')}
      danger
      busy={remove.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>{t('removeObjectDetail')}</p>
    </ConfirmDialog>
  );
}
