import type { RevokeAction } from '@sac/contract/impersonation';
import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { type FormEvent, useId, useState } from 'react';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { useLeaveGuard } from '../../../lib/leave-guard.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useRequestAction } from '../api/impersonation-api.ts';

/**
 * Revoke an approved request: the whole site access (revokeAction=site), or only the roles and
 * permissions chosen (revokeAction=roles; Revoke stays disabled until one is chosen).
 */
export function RevokeForm({
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
  const hintId = useId();
  const [mode, setMode] = useState<RevokeAction>('site');
  const [roles, setRoles] = useState<string[]>([]);
  const [permissions, setPermissions] = useState<string[]>([]);
  const [comments, setComments] = useState('');
  useLeaveGuard(comments.trim() !== '' || roles.length > 0 || permissions.length > 0);
  const nothingChosen = mode === 'roles' && roles.length === 0 && permissions.length === 0;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (nothingChosen || action.isPending) return;
    const site = mode === 'site';
    action.mutate(
      {
        requestId: r.Id,
        revokeAction: mode,
        body: {
          Status: 'Revoke',
          ProxyRoles: site ? r.Action.ApprovedProxyRoles : roles,
          AdditionalPermissions: site ? r.Action.ApprovedAdditionalPermissions : permissions,
          Comments: comments.trim(),
        },
        actor: viewer.email,
      },
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
      <p>{t('revokeIntro', { initiator: r.Initiator, app: r.AppName })}</p>
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
                value={roles}
                onChange={setRoles}
              />
              {r.Action.ApprovedAdditionalPermissions.length > 0 ? (
                <CheckboxGroup
                  legend={t('permissionsToRevoke')}
                  name="AdditionalPermissions"
                  options={r.Action.ApprovedAdditionalPermissions.map((x) => ({ value: x, label: x }))}
                  value={permissions}
                  onChange={setPermissions}
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
        value={comments}
        onValueChange={setComments}
      />
      {nothingChosen ? (
        <p id={hintId} className="field-hint">
          {t('revokeChooseSome')}
        </p>
      ) : null}
      <div className="form-actions dialog-actions">
        <button
          type="submit"
          className="button button-danger-solid"
          disabled={nothingChosen}
          aria-describedby={nothingChosen ? hintId : undefined}
          aria-busy={action.isPending}
        >
          {action.isPending ? t('working') : t('revoke')}
        </button>
        <button type="button" className="button" disabled={action.isPending} onClick={onBack}>
          {t('back')}
        </button>
      </div>
    </form>
  );
}
