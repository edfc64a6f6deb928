import { authChanged, type Queryable } from '../../db/db.ts';

export interface StaffRow {
  uid: string;
  email: string;
  full_name: string;
  password_hash: string;
  created_at: Date;
  last_login_at: Date | null;
  password_changed_at: Date | null;
  invitation_pending: boolean;
  failed_logins: number;
  lockouts: number;
  locked_until: Date | null;
  roles: string[];
}

/** A staff row with when they got a role that approves impersonation (listStaff, findStaffByUid). */
export interface StaffRowWithApprover extends StaffRow {
  /** The earliest recorded grant of such a role; null when unrecorded (founding staff) or none. */
  approver_since: Date | null;
}

/**
 * When a staff member (`uidExpr`) got a role that approves impersonation: the earliest such grant,
 * or NULL when one of them has no recorded time (held before grant times were recorded, or given
 * at the first start, as the demo staff are) or when they hold none.
 */
const approverSinceSql = (uidExpr: string) => `(
  SELECT CASE WHEN bool_or(ar.granted_at IS NULL) THEN NULL ELSE min(ar.granted_at) END
  FROM staff_roles ar JOIN roles ap ON ap.name = ar.role
  WHERE ar.uid = ${uidExpr} AND 'impersonation.approve' = ANY(ap.permissions))`;

const STAFF_COLUMNS = `s.uid, s.email, s.full_name, s.password_hash, s.created_at, s.last_login_at, s.password_changed_at,
  s.invitation_pending, s.failed_logins, s.lockouts, s.locked_until,
  COALESCE((SELECT array_agg(r.role ORDER BY r.role) FROM staff_roles r WHERE r.uid = s.uid), '{}') AS roles`;

/** How many staff accounts exist (0 on a new installation). */
export async function countStaff(db: Queryable): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM staff');
  return r.rows[0]?.n ?? 0;
}

export async function findStaffByEmail(db: Queryable, email: string): Promise<StaffRow | undefined> {
  const r = await db.query<StaffRow>(
    `SELECT ${STAFF_COLUMNS} FROM staff s WHERE lower(s.email) = lower($1)`,
    [email],
  );
  return r.rows[0];
}

export async function listStaff(db: Queryable): Promise<StaffRowWithApprover[]> {
  const r = await db.query<StaffRowWithApprover>(
    `SELECT ${STAFF_COLUMNS}, ${approverSinceSql('s.uid')} AS approver_since
     FROM staff s ORDER BY s.created_at, lower(s.email)`,
  );
  return r.rows;
}

export async function findStaffByUid(db: Queryable, uid: string): Promise<StaffRowWithApprover | undefined> {
  const r = await db.query<StaffRowWithApprover>(
    `SELECT ${STAFF_COLUMNS}, ${approverSinceSql('s.uid')} AS approver_since FROM staff s WHERE s.uid = $1`,
    [uid],
  );
  return r.rows[0];
}

/** Reads when a staff member got a role that approves impersonation (see approverSinceSql); null when unrecorded or none. */
export async function approverSince(db: Queryable, uid: string): Promise<Date | null> {
  const r = await db.query<{ since: Date | null }>(`SELECT ${approverSinceSql('$1::uuid')} AS since`, [uid]);
  return r.rows[0]?.since ?? null;
}

/** Locks one staff row (FOR UPDATE) until the transaction ends, so work on one account goes one at a time. */
export async function lockStaffRow(db: Queryable, uid: string): Promise<void> {
  await db.query(`SELECT 1 FROM staff WHERE uid = $1 FOR UPDATE`, [uid]);
}

/**
 * The staff rows of `uids` (those that exist), each locked FOR UPDATE until the transaction ends,
 * in uid order: a write on staff accounts reads them here, so a role change, a deletion or another
 * such write on the same account waits for it, and two writes locking the same accounts take them
 * in the same order (no deadlock). Two statements: the rows are read once the lock is held, since
 * a statement that waited for a lock still reads the roles (another table) as they were when it
 * began, before the change it waited for committed.
 */
