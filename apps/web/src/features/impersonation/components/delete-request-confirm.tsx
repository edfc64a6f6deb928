import { z } from 'zod';
import { useT } from '../../../lib/i18n.tsx';
import { useDeleteRequest } from '../api/impersonation-api.ts';
import { RequestActionForm, type RequestActionProps, useRequestActionForm } from './request-action-form.tsx';

/** Deleting sends no body: the form has no fields, only the confirmation. */
const noFields = z.object({});

/** The requester confirms deleting their pending request; the row leaves the cached lists. */
export function DeleteRequestConfirm({ request: r, onBack, onDone }: RequestActionProps) {
  const t = useT('impersonation');
  const { send, busy } = useRequestActionForm(noFields, {}, useDeleteRequest(), onDone);
  return (
    <RequestActionForm
      intro={t('deleteIntro', { id: r.Id, app: r.AppName })}
      submit={{ label: t('delete'), tone: 'danger' }}
      busy={busy}
      focusBack
      onSubmit={() => send(() => r.Id)}
      onBack={onBack}
    />
  );
}
