import { consolePaths } from '@sac/contract/console-paths';
import { PERMISSION_DESCRIPTIONS, type Permission, ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { touchesSuperAdmin } from '@sac/contract/team';
import { Link, useParams } from 'react-router';
import { DetailList } from '../../../components/detail-list.tsx';
import { Skeleton } from '../../../components/skeleton.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { formatDate, formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { coolDownEnd, useCurrentUser } from '../../../lib/session.ts';
import { useSuperUserProfile } from '../api/team-api.ts';
import { ColleagueFactors } from './colleague-factors.tsx';
import { ColleagueSessions } from './colleague-sessions.tsx';
import rolesPageStyles from './roles-page.module.css';
import { primaryEmail } from './staff.ts';
import styles from './superuser-profile-page.module.css';

const describe = (p: string): string | undefined =>
  (PERMISSION_DESCRIPTIONS as Record<string, string | undefined>)[p as Permission];

/** /manage-superuser/profile/:uid: one staff account; the server decides who may open it. */
export default function SuperuserProfilePage() {
  const t = useT('team');
  const { uid = '' } = useParams();
  const viewer = useCurrentUser();
  const { permissions, roles, uid: me } = viewer;
  const profile = useSuperUserProfile(uid);
  const p = profile.data;
  // Acts on another SuperAdmin wait for the viewer's cool-down, as the server would refuse them.
  const coolingUntil = p && touchesSuperAdmin(p.Roles) ? coolDownEnd(viewer) : null;

  return (
    <section className="card" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('profile')}</h1>
          <p className="muted">{t('profileIntro')}</p>
        </div>
        {permissions.has('team.read') ? <Link to={consolePaths.superusers()}>{t('backToList')}</Link> : null}
      </div>
      {profile.isPending ? <Skeleton lines={4} /> : null}
      {profile.isError ? (
        <p className="form-alert" role="alert">
          {errorText(profile.error)}
        </p>
      ) : null}
      {p ? (
        <>
          <DetailList
            layout="plain"
            items={[
              { label: t('name'), value: p.FullName },
              { label: t('emailAddress'), value: primaryEmail(p) },
              { label: t('roles'), value: p.Roles.join(', ') },
              p.Roles.includes(ROLE_SUPER_ADMIN) && {
                label: t('superAdminSince'),
                value: (
                  <>
                    {p.ApproverSince
                      ? `${formatDateTimeMinutes(p.ApproverSince)} UTC`
                      : t('superAdminSinceUnrecorded')}
                    {p.CanApproveImpersonationFrom ? (
                      <div className="field-hint approver-cool-down">
                        {t('canApproveFrom', { time: formatDateTimeMinutes(p.CanApproveImpersonationFrom) })}
                      </div>
                    ) : null}
                  </>
                ),
              },
              { label: t('createdDate'), value: formatDate(p.CreatedDate) },
              { label: t('lastLoginDate'), value: formatDate(p.LastLoginDate) || t('never') },
              { label: t('passwordChangedDate'), value: formatDate(p.PasswordChangedDate) || t('never') },
              {
                label: t('invitation'),
                value: p.Invited ? (
                  <span className={`tag ${styles.tagWarning}`}>{t('invitedPending')}</span>
                ) : (
                  t('invitationAccepted')
                ),
              },
            ]}
          />
          <h2 id="profile-permissions">{t('permissions')}</h2>
          {p.Permissions.length === 0 ? (
            <p className="muted">{t('profileNoPermissions')}</p>
          ) : (
            <ul className={rolesPageStyles.permissionList} aria-labelledby="profile-permissions">
              {p.Permissions.map((perm) => (
                <li key={perm}>
                  <code>{perm}</code>
                  {describe(perm) ? (
                    <span className={`muted ${rolesPageStyles.permissionDescription}`}>{describe(perm)}</span>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {roles.includes(ROLE_SUPER_ADMIN) && p.Uid !== me ? (
            <>
              <ColleagueSessions uid={p.Uid} email={primaryEmail(p)} coolingUntil={coolingUntil} />
              <ColleagueFactors uid={p.Uid} email={primaryEmail(p)} coolingUntil={coolingUntil} />
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
