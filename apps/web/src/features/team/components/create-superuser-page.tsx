import { consolePaths } from '@sac/contract/console-paths';
import { assignableRoles, createSuperUserBody, roleMatrix } from '@sac/contract/team';
import { type FormEvent, type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useCreateSuperUser, useTeamList, useTeamRoles } from '../api/team-api.ts';
import styles from './create-superuser-page.module.css';
import { primaryEmail } from './staff.ts';

interface Values {
  name: string;
  email: string;
  role: string[];
}
const EMPTY: Values = { name: '', email: '', role: [] };

/**
 * /manage-superuser/create-superuser: Name (optional), Email (required, valid) and Roles (at least
 * one; SuperAdmin is never offered). Save stays disabled until email and roles are given and no
 * field has an error. Fields show their errors once touched.
 */
export default function CreateSuperuserPage() {
  const t = useT('team');
  const roles = useTeamRoles();
  const list = useTeamList();
  const create = useCreateSuperUser();
  const form = useContractForm(createSuperUserBody, { initial: EMPTY, idPrefix: 'cs' });
  const values = form.values;

  const canSave = values.email.trim() !== '' && values.role.length > 0 && form.valid;
  const reset = () => form.reset(EMPTY);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || !canSave || create.isPending) return;
    if (!list.data) {
      toast.error(t('superAdminDataMissingOnCreate'));
      return;
    }
    const email = data.email.toLowerCase();
    if (list.data.some((u) => primaryEmail(u).toLowerCase() === email)) {
      toast.error(t('superUserExists'));
      return;
    }
    create.mutate(data, {
      onSuccess: () => {
        toast.success(t('superUserCreated'));
        reset();
      },
    });
  };

  return (
    <section className="card form-card" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('createSuperuser')}</h1>
      <p className="muted">{t('createIntro')}</p>
      <nav className={styles.helpLinks} aria-label={t('helpLinks')}>
        <Link to={consolePaths.permissions()}>{t('permissionList')}</Link>
        <Link to={consolePaths.roles()}>{t('roleDetails')}</Link>
      </nav>
      <form onSubmit={onSubmit} noValidate>
        <FormField
          id="cs-name"
          name="name"
          label={t('nameOptional')}
          autoComplete="off"
          value={values.name}
          error={form.shown('name')}
          onValueChange={(v) => form.set('name', v)}
          onBlur={() => form.touch('name')}
        />
        <FormField
          id="cs-email"
          name="email"
          type="email"
          label={t('email')}
          autoComplete="off"
          required
          value={values.email}
          error={form.shown('email')}
          onValueChange={(v) => form.set('email', v)}
          onBlur={() => form.touch('email')}
        />
        <RolesField
          roles={roles}
          value={values.role}
          error={form.shown('role')}
          onChange={(next) => form.set('role', next)}
          onBlur={() => form.touch('role')}
        />
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            disabled={!canSave}
            aria-busy={create.isPending}
          >
            {create.isPending ? t('saving') : t('save')}
          </button>
          <button type="button" className="button" onClick={reset} disabled={create.isPending}>
            {t('reset')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The roles to give: a placeholder while they load, a retry when they failed, else the boxes. */
function RolesField({
  roles,
  value,
  error,
  onChange,
  onBlur,
}: {
  roles: ReturnType<typeof useTeamRoles>;
  value: string[];
  error?: string;
  onChange: (next: string[]) => void;
  onBlur: () => void;
}) {
  const t = useT('team');
  const common = useT('common');
  const viewer = useCurrentUser();
  const options = useMemo(
    () =>
      assignableRoles(
        viewer.roles,
        (roles.data ?? []).map((r) => r.Name),
        'create',
        roleMatrix(roles.data ?? []),
      ).map((name) => ({
        value: name,
        label: name,
        hint: roles.data?.find((r) => r.Name === name)?.Description,
      })),
    [viewer.roles, roles.data],
  );
  let rolesField: ReactNode;
  if (roles.isPending) {
    rolesField = <Skeleton lines={1} />;
  } else if (roles.isError) {
    rolesField = (
      <div className="field">
        <p className="form-alert" role="alert">
          {t('rolesLoadFailed')}
        </p>
        <div>
          <button type="button" className="button" onClick={() => void roles.refetch()}>
            {common('retry')}
          </button>
        </div>
      </div>
    );
  } else {
    rolesField = (
      <>
        {options.length === 0 ? <p className="form-alert">{t('noAssignableRoles')}</p> : null}
        <CheckboxGroup
          legend={t('roles')}
          name="role"
          options={options}
          value={value}
          error={error}
          onChange={onChange}
          onBlur={onBlur}
        />
      </>
    );
  }

  return rolesField;
}
