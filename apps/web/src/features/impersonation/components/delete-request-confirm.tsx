import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useDeleteRequest } from '../api/impersonation-api.ts';

/** The requester confirms deleting their pending request; the row leaves the cached lists. */
export function DeleteRequestConfirm({
  request: r,
  onBack,
  onDone,
}: {
  request: ImpersonationRequest;
  onBack: () => void;
  onDone: () => void;
}) {
  const t = useT('impersonation');
  const remove = useDeleteRequest();
  const onConfirm = () => {
    if (remove.isPending) return;
    remove.mutate(r.Id, {
      onSuccess: (answer) => {
        toast.success(answer.Message);
        onDone();
      },
    });
  };
  return (
    <>
      <p>{t('deleteIntro', { id: r.Id, app: r.AppName })}</p>
      <div className="form-actions dialog-actions">
        <button
          type="button"
          className="button button-danger-solid"
          aria-busy={remove.isPending}
          onClick={onConfirm}
        >
          {remove.isPending ? t('working') : t('delete')}
        </button>
        <button type="button" className="button" disabled={remove.isPending} onClick={onBack} data-autofocus>
          {t('back')}
        </button>
      </div>
    </>
  );
}
