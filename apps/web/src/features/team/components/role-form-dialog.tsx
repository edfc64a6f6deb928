import {
  type CustomRoleInput,
  customRoleBody,
  newCustomRoleBody,
  ROLE_DESCRIPTION_MAX,
  ROLE_NAME_MAX,
  SUPER_ADMIN_ONLY_PERMISSIONS,
} from '@sac/contract/custom-roles';
import { PLANS } from '@sac/contract/customers';
import { ERRORS } from '@sac/contract/errors';
import { PERMISSION_DESCRIPTIONS, PERMISSIONS } from '@sac/contract/permissions';
import { isScopable } from '@sac/contract/role-scopes';
import type { StaffRole } from '@sac/contract/team';
import { type FormEvent, useState } from 'react';
import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import { Dialog } from '../../../components/dialog.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { type Schema, useContractForm } from '../../../lib/form.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useSaveCustomRole } from '../api/team-api.ts';

/** The form's fields: a scope's axes are lists, none chosen meaning any. */
interface RoleFormValues {
  Name: string;
  Description: string;
  Permissions: string[];
  DataCenters: string[];
  Plans: string[];
}

const valuesOf = (role: StaffRole | undefined): RoleFormValues => ({
  Name: role?.Name ?? '',
  Description: role?.Description ?? '',
  Permissions: role?.Permissions ?? [],
  DataCenters: role?.Scope?.DataCenters ?? [],
  Plans: role?.Scope?.Plans ?? [],
});

/** The body the contract takes: an axis with nothing chosen is null (any), both null no scope. */
const bodyOf = (v: RoleFormValues) => ({
  Name: v.Name,
  Description: v.Description,
  Permissions: v.Permissions,
  Scope:
    v.DataCenters.length || v.Plans.length
      ? { DataCenters: v.DataCenters.length ? v.DataCenters : null, Plans: v.Plans.length ? v.Plans : null }
      : null,
});

/** The contract's schema over the form's fields (Scope.DataCenters is the DataCenters field). */
function formSchema(schema: typeof customRoleBody): Schema<CustomRoleInput> {
  return {
    safeParse(value: unknown) {
      const r = schema.safeParse(bodyOf(value as RoleFormValues));
      if (r.success) return r;
      const issues = r.error.issues.map((i) => ({
        message: i.message,
        path: i.path[0] === 'Scope' ? [i.path[1] ?? 'DataCenters'] : i.path,
      }));
      return { success: false as const, error: { issues } };
    },
  };
}
const NEW_ROLE = formSchema(newCustomRoleBody);
const EDITED_ROLE = formSchema(customRoleBody);

/**
 * A custom role's form (SuperAdmins): name (fixed once made), description, permissions and an
 * optional scope. While a data center or plan is chosen, the permissions a scope cannot hold are
 * off (one already chosen stays clickable, so it can be taken away, and the field says why).
 */
export function RoleFormDialog({
  role,
  dataCenters,
  onClose,
}: {
  /** The role to edit; none to make a new one. */
  role?: StaffRole;
  dataCenters: readonly { Code: string; Name: string }[];
  onClose: () => void;
}) {
  const t = useT('team');
  const save = useSaveCustomRole();
  const form = useContractForm(role ? EDITED_ROLE : NEW_ROLE, { initial: valuesOf(role), idPrefix: 'role' });
  const [failure, setFailure] = useState<string | undefined>();
  const v = form.values;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const data = form.submit();
    if (!data || save.isPending) return;
    setFailure(undefined);
    save.mutate(
      { body: data, version: role?.Version },
      {
        onSuccess: () => {
          toast.success(role ? t('roleUpdated') : t('roleCreated'));
          form.leave(onClose);
        },
        onError: (error) => {
          const shown = form.serverFailed(error, { [ERRORS.roleNameTaken.code]: 'Name' });
          const centers = error instanceof ApiError ? error.fieldError('Scope.DataCenters') : undefined;
          if (centers) form.setServerErrors({ ...shown, DataCenters: centers });
          else if (Object.keys(shown).length === 0) setFailure(errorText(error));
        },
      },
    );
  };

  return (
    <Dialog
      title={role ? t('editRoleTitle', { role: role.Name }) : t('newRoleTitle')}
      onClose={onClose}
      busy={save.isPending}
      wide
    >
      <form onSubmit={onSubmit} noValidate>
        {failure ? (
          <p className="form-alert" role="alert">
            {failure}
          </p>
        ) : null}
        <FormField
          {...form.field('Name')}
          label={t('roleName')}
          hint={t('roleNameHint')}
          maxLength={ROLE_NAME_MAX}
          disabled={role !== undefined}
          autoComplete="off"
          required
        />
        <TextAreaField
          {...form.field('Description')}
          label={t('roleDescription')}
          maxLength={ROLE_DESCRIPTION_MAX}
          rows={2}
        />
        <ScopeAndPermissions
          dataCenters={dataCenters}
          values={v}
          errors={{
            DataCenters: form.shown('DataCenters'),
            Plans: form.shown('Plans'),
            Permissions: form.shown('Permissions'),
          }}
          onChange={(f, next) => form.set(f, next)}
          onPermissionsBlur={() => form.touch('Permissions')}
        />
        <div className="form-actions dialog-actions">
          <button type="submit" className="button button-primary" aria-busy={save.isPending}>
            {save.isPending ? t('saving') : t('save')}
          </button>
          <button type="button" className="button" disabled={save.isPending} onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

type ListField = 'DataCenters' | 'Plans' | 'Permissions';

/**
 * The scope's two axes and the permissions. While a data center or plan is chosen, the permissions
 * a scope cannot hold are off (one already chosen stays clickable, so it can be taken away).
 */
function ScopeAndPermissions({
  dataCenters,
  values,
  errors,
  onChange,
  onPermissionsBlur,
}: {
  dataCenters: readonly { Code: string; Name: string }[];
  values: RoleFormValues;
  errors: Partial<Record<ListField, string>>;
  onChange: (field: ListField, next: string[]) => void;
  onPermissionsBlur: () => void;
}) {
  const t = useT('team');
  const scoped = values.DataCenters.length > 0 || values.Plans.length > 0;
  const permissionOptions = PERMISSIONS.filter((p) => !SUPER_ADMIN_ONLY_PERMISSIONS.includes(p)).map((p) => ({
    value: p,
    label: p,
    hint: PERMISSION_DESCRIPTIONS[p],
    disabled: scoped && !isScopable(p) && !values.Permissions.includes(p),
  }));
  return (
    <>
      <CheckboxGroup
        legend={t('roleDataCenters')}
        name="DataCenters"
        hint={t('roleDataCentersHint')}
        options={dataCenters.map((d) => ({ value: d.Code, label: d.Name }))}
        value={values.DataCenters}
        error={errors.DataCenters}
        onChange={(next) => onChange('DataCenters', next)}
      />
      <CheckboxGroup
        legend={t('rolePlans')}
        name="Plans"
        hint={t('rolePlansHint')}
        options={PLANS.map((p) => ({ value: p, label: p }))}
        value={values.Plans}
        error={errors.Plans}
        onChange={(next) => onChange('Plans', next)}
      />
      <CheckboxGroup
        legend={t('rolePermissions')}
        name="Permissions"
        hint={scoped ? t('scopedPermissionsNote') : undefined}
        options={permissionOptions}
        value={values.Permissions}
        error={errors.Permissions}
        onChange={(next) => onChange('Permissions', next)}
        onBlur={onPermissionsBlur}
      />
    </>
  );
}
