/**
 * What other modules may use of staff accounts, sessions and tokens: the team module manages the
 * accounts, impersonation opens sessions and reads approvers. Everything else of auth stays inside.
 */
export {
  approverStanding,
  COOL_DOWN,
  checkSettledSuperAdmin,
  standing,
} from './approver-cool-down.ts';
export { createSession, revokeUserSessions } from './sessions.repo.ts';
export {
  countStaff,
  deleteStaff,
  findStaffByEmail,
  findStaffByUid,
  insertStaff,
  listRoles,
  listStaff,
  lockStaffRows,
  lockSuperAdmins,
  permissionsOfRoles,
  type StaffRowWithApprover,
  setStaffRoles,
} from './staff.repo.ts';
export { issueToken } from './tokens.repo.ts';
