import { Dialog } from '../../../components/dialog.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useVerifyEmail } from '../api/customer-writes-api.ts';

/** Confirms, then marks the customer's email verified (POST /admin/verifyemail); toasts the server's Message. */
export function VerifyEmailDialog({
  uid,
  email,
  onClose,
}: {
  uid: string;
  email: string;
  onClose: () => void;
}) {
  const t = useT('customers');
  const verify = useVerifyEmail(uid);
  const onConfirm = () => {
    if (verify.isPending) return;
    verify.mutate(undefined, {
      onSuccess: (answer) => {
        toast.success(answer.Message || t('emailVerifiedToast'));
        onClose();
      },
    });
  };
  return (
    <Dialog title={t('verifyEmailTitle')} onClose={onClose} busy={verify.isPending}>
      <p>{t('verifyEmailConfirm', { email })}</p>
      <div className="form-actions dialog-actions">
        <button
          type="button"
          className="button button-primary"
          aria-busy={verify.isPending}
          onClick={onConfirm}
        >
          {verify.isPending ? t('working') : t('verify')}
        </button>
        <button type="button" className="button" disabled={verify.isPending} onClick={onClose} data-autofocus>
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}
