import { editImpersonationBody, type ImpersonationRequest } from '@sac/contract/impersonation-api';
import type { FormEvent } from 'react';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useEditRequest, useTakenRoles } from '../api/impersonation-api.ts';
import { RequestFields, type RequestValues } from './request-fields.tsx';

/**
 * The requester edits their pending request: at least one role and one SuperAdmin assignee; roles
 * held by the app's other pending or active requests are not offered.
 */
export function EditRequestForm({
  request: r,
  onBack,
  onDone,
}: {
  request: ImpersonationRequest;
  onBack: () => void;
  onDone: () => void;
}) {
  const t = useT('impersonation');
  const edit = useEditRequest();
  const takenRoles = useTakenRoles(r.AppId, r.Id).data ?? [];
  const initial: RequestValues = {
    Priority: r.Request.Priority,
    Description: r.Request.Description,
    Assignees: r.Request.Assignees,
    ProxyRoles: r.Request.ProxyRoles,
    AdditionalPermissions: r.Request.AdditionalPermissions,
  };
  const form = useContractForm(editImpersonationBody, { initial });
  const values = form.values;
  const set = form.set;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || edit.isPending) return;
    edit.mutate(
      { requestId: r.Id, body: data },
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
