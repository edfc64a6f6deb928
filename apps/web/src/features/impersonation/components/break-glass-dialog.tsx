import { CASE_REFERENCE_MAX, withReasonRule } from '@sac/contract/access-reasons';
import { BREAK_GLASS_MAX_MINUTES, BREAK_GLASS_MESSAGES, openBreakGlassBody } from '@sac/contract/break-glass';
import { consolePaths } from '@sac/contract/console-paths';
import { ERRORS } from '@sac/contract/errors';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useBreakGlassOptions, useOpenBreakGlass } from '../api/break-glass-api.ts';
import { useTakenRoles } from '../api/impersonation-api.ts';
import { useStartImpersonation } from '../api/impersonation-session-api.ts';
import { RolesFields } from './request-fields.tsx';

interface Values {
  AppId: number;
  ReasonCode: string;
  CaseReference: string;
  Description: string;
  ProxyRoles: string[];
  AdditionalPermissions: string[];
  Duration: string;
}

type BreakGlassForm = ReturnType<typeof useContractForm<Values, z.output<typeof openBreakGlassBody>>>;

/** The server's rule as the user types: break-glass's codes, a case always, at most 60 minutes. */
const schema = openBreakGlassBody.superRefine((v, ctx) => {
  if (v.Duration > BREAK_GLASS_MAX_MINUTES)
    ctx.addIssue({ code: 'custom', path: ['Duration'], message: BREAK_GLASS_MESSAGES.durationRange });
});

/**
 * Break glass (SuperAdmins, while the operator leaves it on): a deliberate dialog that opens access
 * to the site at once, without the owner's consent or another's approval: a break-glass reason,
 * the case, the roles, at most 60 minutes, and who will be told. On success the session starts
 * and the impersonated site opens under its red banner.
 */
export function BreakGlassDialog({
  uid,
  appId,
  appName,
  onClose,
}: {
  uid: string;
  appId: number;
  appName: string;
  onClose: () => void;
}) {
  const t = useT('impersonation');
  const navigate = useNavigate();
  const options = useBreakGlassOptions(true);
  const openGrant = useOpenBreakGlass();
  const start = useStartImpersonation();
  const reasons = options.data
    ? { codes: options.data.ReasonCodes, caseRequired: true, caseUrlPattern: null }
    : undefined;
  const initial: Values = {
    AppId: appId,
    ReasonCode: '',
    CaseReference: '',
    Description: '',
    ProxyRoles: [],
    AdditionalPermissions: [],
    Duration: String(BREAK_GLASS_MAX_MINUTES),
  };
  const form = useContractForm(reasons ? withReasonRule(schema, reasons) : schema, {
    initial,
    leaveGuard: false,
  });
  const busy = openGrant.isPending || start.isPending;
  const others = options.data?.SuperAdmins ?? [];

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const body = form.submit();
    if (!body || busy) return;
    openGrant
      .mutateAsync(body)
      .then(async (answer) => {
        toast.success(answer.Message);
        await start.mutateAsync({ ownerUid: uid, appId });
        navigate(consolePaths.impersonatedSite({ uid, appId }));
      })
      .catch((error: unknown) => {
        form.serverFailed(error, {
          [ERRORS.breakGlassDuration.code]: 'Duration',
          [ERRORS.unknownReasonCode.code]: 'ReasonCode',
          [ERRORS.caseRequired.code]: 'CaseReference',
        });
      });
  };

  return (
    <Dialog title={t('breakGlassTitle', { app: appName })} onClose={onClose} busy={busy} wide>
      <p className="form-alert" role="note">
        <strong>{t('breakGlassWarningLead')}</strong> {t('breakGlassWarning')}
      </p>
      <p>
        {others.length ? t('breakGlassTold', { admins: others.join(', ') }) : t('breakGlassToldOwnerOnly')}{' '}
        {t('breakGlassReviewNote', { hours: options.data?.ReviewHours ?? 24 })}
      </p>
      <form onSubmit={onSubmit} noValidate aria-label={t('breakGlassTitle', { app: appName })}>
        <BreakGlassFields form={form} codes={options.data?.ReasonCodes ?? []} appId={appId} />
        <div className="form-actions dialog-actions">
          <button type="submit" className="button button-danger-solid" aria-busy={busy}>
            {busy ? t('breakGlassOpening') : t('breakGlassSubmit')}
          </button>
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The dialog's fields: the reason, the case, what is happening, the roles, the minutes. */
function BreakGlassFields({
  form,
  codes,
  appId,
}: {
  form: BreakGlassForm;
  codes: readonly { Code: string; Label: string }[];
  appId: number;
}) {
  const t = useT('impersonation');
  const takenRoles = useTakenRoles(appId).data ?? [];
  const { values, set } = form;
  return (
    <>
      <SelectField
        id="break-glass-reason"
        name="ReasonCode"
        label={t('reasonCode')}
        placeholder={t('chooseReason')}
        options={codes.map((c) => ({ value: c.Code, label: c.Label }))}
        value={values.ReasonCode}
        error={form.shown('ReasonCode')}
        onValueChange={(v) => set('ReasonCode', v)}
        onBlur={() => form.touch('ReasonCode')}
        required
        data-autofocus
      />
      <FormField
        id="break-glass-case"
        name="CaseReference"
        autoComplete="off"
        maxLength={CASE_REFERENCE_MAX}
        label={t('caseReference')}
        hint={t('breakGlassCaseHint')}
        value={values.CaseReference}
        error={form.shown('CaseReference')}
        onValueChange={(v) => set('CaseReference', v)}
        onBlur={() => form.touch('CaseReference')}
        required
      />
      <TextAreaField
        id="break-glass-description"
        name="Description"
        label={t('breakGlassDescription')}
        value={values.Description}
        error={form.shown('Description')}
        onValueChange={(v) => set('Description', v)}
      />
      <RolesFields
        values={values}
        set={(f, v) => set(f, v as Values[typeof f])}
        touch={form.touch}
        shown={form.shown}
        takenRoles={takenRoles}
      />
      <FormField
        id="break-glass-duration"
        name="Duration"
        type="number"
        inputMode="numeric"
        min={1}
        max={BREAK_GLASS_MAX_MINUTES}
        step={1}
        label={t('breakGlassMinutes')}
        hint={t('breakGlassMinutesHint', { max: BREAK_GLASS_MAX_MINUTES })}
        value={values.Duration}
        error={form.shown('Duration')}
        onValueChange={(v) => set('Duration', v)}
        onBlur={() => form.touch('Duration')}
        required
      />
    </>
  );
}
