import { ERRORS } from '@sac/contract/errors';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { WriteTx } from '../../lib/write-path.ts';
import { createSession, revokeUserSessions } from './sessions.repo.ts';
import { breakGlassProblem } from './sso.repo.ts';
import { deleteStaff, insertStaff, markRolesConfirmed, setStaffRoles } from './staff.repo.ts';
import { issueToken } from './tokens.repo.ts';

/**
 * What other modules may use of staff accounts, sessions and tokens: the team module manages the
 * accounts, impersonation opens sessions and reads approvers, the seed and the first start create
 * staff. Auth owns the tables `staff`, `staff_roles`, `staff_sessions`, `staff_tokens` (and the
 * factors'); another module reads them through the reads below and writes them only through the
 * named acts below, each run inside the caller's write (its `WriteTx`; creating an account also
 * in the seed's and first start's transaction). Everything else of
 * auth stays inside.
 */
export {
  approverStanding,
  COOL_DOWN,
  checkSettledSuperAdmin,
  standing,
  superAdminOnly,
} from './approver-cool-down.ts';
export {
  countStaff,
  currentGrantOf,
  findStaffByEmail,
  findStaffByUid,
  listRoles,
  listStaff,
  lockStaffRows,
  lockSuperAdmins,
  permissionsOfRoles,
  roleUse,
  type StaffRowWithApprover,
  superAdminUids,
} from './staff.repo.ts';

/** A staff account is created with its roles (invited, or a first start's / the demo's staff). */
export function addStaffMember(tx: Queryable, s: Parameters<typeof insertStaff>[1]): Promise<void> {
  return insertStaff(tx, s);
}

/** An invitation link for a new account: its one-time token, valid `ttlMs`. */
export function issueInvitation(tx: WriteTx, uid: string, at: Date, ttlMs: number): Promise<string> {
  return issueToken(tx, { uid, purpose: 'invite', at, ttlMs });
}

/**
 * Refuses (1105, 409) a change, in its write and after it, that leaves password sign-in off
 * without a usable break-glass account: the single sign-on settings' rules hold however the
 * account changes (roles, factors, deletion, deactivation), not only when the settings are saved.
 */
export async function keepBreakGlassUsable(tx: Queryable, uid: string, deleting = false): Promise<void> {
  const problem = await breakGlassProblem(tx, ROLE_SUPER_ADMIN, uid, deleting);
  if (problem) throw new AppError('breakGlassNeeded', `${ERRORS.breakGlassNeeded.text} (${problem})`);
}

/**
 * A staff member's roles become `roles`, and every session they hold ends (it was signed in with
 * the old ones). Answers how many sessions ended.
 */
export async function changeStaffRoles(
  tx: WriteTx,
  uid: string,
  roles: string[],
  at: Date,
  /** A SuperAdmin's email when their change counts as the access review's confirmation. */
  confirmedBy?: string,
): Promise<number> {
  await setStaffRoles(tx, uid, roles, at);
  if (confirmedBy) await markRolesConfirmed(tx, uid, at, confirmedBy);
  await keepBreakGlassUsable(tx, uid);
  return revokeUserSessions(tx, uid, at, 'roles-changed');
}

/** The periodic access review: a SuperAdmin confirmed a member's roles as they are. */
export function confirmStaffRoles(tx: WriteTx, uid: string, at: Date, by: string): Promise<void> {
  return markRolesConfirmed(tx, uid, at, by);
}

/** A staff account is deleted; its sessions and tokens go with it (ON DELETE CASCADE). */
export async function removeStaffMember(tx: WriteTx, uid: string): Promise<boolean> {
  await keepBreakGlassUsable(tx, uid, true);
  return deleteStaff(tx, uid);
}

/** A session for a staff member acting on a site through an approved impersonation grant. */
export function openImpersonationSession(
  tx: WriteTx,
  s: {
    uid: string;
    at: Date;
    clientAddress: string | null;
    userAgent: string | null;
    impersonationRequestId: number;
  },
): Promise<{ xtoken: string; xsign: string; id: number }> {
  return createSession(tx, s);
}
