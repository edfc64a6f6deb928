import { editImpersonationBody, type ImpersonationRequest } from '@sac/contract/impersonation-api';
import { type FormEvent, useState } from 'react';
import { useLiveValidation } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useEditRequest } from '../api/impersonation-api.ts';
import { type RequestField, RequestFields, type RequestValues } from './request-fields.tsx';

const FIELDS = ['Priority', 'Description', 'Assignees', 'ProxyRoles', 'AdditionalPermissions'] as const;

/**
 * The requester edits their pending request: at least one role and one SuperAdmin assignee; roles
 * held by the app's other pending or active requests are not offered.
 */
export function EditRequestForm({
  request: r,
  takenRoles,
  onBack,
  onDone,
}: {
  request: ImpersonationRequest;
  takenRoles: readonly string[];
  onBack: () => void;
  onDone: () => void;
}) {
  const t = useT('impersonation');
  const edit = useEditRequest();
  const [values, setValues] = useState<RequestValues>({
    Priority: r.Request.Priority,
    Description: r.Request.Description,
    Assignees: r.Request.Assignees,
    ProxyRoles: r.Request.ProxyRoles,
    AdditionalPermissions: r.Request.AdditionalPermissions,
  });
  const form = useLiveValidation<RequestField, (typeof editImpersonationBody)['_zod']['output']>(
    editImpersonationBody,
    values,
  );
  const set = <F extends RequestField>(f: F, v: RequestValues[F]) => {
    form.changed(f);
    setValues((prev) => ({ ...prev, [f]: v }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.data || edit.isPending) {
      for (const f of FIELDS) form.touch(f);
      return;
    }
    edit.mutate(
      { requestId: r.Id, body: form.data },
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
      <RequestFields
        idPrefix="edit"
        values={values}
        set={set}
        touch={form.touch}
        shown={form.shown}
        takenRoles={takenRoles}
      />
      <div className="form-actions dialog-actions">
        <button type="submit" className="button button-primary" aria-busy={edit.isPending}>
          {edit.isPending ? t('saving') : t('save')}
        </button>
        <button type="button" className="button" disabled={edit.isPending} onClick={onBack}>
          {t('back')}
        </button>
      </div>
    </form>
  );
}
