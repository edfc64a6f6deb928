import { versionTag } from '@sac/contract/constants';
import { fieldFieldRequired } from '@sac/contract/messages';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { assignableRoles, roleMatrix, rolesToUnassign, type SuperUser } from '@sac/contract/team';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ChangedMeanwhile, changedFields } from '../../../components/changed-meanwhile.tsx';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { useEditConflict } from '../../../lib/edit-conflict.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useLeaveGuard } from '../../../lib/leave-guard.ts';
import { coolDownEnd, useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { readTeamList, useTeamRoles, useUpdateRoles } from '../api/team-api.ts';
import { CoolDownNote } from './cool-down-note.tsx';
import { primaryEmail } from './staff.ts';

const ROLES_REQUIRED = fieldFieldRequired('Roles');

/** The edit conflict on a super user's roles: theirs is read again from the team list. */
function useRolesConflict(target: SuperUser) {
  return useEditConflict<SuperUser>({ data: target, version: versionTag(target.Version) }, async () => {
    const now = (await readTeamList()).find((u) => u.Uid === target.Uid) ?? target;
    return { data: now, version: versionTag(now.Version) };
  });
}

/** The checkbox options for role names, each with its role's description. */
function roleOptions(names: string[], roles: { Name: string; Description?: string }[] | undefined) {
  return names.map((name) => ({
    value: name,
    label: name,
    hint: roles?.find((r) => r.Name === name)?.Description,
  }));
}

/**
 * Change a super user's roles: choose among the roles the viewer may assign (at least one), then
 * confirm. Sends every other role as unAssignRoles.
 */
export function ChangeRolesDialog({ target, onClose }: { target: SuperUser; onClose: () => void }) {
  const t = useT('team');
  const viewer = useCurrentUser();
  const roles = useTeamRoles();
  const update = useUpdateRoles();
  const conflict = useRolesConflict(target);
  const email = primaryEmail(target);
  const allNames = (roles.data ?? []).map((r) => r.Name);
  // In the viewer's cool-down the SuperAdmin role is neither given nor taken: it stays as it is.
  const coolingUntil = coolDownEnd(viewer);
  const options = assignableRoles(viewer.roles, allNames, 'update', roleMatrix(roles.data ?? [])).filter(
    (r) => coolingUntil === null || r !== ROLE_SUPER_ADMIN,
  );
  const [chosen, setChosen] = useState<string[]>(() => target.Roles);
  const [step, setStep] = useState<'choose' | 'confirm'>('choose');
  useLeaveGuard([...chosen].sort().join() !== [...target.Roles].sort().join());
  const [error, setError] = useState<string | undefined>();
  // Roles the viewer may not assign stay as they are.
  const kept = target.Roles.filter((r) => allNames.includes(r) && !options.includes(r));
  const selected = [...kept, ...options.filter((r) => chosen.includes(r))];

  const onChoose = (e: FormEvent) => {
    e.preventDefault();
    if (selected.length === 0) {
      setError(ROLES_REQUIRED);
      return;
    }
    setStep('confirm');
  };

  const send = (ifMatch: string | undefined) => {
    if (update.isPending) return;
    update.mutate(
      {
        body: { uid: target.Uid, role: selected, unAssignRoles: rolesToUnassign(allNames, selected) },
        ifMatch,
      },
      {
        onSuccess: () => {
          toast.success(t('rolesUpdated'));
          onClose();
        },
        onError: (e) => void conflict.refused(e),
      },
    );
  };
  /** Their roles become the choice, to look at before confirming again. */
  const loadTheirs = () => {
    const theirs = conflict.loadTheirs();
    if (!theirs) return;
    setChosen(theirs.Roles);
    setStep('choose');
  };

  let body: ReactNode;
  if (roles.isPending) {
    body = <Skeleton lines={2} />;
  } else if (roles.isError) {
    body = <RolesLoadFailed onRetry={() => void roles.refetch()} onClose={onClose} />;
  } else if (step === 'choose') {
    body = (
      <ChooseRolesStep
        email={email}
        options={roleOptions(options, roles.data)}
        value={chosen.filter((r) => options.includes(r))}
        error={error}
        coolingUntil={coolingUntil}
        onChange={(next) => {
          setChosen(next);
          setError(next.length + kept.length === 0 ? ROLES_REQUIRED : undefined);
        }}
        onSubmit={onChoose}
        onClose={onClose}
      />
    );
  } else {
    body = (
      <ConfirmRolesStep
        email={email}
        selected={selected}
        changes={
          conflict.theirs
            ? changedFields(conflict.filledFrom, conflict.theirs.data, { Roles: t('roles') })
            : undefined
        }
        busy={update.isPending}
        onLoadTheirs={loadTheirs}
        onOverwrite={() => send(conflict.overwrite())}
        onConfirm={() => send(conflict.version)}
        onBack={() => setStep('choose')}
      />
    );
  }

  return (
    <Dialog title={t('changeRolesTitle')} onClose={onClose} busy={update.isPending}>
      {body}
    </Dialog>
  );
}

/** The first step: the roles to give, among those the viewer may assign. */
function ChooseRolesStep({
  email,
  options,
  value,
  error,
  coolingUntil,
  onChange,
  onSubmit,
  onClose,
}: {
  email: string;
  options: { value: string; label: string; hint?: string }[];
  value: string[];
  error: string | undefined;
  coolingUntil: string | null;
  onChange: (next: string[]) => void;
  onSubmit: (e: FormEvent) => void;
  onClose: () => void;
}) {
  const t = useT('team');
  return (
    <form onSubmit={onSubmit} noValidate>
      <p>{t('changeRolesIntro', { email })}</p>
      {options.length === 0 ? <p className="form-alert">{t('noAssignableRoles')}</p> : null}
      {coolingUntil ? <CoolDownNote id="roles-cool-down" until={coolingUntil} /> : null}
      <CheckboxGroup
        legend={t('roles')}
        name="role"
        options={options}
        value={value}
        error={error}
        onChange={onChange}
      />
      <div className="form-actions dialog-actions">
        <button type="submit" className="button button-primary">
          {t('continue')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

/** The second step: the roles as they will be, with what another editor changed meanwhile. */
function ConfirmRolesStep({
  email,
  selected,
  changes,
  busy,
  onLoadTheirs,
  onOverwrite,
  onConfirm,
  onBack,
}: {
  email: string;
  selected: string[];
  changes: ReturnType<typeof changedFields> | undefined;
  busy: boolean;
  onLoadTheirs: () => void;
  onOverwrite: () => void;
  onConfirm: () => void;
  onBack: () => void;
}) {
  const t = useT('team');
  return (
    <>
      {changes ? (
        <ChangedMeanwhile
          changes={changes}
          onLoadTheirs={onLoadTheirs}
          onOverwrite={onOverwrite}
          busy={busy}
        />
      ) : null}
      <p>{t('confirmRoles', { email })}</p>
      <ul className="tag-list">
        {selected.map((r) => (
          <li key={r} className="tag">
            {r}
          </li>
        ))}
      </ul>
      <p className="muted">{t('confirmRolesDetail')}</p>
      <div className="form-actions dialog-actions">
        <button
          type="button"
          className="button button-primary"
          aria-busy={busy}
          onClick={onConfirm}
          data-autofocus
        >
          {busy ? t('saving') : t('confirm')}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onBack}>
          {t('back')}
        </button>
      </div>
    </>
  );
}

/** The roles failed to load: Retry, or Cancel the dialog. */
function RolesLoadFailed({ onRetry, onClose }: { onRetry: () => void; onClose: () => void }) {
  const t = useT('team');
  const common = useT('common');
  return (
    <>
      <p className="form-alert" role="alert">
        {t('rolesLoadFailed')}
      </p>
      <div className="form-actions">
        <button type="button" className="button" onClick={onRetry}>
          {common('retry')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('cancel')}
        </button>
      </div>
    </>
  );
}
