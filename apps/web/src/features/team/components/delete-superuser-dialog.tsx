import type { SuperUser } from '@sac/contract/team';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
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
    <ConfirmDialog
      title={t('deleteTitle')}
      confirmLabel={t('confirm')}
      busyLabel={t('deleting')}
      cancelLabel={t('cancel')}
      danger
      busy={remove.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
      typedName={primaryEmail(target)}
    >
      <p>{t('confirmDelete', { email: primaryEmail(target) })}</p>
    </ConfirmDialog>
  );
}
