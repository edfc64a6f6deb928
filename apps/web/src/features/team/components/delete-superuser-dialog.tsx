import type { SuperUser } from '@sac/contract/team';
import { Dialog } from '../../../components/dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useDeleteSuperUser } from '../api/team-api.ts';
import { primaryEmail } from './staff.ts';

/** Confirms and deletes one super user; the row leaves the cached list. */
export function DeleteSuperUserDialog({ target, onClose }: { target: SuperUser; onClose: () => void }) {
  const t = useT('team');
  const remove = useDeleteSuperUser();
  const onConfirm = () => {
    if (remove.isPending) return;
    remove.mutate(
      { uid: target.Uid, role: target.Roles },
      {
        onSuccess: () => {
          toast.success(t('deleted'));
          onClose();
        },
      },
    );
  };
  return (
    <Dialog title={t('deleteTitle')} onClose={onClose} busy={remove.isPending}>
      <p>{t('confirmDelete', { email: primaryEmail(target) })}</p>
      <div className="form-actions dialog-actions">
        <button
          type="button"
          className="button button-danger-solid"
          aria-busy={remove.isPending}
          onClick={onConfirm}
        >
          {remove.isPending ? t('deleting') : t('confirm')}
        </button>
        <button type="button" className="button" disabled={remove.isPending} onClick={onClose} data-autofocus>
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}
