import type { RevokeAction } from '@sac/contract/impersonation';
import { revokeActionBody } from '@sac/contract/impersonation-api';
import { useState } from 'react';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { useRequestAction } from '../api/impersonation-api.ts';
import { RequestActionForm, type RequestActionProps, useRequestActionForm } from './request-action-form.tsx';

/**
 * Revoke an approved request: the whole site access (revokeAction=site), or only the roles and
 * permissions chosen (revokeAction=roles; Revoke stays disabled until one is chosen).
 */
export function RevokeForm({ request: r, onBack, onDone }: RequestActionProps) {
  const t = useT('impersonation');
  const viewer = useCurrentUser();
  // The mode is the call's query, not its body: choosing it is not an unsaved change.
  const [mode, setMode] = useState<RevokeAction>('site');
  const { form, send, busy } = useRequestActionForm(
    revokeActionBody,
    {
      Status: 'Revoke' as const,
      ProxyRoles: [] as string[],
      AdditionalPermissions: [] as string[],
      Comments: '',
    },
    useRequestAction(),
    onDone,
  );
  const { values, set } = form;
  const nothingChosen =
    mode === 'roles' && values.ProxyRoles.length === 0 && values.AdditionalPermissions.length === 0;
  const site = mode === 'site';

  return (
    <RequestActionForm
      intro={t('revokeIntro', { initiator: r.Initiator, app: r.AppName })}
      submit={{ label: t('revoke'), tone: 'danger' }}
      busy={busy}
      blocked={nothingChosen ? t('revokeChooseSome') : undefined}
      onSubmit={() =>
        send((body) => ({
          requestId: r.Id,
          revokeAction: mode,
          body: site
            ? {
                ...body,
                ProxyRoles: r.Action.ApprovedProxyRoles,
                AdditionalPermissions: r.Action.ApprovedAdditionalPermissions,
              }
            : body,
          actor: viewer.email,
        }))
      }
      onBack={onBack}
    >
      <RadioGroup
        legend={t('revokeMode')}
        name="revokeAction"
        value={mode}
        onChange={(v) => setMode(v as RevokeAction)}
        options={[
          { value: 'site', label: t('revokeSite'), hint: t('revokeSiteHint') },
          { value: 'roles', label: t('revokeRoles'), hint: t('revokeRolesHint') },
        ]}
        renderChosen={(v) =>
          v === 'roles' ? (
            <>
              <CheckboxGroup
                legend={t('rolesToRevoke')}
                name="ProxyRoles"
                options={r.Action.ApprovedProxyRoles.map((x) => ({ value: x, label: x }))}
                value={values.ProxyRoles}
                onChange={(v) => set('ProxyRoles', v)}
              />
              {r.Action.ApprovedAdditionalPermissions.length > 0 ? (
                <CheckboxGroup
                  legend={t('permissionsToRevoke')}
                  name="AdditionalPermissions"
                  options={r.Action.ApprovedAdditionalPermissions.map((x) => ({ value: x, label: x }))}
                  value={values.AdditionalPermissions}
                  onChange={(v) => set('AdditionalPermissions', v)}
                />
              ) : null}
            </>
          ) : null
        }
      />
      <TextAreaField
        id="revoke-comments"
        name="Comments"
        label={t('commentsOptional')}
        value={values.Comments}
        error={form.shown('Comments')}
        onValueChange={(v) => set('Comments', v)}
      />
    </RequestActionForm>
  );
}
