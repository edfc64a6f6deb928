import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { type FormEvent, useState } from 'react';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useLeaveGuard } from '../../../lib/leave-guard.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useRequestAction } from '../api/impersonation-api.ts';

/** Reject a pending request, with optional comments, after this confirmation. */
export function RejectForm({
  request: r,
  onBack,
  onDone,
}: {
  request: ImpersonationRequest;
  onBack: () => void;
  onDone: () => void;
}) {
  const t = useT('impersonation');
  const viewer = useCurrentUser();
  const action = useRequestAction();
  const [comments, setComments] = useState('');
  useLeaveGuard(comments.trim() !== '');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (action.isPending) return;
    action.mutate(
      { requestId: r.Id, body: { Status: 'Reject', Comments: comments.trim() }, actor: viewer.email },
      {
        onSuccess: (answer) => {
          toast.success(answer.Message);
          onDone();
        },
      },
    );
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <p>{t('rejectIntro', { initiator: r.Initiator, app: r.AppName })}</p>
      <TextAreaField
        id="reject-comments"
        name="Comments"
        label={t('commentsOptional')}
        value={comments}
        onValueChange={setComments}
        data-autofocus
      />
      <div className="form-actions dialog-actions">
        <button type="submit" className="button button-danger-solid" aria-busy={action.isPending}>
          {action.isPending ? t('working') : t('reject')}
        </button>
        <button type="button" className="button" disabled={action.isPending} onClick={onBack}>
          {t('back')}
        </button>
      </div>
    </form>
  );
}
