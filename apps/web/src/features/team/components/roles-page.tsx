import { consolePaths } from '@sac/contract/console-paths';
import { PERMISSION_DESCRIPTIONS, type Permission } from '@sac/contract/permissions';
import { Link } from 'react-router';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useTeamRoles } from '../api/team-api.ts';
import styles from './roles-page.module.css';

const describe = (p: string): string | undefined =>
  (PERMISSION_DESCRIPTIONS as Record<string, string | undefined>)[p as Permission];

/** /manage-superuser/roles: each staff role, its description and the permissions it grants. */
export default function RolesPage() {
  const t = useT('team');
  const common = useT('common');
  const roles = useTeamRoles();

  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('roleDetails')}</h1>
          <p className="muted">{t('rolesIntro')}</p>
        </div>
        <Link to={consolePaths.permissions()}>{t('permissionList')}</Link>
      </div>
      {roles.isPending ? <Skeleton lines={4} /> : null}
      {roles.isError ? (
        <p className="form-alert" role="alert">
          {errorText(roles.error, common('tableFetchError'))}
        </p>
      ) : null}
      {roles.data?.length === 0 ? <p className="muted">{common('tableEmpty')}</p> : null}
      <div className={styles.roleList}>
        {roles.data?.map((role) => (
          <article key={role.Name} className={styles.roleCard} aria-labelledby={`role-${role.Name}`}>
            <h2 id={`role-${role.Name}`}>
              {role.Name}
              <span className="tag">{role.BuiltIn ? t('builtIn') : t('custom')}</span>
            </h2>
            <p>{role.Description}</p>
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
          </article>
        ))}
      </div>
    </section>
  );
}