export async function lockStaffRows(db: Queryable, uids: readonly string[]): Promise<StaffRowWithApprover[]> {
  const ids = [...new Set(uids)];
  await db.query('SELECT 1 FROM staff WHERE uid = ANY($1::uuid[]) ORDER BY uid FOR UPDATE', [ids]);
  const r = await db.query<StaffRowWithApprover>(
    `SELECT ${STAFF_COLUMNS}, ${approverSinceSql('s.uid')} AS approver_since
     FROM staff s WHERE s.uid = ANY($1::uuid[]) ORDER BY s.uid`,
    [ids],
  );
  return r.rows;
}

export async function insertStaff(
  db: Queryable,
  s: {
    uid: string;
    email: string;
    fullName: string;
    passwordHash: string;
    roles: string[];
    at: Date;
    invitationPending?: boolean;
    /**
     * Recorded as when each role was given (the approval cool-down counts from it). Unset: not
     * recorded, as for the staff a first start creates, who hold their roles from the beginning.
     */
    rolesGrantedAt?: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO staff (uid, email, full_name, password_hash, created_at, password_changed_at, invitation_pending)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      s.uid,
      s.email,
      s.fullName,
      s.passwordHash,
      s.at,
      s.invitationPending ? null : s.at,
      s.invitationPending ?? false,
    ],
  );
  for (const role of s.roles) {
    await db.query('INSERT INTO staff_roles (uid, role, granted_at) VALUES ($1, $2, $3)', [
      s.uid,
      role,
      s.rolesGrantedAt ?? null,
    ]);
  }
}

export async function setPassword(db: Queryable, uid: string, passwordHash: string, at: Date): Promise<void> {
  // A new password also lifts a lockout: the user proved control of the account another way.
  await db.query(
    `UPDATE staff SET password_hash = $2, password_changed_at = $3, invitation_pending = false,
       failed_logins = 0, factor_failures = 0, lockouts = 0, locked_until = NULL
     WHERE uid = $1`,
    [uid, passwordHash, at],
  );
  authChanged(db);
}

/** Replaces a user's roles with `roles`; a role newly given records `at`, a kept one keeps its time. */
export async function setStaffRoles(db: Queryable, uid: string, roles: string[], at: Date): Promise<void> {
  await db.query('DELETE FROM staff_roles WHERE uid = $1 AND NOT (role = ANY($2))', [uid, roles]);
  for (const role of roles) {
    await db.query(
      'INSERT INTO staff_roles (uid, role, granted_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [uid, role, at],
    );
  }
  authChanged(db);
}

export async function deleteStaff(db: Queryable, uid: string): Promise<boolean> {
  const r = await db.query('DELETE FROM staff WHERE uid = $1 RETURNING uid', [uid]);
  authChanged(db);
  return r.rows.length > 0;
}

/** Locks the SuperAdmin role's rows and answers their holders, so "the last SuperAdmin" checks cannot race. */
export async function lockSuperAdmins(db: Queryable, role: string): Promise<string[]> {
  const r = await db.query<{ uid: string }>(
    'SELECT uid FROM staff_roles WHERE role = $1 ORDER BY uid FOR UPDATE',
    [role],
  );
  return r.rows.map((x) => x.uid);
}

export interface RoleRow {
  name: string;
  description: string;
  permissions: string[];
  built_in: boolean;
}

export async function listRoles(db: Queryable): Promise<RoleRow[]> {
  const r = await db.query<RoleRow>(
    'SELECT name, description, permissions, built_in FROM roles ORDER BY built_in DESC, name',
  );
  return r.rows;
}

/** The permissions that the given roles hold, from the roles table. */
export async function permissionsOfRoles(db: Queryable, roles: string[]): Promise<string[]> {
  if (roles.length === 0) return [];
  const r = await db.query<{ p: string }>(
    'SELECT DISTINCT unnest(permissions) AS p FROM roles WHERE name = ANY($1) ORDER BY 1',
    [roles],
  );
  return r.rows.map((x) => x.p);
}
