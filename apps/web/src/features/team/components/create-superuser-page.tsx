import { assignableRoles, createSuperUserBody } from '@sac/contract/team';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { validate } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { paths } from '../../../lib/paths.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useCreateSuperUser, useTeamList, useTeamRoles } from '../api/team-api.ts';
import { primaryEmail } from './staff.ts';

type Field = 'name' | 'email' | 'role';
interface Values {
  name: string;
  email: string;
  role: string[];
}
const EMPTY: Values = { name: '', email: '', role: [] };

/** The errors of every field (shown only for touched fields; any of them disables Save). */
function createFormErrors(values: Values): Partial<Record<Field, string>> {
  const r = validate<Field, unknown>(createSuperUserBody, values);
  return r.ok ? {} : r.errors;
}

/**
 * /manage-superuser/create-superuser: Name (optional), Email (required, valid) and Roles (at least
 * one; SuperAdmin is never offered). Save stays disabled until email and roles are given and no
 * field has an error. Fields show their errors once touched.
 */
export default function CreateSuperuserPage() {
  const t = useT('team');
  const common = useT('common');
  const viewer = useCurrentUser();
  const roles = useTeamRoles();
  const list = useTeamList();
  const create = useCreateSuperUser();
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());

  const options = useMemo(
    () =>
      assignableRoles(
        viewer.roles,
        (roles.data ?? []).map((r) => r.Name),
        'create',
      ).map((name) => ({
        value: name,
        label: name,
        hint: roles.data?.find((r) => r.Name === name)?.Description,
      })),
    [viewer.roles, roles.data],
  );

  const errors = createFormErrors(values);
  const shown = (f: Field) => (touched.has(f) ? errors[f] : undefined);
  const canSave = values.email.trim() !== '' && values.role.length > 0 && Object.keys(errors).length === 0;

  const touch = (f: Field) => setTouched((prev) => (prev.has(f) ? prev : new Set(prev).add(f)));
  const set = <F extends Field>(f: F, v: Values[F]) => {
    setValues((prev) => ({ ...prev, [f]: v }));
    if (f === 'role') touch(f);
  };
  const reset = () => {
    setValues(EMPTY);
    setTouched(new Set());
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(new Set<Field>(['name', 'email', 'role']));
    const parsed = createSuperUserBody.safeParse(values);
    if (!parsed.success || !canSave || create.isPending) return;
    if (!list.data) {
      toast.error(t('superAdminDataMissingOnCreate'));
      return;
    }
    const email = parsed.data.email.toLowerCase();
    if (list.data.some((u) => primaryEmail(u).toLowerCase() === email)) {
      toast.error(t('superUserExists'));
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: () => {
        toast.success(t('superUserCreated'));
        reset();
      },
    });
  };

  let rolesField: ReactNode;
  if (roles.isPending) {
    rolesField = (
      <p className="muted" role="status">
        {common('loading')}
      </p>
    );
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
          value={values.role}
          error={shown('role')}
          onChange={(next) => set('role', next)}
          onBlur={() => touch('role')}
        />
      </>
    );
  }

  return (
    <section className="card form-card" aria-labelledby="screen-title">
      <h1 id="screen-title">{t('createSuperuser')}</h1>
      <p className="muted">{t('createIntro')}</p>
      <nav className="help-links" aria-label={t('helpLinks')}>
        <Link to={paths.permissions}>{t('permissionList')}</Link>
        <Link to={paths.roles}>{t('roleDetails')}</Link>
      </nav>
      <form onSubmit={onSubmit} noValidate>
        <FormField
          id="cs-name"
          name="name"
          label={t('nameOptional')}
          autoComplete="off"
          value={values.name}
          error={shown('name')}
          onValueChange={(v) => set('name', v)}
          onBlur={() => touch('name')}
        />
        <FormField
          id="cs-email"
          name="email"
          type="email"
          label={t('email')}
          autoComplete="off"
          required
          value={values.email}
          error={shown('email')}
          onValueChange={(v) => set('email', v)}
          onBlur={() => touch('email')}
        />
        {rolesField}
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
