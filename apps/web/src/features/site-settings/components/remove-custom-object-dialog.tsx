import { SETTINGS_MESSAGES } from '@sac/contract/site-settings';
import { Dialog } from '../../../components/dialog.tsx';
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
    <Dialog title={t('removeObjectTitle', { id: object.Id })} onClose={onClose} busy={remove.isPending}>
      <p>{t('removeObjectDetail')}</p>
      <div className="form-actions dialog-actions">
        <button
          type="button"
          className="button button-danger-solid"
          aria-busy={remove.isPending}
          onClick={onConfirm}
        >
          {remove.isPending ? t('working') : t('remove')}
        </button>
        <button type="button" className="button" disabled={remove.isPending} onClick={onClose} data-autofocus>
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}
