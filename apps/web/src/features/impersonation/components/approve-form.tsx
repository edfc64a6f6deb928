import { approveActionBody } from '@sac/contract/impersonation-api';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { useRequestAction } from '../api/impersonation-api.ts';
import { RequestActionForm, type RequestActionProps, useRequestActionForm } from './request-action-form.tsx';

/**
 * Approve a pending request: the requested roles and permissions prefilled (they may only be
 * narrowed), the requested duration in whole minutes (1 to 43,200), optional comments.
 */
export function ApproveForm({ request: r, onBack, onDone }: RequestActionProps) {
  const t = useT('impersonation');
  const viewer = useCurrentUser();
  const { form, send, busy } = useRequestActionForm(
    approveActionBody,
    {
      Status: 'Approve' as const,
      ProxyRoles: r.Request.ProxyRoles,
      AdditionalPermissions: r.Request.AdditionalPermissions,
      Duration: String(r.Request.Duration),
      Comments: '',
    },
    useRequestAction(),
    onDone,
  );
  const { values, set } = form;

  return (
    <RequestActionForm
      intro={t('approveIntro', { initiator: r.Initiator, app: r.AppName })}
      submit={{ label: t('approve'), tone: 'primary' }}
      busy={busy}
      onSubmit={() => send((body) => ({ requestId: r.Id, body, actor: viewer.email }))}
      onBack={onBack}
    >
      <CheckboxGroup
        legend={t('rolesToGrant')}
        name="ProxyRoles"
        options={r.Request.ProxyRoles.map((v) => ({ value: v, label: v }))}
        value={values.ProxyRoles}
        error={form.shown('ProxyRoles')}
        onChange={(v) => set('ProxyRoles', v)}
      />
      {r.Request.AdditionalPermissions.length > 0 ? (
        <CheckboxGroup
          legend={t('permissionsToGrant')}
          name="AdditionalPermissions"
          options={r.Request.AdditionalPermissions.map((v) => ({ value: v, label: v }))}
          value={values.AdditionalPermissions}
          onChange={(v) => set('AdditionalPermissions', v)}
        />
      ) : (
        <p className="muted">{t('noPermissionsRequested')}</p>
      )}
      <FormField
        id="approve-duration"
        name="Duration"
        type="number"
        inputMode="numeric"
        min={1}
        max={43_200}
        step={1}
        label={t('durationMinutes')}
        hint={t('durationHint', { n: r.Request.Duration })}
        value={values.Duration}
        error={form.shown('Duration')}
        onValueChange={(v) => set('Duration', v)}
        onBlur={() => form.touch('Duration')}
        data-autofocus
      />
      <TextAreaField
        id="approve-comments"
        name="Comments"
        label={t('commentsOptional')}
        value={values.Comments}
        error={form.shown('Comments')}
        onValueChange={(v) => set('Comments', v)}
      />
    </RequestActionForm>
  );
}
