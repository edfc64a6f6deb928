import { consolePaths } from '@sac/contract/console-paths';
import { PERMISSION_DESCRIPTIONS, type Permission, ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { StaffRole } from '@sac/contract/team';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { toast } from '../../../lib/toast-store.ts';
import { useDeleteCustomRole, useRoleCatalogue } from '../api/team-api.ts';
import { RoleFormDialog } from './role-form-dialog.tsx';
import { scopeText } from './role-scope.ts';
import styles from './roles-page.module.css';

const describe = (p: string): string | undefined =>
  (PERMISSION_DESCRIPTIONS as Record<string, string | undefined>)[p as Permission];

type Open = { kind: 'new' } | { kind: 'edit'; role: StaffRole } | { kind: 'delete'; role: StaffRole };

/**
 * /manage-superuser/roles: each staff role, its description, the permissions it grants, its scope
 * and holders. A SuperAdmin also makes, edits and deletes custom roles here (built-in ones stay).
 */
export default function RolesPage() {
  const t = useT('team');
  const common = useT('common');
  const catalogue = useRoleCatalogue();
  const viewer = useCurrentUser();
  const canEdit = viewer.roles.includes(ROLE_SUPER_ADMIN);
  const [open, setOpen] = useState<Open | undefined>();
  const roles = catalogue.data?.Data;
  const centers = catalogue.data?.DataCenters ?? [];
  const names = useMemo(() => new Map(centers.map((d) => [d.Code, d.Name])), [centers]);
  const words = { allSites: t('allSites'), allDataCenters: t('allDataCenters'), allPlans: t('allPlans') };

  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('roleDetails')}</h1>
          <p className="muted">{t('rolesIntro')}</p>
        </div>
        <div className={styles.headerActions}>
          <Link to={consolePaths.permissions()}>{t('permissionList')}</Link>
          {canEdit ? (
            <button type="button" className="button button-primary" onClick={() => setOpen({ kind: 'new' })}>
              {t('newRole')}
            </button>
          ) : null}
        </div>
      </div>
      {catalogue.isPending ? <Skeleton lines={4} /> : null}
      {catalogue.isError ? (
        <p className="form-alert" role="alert">
          {errorText(catalogue.error, common('tableFetchError'))}
        </p>
      ) : null}
      {roles?.length === 0 ? <p className="muted">{common('tableEmpty')}</p> : null}
      <div className={styles.roleList}>
        {roles?.map((role) => (
          <RoleCard
            key={role.Name}
            role={role}
            scope={scopeText(role.Scope, names, words)}
            onEdit={canEdit && !role.BuiltIn ? () => setOpen({ kind: 'edit', role }) : undefined}
            onDelete={canEdit && !role.BuiltIn ? () => setOpen({ kind: 'delete', role }) : undefined}
          />
        ))}
      </div>
      {open?.kind === 'new' || open?.kind === 'edit' ? (
        <RoleFormDialog
          role={open.kind === 'edit' ? open.role : undefined}
          dataCenters={centers}
          onClose={() => setOpen(undefined)}
        />
      ) : null}
      {open?.kind === 'delete' ? (
        <DeleteRoleDialog role={open.role} onClose={() => setOpen(undefined)} />
      ) : null}
    </section>
  );
}

function RoleCard({
  role,
  scope,
  onEdit,
  onDelete,
}: {
  role: StaffRole;
  scope: string;
  onEdit?: () => void;
  onDelete?: () => void;
}) {
  const t = useT('team');
  const headingId = `role-${role.Name.replace(/\s+/g, '-')}`;
  return (
    <article className={styles.roleCard} aria-labelledby={headingId}>
      <h2 id={headingId}>
        {role.Name}
        <span className="tag">{role.BuiltIn ? t('builtIn') : t('custom')}</span>
      </h2>
      {role.Description ? <p>{role.Description}</p> : null}
      <dl className={styles.facts}>
        <dt>{t('scope')}</dt>
        <dd>{scope}</dd>
        <dt>{t('holders')}</dt>
        <dd>{t('holderCount', { count: role.HolderCount })}</dd>
      </dl>
      {role.Permissions.length === 0 ? (
        <p className="muted">{t('noPermissions')}</p>
      ) : (
        <ul className={styles.permissionList} aria-label={t('permissionsOfRole', { role: role.Name })}>
          {role.Permissions.map((p) => (
            <li key={p}>
              <code>{p}</code>
              {describe(p) ? (
                <span className={`muted ${styles.permissionDescription}`}>{describe(p)}</span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {onEdit || onDelete ? (
        <div className={styles.cardActions}>
          <button
            type="button"
            className="button"
            onClick={onEdit}
            aria-label={t('editRoleNamed', { role: role.Name })}
          >
            {t('editRole')}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={onDelete}
            aria-label={t('deleteRoleNamed', { role: role.Name })}
          >
            {t('deleteRole')}
          </button>
        </div>
      ) : null}
    </article>
  );
}

/** Confirms and deletes a custom role; the server refuses one still held, and says by how many. */
function DeleteRoleDialog({ role, onClose }: { role: StaffRole; onClose: () => void }) {
  const t = useT('team');
  const remove = useDeleteCustomRole();
  const [failure, setFailure] = useState<string | undefined>();
  const onConfirm = () => {
    if (remove.isPending) return;
    remove.mutate(role.Name, {
      onSuccess: () => {
        toast.success(t('roleDeleted'));
        onClose();
      },
      onError: (e) => setFailure(errorText(e)),
    });
  };
  return (
    <ConfirmDialog
      title={t('deleteRoleTitle')}
      confirmLabel={t('confirm')}
      busyLabel={t('deleting')}
      cancelLabel={t('cancel')}
      danger
      busy={remove.isPending}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>{t('confirmDeleteRole', { role: role.Name })}</p>
      {role.HolderCount > 0 ? (
        <p className="muted">{t('roleHeldNote', { count: role.HolderCount })}</p>
      ) : null}
      {failure ? (
        <p className="form-alert" role="alert">
          {failure}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
