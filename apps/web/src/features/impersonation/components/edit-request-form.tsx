import { versionTag } from '@sac/contract/constants';
import { editImpersonationBody, type ImpersonationRequest } from '@sac/contract/impersonation-api';
import type { FormEvent } from 'react';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { readRequest, useEditRequest, useTakenRoles } from '../api/impersonation-api.ts';
import { RequestFields, type RequestValues } from './request-fields.tsx';

const valuesOf = (r: ImpersonationRequest): RequestValues => ({
  Priority: r.Request.Priority,
  Description: r.Request.Description,
  Assignees: r.Request.Assignees,
  ProxyRoles: r.Request.ProxyRoles,
  AdditionalPermissions: r.Request.AdditionalPermissions,
});

/**
 * The requester edits their pending request: at least one role and one SuperAdmin assignee; roles
 * held by the app's other pending or active requests are not offered. The save names the version
 * the request was read at; an edit over someone else's change meanwhile shows theirs first.
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
  const conflict = useEditConflict<ImpersonationRequest>(
    { data: r, version: versionTag(r.Version) },
    async () => {
      const now = (await readRequest(r.Id)) ?? r;
      return { data: now, version: versionTag(now.Version) };
    },
  );
  const form = useContractForm(editImpersonationBody, { initial: valuesOf(r) });
  const values = form.values;
  const set = form.set;

  const send = (ifMatch: string | undefined) => {
    const data = form.submit();
    if (!data || edit.isPending) return;
    edit.mutate(
      { requestId: r.Id, body: data, ifMatch },
      {
        onSuccess: (answer) => {
          toast.success(answer.Message);
          form.leave(onDone);
        },
        onError: (error) => void conflict.refused(error),
      },
    );
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send(conflict.version);
  };
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (theirs) form.reset(valuesOf(theirs));
  };
  const labels: Record<keyof RequestValues, string> = {
    Priority: t('priority'),
    Description: t('description'),
    Assignees: t('assignees'),
    ProxyRoles: t('requestedRoles'),
    AdditionalPermissions: t('additionalPermissions'),
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      {conflict.theirs ? (
        <ChangedMeanwhile
          changes={changedFields(valuesOf(conflict.filledFrom), valuesOf(conflict.theirs.data), labels)}
          onLoadTheirs={loadTheirs}
          onOverwrite={() => send(conflict.overwrite())}
          busy={edit.isPending}
        />
      ) : null}
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
