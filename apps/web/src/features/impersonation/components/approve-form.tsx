import { type ImpersonationRequest, impersonationActionBody } from '@sac/contract/impersonation-api';
import type { FormEvent } from 'react';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useRequestAction } from '../api/impersonation-api.ts';

const schema = impersonationActionBody.options[0];

/**
 * Approve a pending request: the requested roles and permissions prefilled (they may only be
 * narrowed), the requested duration in whole minutes (1 to 43,200), optional comments.
 */
export function ApproveForm({
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
  const form = useContractForm(schema, {
    initial: {
      Status: 'Approve' as const,
      ProxyRoles: r.Request.ProxyRoles,
      AdditionalPermissions: r.Request.AdditionalPermissions,
      Duration: String(r.Request.Duration),
      Comments: '',
    },
  });
  const values = form.values;
  const set = form.set;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || action.isPending) return;
    action.mutate(
      { requestId: r.Id, body: data, actor: viewer.email },
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
      <p>{t('approveIntro', { initiator: r.Initiator, app: r.AppName })}</p>
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
        onValueChange={(v) => set('Comments', v)}
      />
      <div className="form-actions dialog-actions">
        <button type="submit" className="button button-primary" aria-busy={action.isPending}>
          {action.isPending ? t('working') : t('approve')}
        </button>
        <button type="button" className="button" disabled={action.isPending} onClick={onBack}>
          {t('back')}
        </button>
      </div>
    </form>
  );
}
