import { consolePaths } from '@sac/contract/console-paths';
import { PERMISSION_DESCRIPTIONS, PERMISSIONS } from '@sac/contract/permissions';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import dataTableStyles from '../../../components/data-table.module.css';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { useTeamRoles } from '../api/team-api.ts';
import styles from './permissions-page.module.css';

/** /manage-superuser/permissions: every permission, what it allows, and the roles that hold it. */
export default function PermissionsPage() {
  const t = useT('team');
  const common = useT('common');
  const roles = useTeamRoles();
  const list = roles.data ?? [];

  let status: ReactNode = null;
  if (roles.isPending) {
    status = (
      <p className={dataTableStyles.tableStatus} role="status">
        {common('loading')}
      </p>
    );
  } else if (roles.isError) {
    status = (
      <p className={`${dataTableStyles.tableStatus} ${dataTableStyles.tableError}`} role="alert">
        {errorText(roles.error, common('tableFetchError'))}
      </p>
    );
  }

  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('permissionList')}</h1>
          <p className="muted">{t('permissionsIntro')}</p>
        </div>
        <Link to={consolePaths.roles()}>{t('roleDetails')}</Link>
      </div>
      <div className="data-table">
        <TableScroll label={t('permissionsTableLabel')}>
          <table className={styles.matrixTable}>
            <caption className="visually-hidden">{t('permissionsTableLabel')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('permission')}</th>
                <th scope="col">{t('description')}</th>
                {list.map((r) => (
                  <th key={r.Name} scope="col" className="matrix-cell">
                    {r.Name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {PERMISSIONS.map((p) => (
                <tr key={p}>
                  <th scope="row">
                    <code>{p}</code>
                  </th>
                  <td>{PERMISSION_DESCRIPTIONS[p]}</td>
                  {list.map((r) =>
                    r.Permissions.includes(p) ? (
                      <td key={r.Name} className="matrix-cell">
                        <span className={styles.checkMark} aria-hidden="true">
                          {t('granted')}
                        </span>
                        <span className="visually-hidden">{t('grantedText')}</span>
                      </td>
                    ) : (
                      <td key={r.Name} className="matrix-cell">
                        <span className="visually-hidden">{t('notGrantedText')}</span>
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {status}
      </div>
    </section>
  );
}
