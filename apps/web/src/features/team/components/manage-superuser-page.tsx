import { consolePaths } from '@sac/contract/console-paths';
import { SUPERUSER_TABLE_PAGE_SIZE } from '@sac/contract/constants';
import { MESSAGES } from '@sac/contract/messages';
import { canOpenProfile } from '@sac/contract/profile-access';
import { canManageStaff, type SuperUser, touchesSuperAdmin } from '@sac/contract/team';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { NO_PICKS, type Picks } from '../../../components/bulk-bar.tsx';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { CsvExport } from '../../../components/file-export.tsx';
import { errorText, streamedFile } from '../../../lib/api-client.ts';
import { formatDate, formatDateTimeMinutes } from '../../../lib/date-format.ts';
import { useT } from '../../../lib/i18n.tsx';
import { coolDownEnd, useCurrentUser } from '../../../lib/session.ts';
import { useTeamList } from '../api/team-api.ts';
import { ReviewCell, RevokeRolesDialog, reviewSortValue } from './access-review.tsx';
import { BulkInvitationsBar } from './bulk-invitations-bar.tsx';
import { ChangeRolesDialog } from './change-roles-dialog.tsx';
import { CoolDownNote } from './cool-down-note.tsx';
import { DeleteSuperUserDialog } from './delete-superuser-dialog.tsx';
import { ResendInvitationDialog } from './resend-invitation-dialog.tsx';
import { primaryEmail, staffIdentity } from './staff.ts';

type Action = { kind: 'roles' | 'delete' | 'revoke' | 'resend'; row: SuperUser };

/** /manage-superuser/manage-superuser: the super users, 10 per page, with row actions. */
export default function ManageSuperuserPage() {
  const t = useT('team');
  const list = useTeamList();
  const viewer = useCurrentUser();
  const [action, setAction] = useState<Action | undefined>();
  const [picks, setPicks] = useState<Picks>(NO_PICKS);
  const viewerIdentity = useMemo(
    () => ({ uid: viewer.uid, roles: viewer.roles }),
    [viewer.uid, viewer.roles],
  );
  const mayWrite = viewer.permissions.has('team.write');
  // A new SuperAdmin's acts on another SuperAdmin wait for their cool-down (the server says 948).
  const coolingUntil = mayWrite ? coolDownEnd(viewer) : null;

  const columns = useSuperUserColumns(viewerIdentity, mayWrite, coolingUntil, setAction);

  return (
    <section className="card list-screen" aria-labelledby="screen-title">
      <div className="page-header">
        <div>
          <h1 id="screen-title">{t('manageSuperuser')}</h1>
          <p className="muted">{t('listIntro')}</p>
          <p className="muted">{t('reviewIntro')}</p>
        </div>
        {mayWrite ? (
          <Link className="button button-primary" to={consolePaths.createSuperuser()}>
            {t('createSuperuser')}
          </Link>
        ) : null}
      </div>
      {coolingUntil ? <CoolDownNote id="team-cool-down" until={coolingUntil} /> : null}
      {viewer.permissions.has('audit.read') ? (
        <div className="review-export">
          <span className="muted">{t('reviewExportLabel')}</span>
          <CsvExport list={t('reviewExport')} download={streamedFile('teamReviewExport', undefined)} />
        </div>
      ) : null}
      {mayWrite ? <BulkInvitationsBar members={list.data ?? []} picks={picks} setPicks={setPicks} /> : null}
      <DataTable
        label={t('tableLabel')}
        columns={columns}
        rows={list.data}
        rowKey={(row) => row.Uid}
        isLoading={list.isPending}
        error={list.isError ? errorText(list.error, MESSAGES.tableFetchError) : undefined}
        pageSize={SUPERUSER_TABLE_PAGE_SIZE}
        inAddress
        csvExport={{ name: 'superusers' }}
        {...(mayWrite
          ? {
              selection: {
                picked: picks.all ? new Set((list.data ?? []).map((r) => r.Uid)) : picks.picked,
                onChange: (next: Set<string>) => setPicks({ picked: next, all: false }),
                rowLabel: (r: SuperUser) => t('bulkPickRow', { email: primaryEmail(r) }),
                pageLabel: t('bulkPickPage'),
                ...((picks.all ? (list.data ?? []).length : picks.picked.size) > 0
                  ? { exportLabel: t('bulkExportOf') }
                  : {}),
              },
            }
          : {})}
      />
      {action?.kind === 'roles' ? (
        <ChangeRolesDialog target={action.row} onClose={() => setAction(undefined)} />
      ) : null}
      {action?.kind === 'revoke' ? (
        <RevokeRolesDialog target={action.row} onClose={() => setAction(undefined)} />
      ) : null}
      {action?.kind === 'delete' ? (
        <DeleteSuperUserDialog target={action.row} onClose={() => setAction(undefined)} />
      ) : null}
      {action?.kind === 'resend' ? (
        <ResendInvitationDialog target={action.row} onClose={() => setAction(undefined)} />
      ) : null}
    </section>
  );
}

