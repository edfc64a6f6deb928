import type { SuperUser } from '@sac/contract/team';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useResendInvitation } from '../api/team-api.ts';
import { primaryEmail } from './staff.ts';

/** Confirms and sends a pending invitee their invitation again; the server's answer is toasted. */
export function ResendInvitationDialog({ target, onClose }: { target: SuperUser; onClose: () => void }) {
  const t = useT('team');
  const resend = useResendInvitation();
  const onConfirm = () => {
    if (resend.isPending) return;
    resend.mutate(target.Uid, {
      onSuccess: (answer) => {
        toast.success(answer.Message);
        onClose();
      },
    });
  };
  return (
    <ConfirmDialog
      title={t('resendTitle')}
      confirmLabel={t('resendConfirm')}
      busyLabel={t('resending')}
      cancelLabel={t('cancel')}
      busy={resend.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>{t('resendText', { email: primaryEmail(target) })}</p>
    </ConfirmDialog>
  );
}
