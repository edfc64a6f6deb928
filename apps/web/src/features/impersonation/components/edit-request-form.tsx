import { withReasonRule } from '@sac/contract/access-reasons';
import { versionTag } from '@sac/contract/constants';
import { editImpersonationBody, type ImpersonationRequest } from '@sac/contract/impersonation-api';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
import { useT } from '../../../lib/i18n.tsx';
import { readRequest, useEditRequest, useReasonSettings, useTakenRoles } from '../api/impersonation-api.ts';
import { RequestActionForm, type RequestActionProps, useRequestActionForm } from './request-action-form.tsx';
import { RequestFields, type RequestValues } from './request-fields.tsx';

const valuesOf = (r: ImpersonationRequest): RequestValues => ({
  Priority: r.Request.Priority,
  Description: r.Request.Description,
  // An older request has none: the requester chooses one with the edit.
  ReasonCode: r.Request.ReasonCode ?? '',
  CaseReference: r.Request.CaseReference ?? '',
  Assignees: r.Request.Assignees,
  ProxyRoles: r.Request.ProxyRoles,
  AdditionalPermissions: r.Request.AdditionalPermissions,
});

/**
 * The requester edits their pending request: at least one role and one SuperAdmin assignee; roles
 * held by the app's other pending or active requests are not offered. The save names the version
 * the request was read at; an edit over someone else's change meanwhile shows theirs first.
 */
export function EditRequestForm({ request: r, onBack, onDone }: RequestActionProps) {
  const t = useT('impersonation');
  const takenRoles = useTakenRoles(r.AppId, r.Id).data ?? [];
  const conflict = useEditConflict<ImpersonationRequest>(
    { data: r, version: versionTag(r.Version) },
    async () => {
      const now = (await readRequest(r.Id)) ?? r;
      return { data: now, version: versionTag(now.Version) };
    },
  );
  const reasons = useReasonSettings();
  const { form, send, busy } = useRequestActionForm(
    withReasonRule(editImpersonationBody, reasons.data),
    valuesOf(r),
    useEditRequest(),
    onDone,
  );
  const save = (ifMatch: string | undefined) =>
    send(
      (body) => ({ requestId: r.Id, body, ifMatch }),
      (error) => void conflict.refused(error),
    );
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (theirs) form.reset(valuesOf(theirs));
  };
  const labels: Record<keyof RequestValues, string> = {
    Priority: t('priority'),
    Description: t('description'),
    ReasonCode: t('reasonCode'),
    CaseReference: t('caseReference'),
    Assignees: t('assignees'),
    ProxyRoles: t('requestedRoles'),
    AdditionalPermissions: t('additionalPermissions'),
  };

  return (
    <RequestActionForm
      submit={{ label: t('save'), busyLabel: t('saving'), tone: 'primary' }}
      busy={busy}
      onSubmit={() => save(conflict.version)}
      onBack={onBack}
    >
      {conflict.theirs ? (
        <ChangedMeanwhile
          changes={changedFields(valuesOf(conflict.filledFrom), valuesOf(conflict.theirs.data), labels)}
          onLoadTheirs={loadTheirs}
          onOverwrite={() => save(conflict.overwrite())}
          busy={busy}
        />
      ) : null}
      <RequestFields
        idPrefix="edit"
        values={form.values}
        set={form.set}
        touch={form.touch}
        shown={form.shown}
        takenRoles={takenRoles}
      />
    </RequestActionForm>
  );
}