/** The list's columns; the actions column only for a viewer who may change the team. */
function useSuperUserColumns(
  viewerIdentity: Parameters<typeof canManageStaff>[0],
  mayWrite: boolean,
  coolingUntil: ReturnType<typeof coolDownEnd>,
  setAction: (action: Action) => void,
) {
  const t = useT('team');
  return useMemo(() => {
    const out: Column<SuperUser>[] = [
      {
        id: 'email',
        header: t('emailAddress'),
        sortValue: primaryEmail,
        cell: (row) =>
          canOpenProfile(viewerIdentity, staffIdentity(row)) ? (
            <Link to={consolePaths.superuserProfile({ uid: row.Uid })}>{primaryEmail(row)}</Link>
          ) : (
            primaryEmail(row)
          ),
      },
      {
        id: 'name',
        header: t('name'),
        sortValue: (row) => row.FullName,
        cell: (row) => <NameCell row={row} />,
      },
      {
        id: 'role',
        header: t('role'),
        sortValue: (row) => row.Roles.join(', '),
        cell: (row) => (
          <>
            {row.Roles.join(', ')}
            {row.CanApproveImpersonationFrom ? (
              <div className="field-hint approver-cool-down">
                {t('canApproveFrom', { time: formatDateTimeMinutes(row.CanApproveImpersonationFrom) })}
              </div>
            ) : null}
          </>
        ),
      },
      {
        id: 'review',
        header: t('review'),
        sortValue: reviewSortValue,
        cell: (row) => (
          <ReviewCell
            row={row}
            viewer={viewerIdentity}
            onRevoke={(r) => setAction({ kind: 'revoke', row: r })}
          />
        ),
      },
      {
        id: 'created',
        header: t('createdDate'),
        sortValue: (row) => row.CreatedDate,
        cell: (row) => formatDate(row.CreatedDate),
      },
      {
        id: 'lastLogin',
        header: t('lastLoginDate'),
        sortValue: (row) => row.LastLoginDate,
        cell: (row) => formatDate(row.LastLoginDate) || <span className="muted">{t('never')}</span>,
      },
    ];
    if (mayWrite) {
      out.push({
        id: 'actions',
        header: t('actions'),
        cell: (row) => (
          <RowActions row={row} viewer={viewerIdentity} coolingUntil={coolingUntil} setAction={setAction} />
        ),
      });
    }
    return out;
  }, [t, viewerIdentity, mayWrite, coolingUntil, setAction]);
}

/**
 * A row's actions, for a member the viewer may manage: resend a pending invitation, change the
 * roles, delete. Another SuperAdmin's account waits for the viewer's cool-down (the server says 948).
 */
function RowActions({
  row,
  viewer,
  coolingUntil,
  setAction,
}: {
  row: SuperUser;
  viewer: Parameters<typeof canManageStaff>[0];
  coolingUntil: ReturnType<typeof coolDownEnd>;
  setAction: (action: Action) => void;
}) {
  const t = useT('team');
  if (!canManageStaff(viewer, staffIdentity(row))) return null;
  const held = coolingUntil !== null && touchesSuperAdmin(row.Roles);
  const button = (kind: Action['kind'], label: string, danger = false) => (
    <button
      type="button"
      className={danger ? 'button button-small button-danger' : 'button button-small'}
      disabled={held}
      aria-describedby={held ? 'team-cool-down' : undefined}
      onClick={() => setAction({ kind, row })}
    >
      {label}
    </button>
  );
  return (
    <div className="row-actions">
      {row.Invited && !row.DeactivatedAt ? button('resend', t('resendInvitation')) : null}
      {button('roles', t('changeRoles'))}
      {button('delete', t('delete'), true)}
    </div>
  );
}

/** A member's name, marked when a service account (never signs in) or deactivated by SCIM. */
function NameCell({ row }: { row: SuperUser }) {
  const t = useT('team');
  return (
    <>
      {row.FullName}
      {row.Service ? (
        <>
          {' '}
          <span className="tag">{t('serviceAccount')}</span>
        </>
      ) : null}
      {row.Invited ? (
        <>
          {' '}
          <span className="tag">{t('invitedTag')}</span>
        </>
      ) : null}
      {row.DeactivatedAt ? (
        <>
          {' '}
          <span className="tag">{t('deactivated')}</span>
        </>
      ) : null}
    </>
  );
}
