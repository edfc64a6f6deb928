import { rejectActionBody } from '@sac/contract/impersonation-api';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { useRequestAction } from '../api/impersonation-api.ts';
import { RequestActionForm, type RequestActionProps, useRequestActionForm } from './request-action-form.tsx';

/** Reject a pending request, with optional comments, after this confirmation. */
export function RejectForm({ request: r, onBack, onDone }: RequestActionProps) {
  const t = useT('impersonation');
  const viewer = useCurrentUser();
  const { form, send, busy } = useRequestActionForm(
    rejectActionBody,
    { Status: 'Reject' as const, Comments: '' },
    useRequestAction(),
    onDone,
  );
  return (
    <RequestActionForm
      intro={t('rejectIntro', { initiator: r.Initiator, app: r.AppName })}
      submit={{ label: t('reject'), tone: 'danger' }}
      busy={busy}
      onSubmit={() => send((body) => ({ requestId: r.Id, body, actor: viewer.email }))}
      onBack={onBack}
    >
      <TextAreaField
        id="reject-comments"
        name="Comments"
        label={t('commentsOptional')}
        value={form.values.Comments}
        error={form.shown('Comments')}
        onValueChange={(v) => form.set('Comments', v)}
        data-autofocus
      />
    </RequestActionForm>
  );
}
