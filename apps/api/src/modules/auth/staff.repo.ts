import type { Queryable } from '../../db/db.ts';

export interface StaffRow {
  uid: string;
  email: string;
  full_name: string;
  password_hash: string;
  failed_logins: number;
  lockouts: number;
  locked_until: Date | null;
  roles: string[];
}

const STAFF_COLUMNS = `s.uid, s.email, s.full_name, s.password_hash, s.failed_logins, s.lockouts, s.locked_until,
  COALESCE((SELECT array_agg(r.role ORDER BY r.role) FROM staff_roles r WHERE r.uid = s.uid), '{}') AS roles`;

export async function findStaffByEmail(db: Queryable, email: string): Promise<StaffRow | undefined> {
  const r = await db.query<StaffRow>(
    `SELECT ${STAFF_COLUMNS} FROM staff s WHERE lower(s.email) = lower($1)`,
    [email],
  );
  return r.rows[0];
}

export async function findStaffByUid(db: Queryable, uid: string): Promise<StaffRow | undefined> {
  const r = await db.query<StaffRow>(`SELECT ${STAFF_COLUMNS} FROM staff s WHERE s.uid = $1`, [uid]);
  return r.rows[0];
}

export async function insertStaff(
  db: Queryable,
  s: { uid: string; email: string; fullName: string; passwordHash: string; roles: string[]; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO staff (uid, email, full_name, password_hash, created_at, password_changed_at)
     VALUES ($1, $2, $3, $4, $5, $5)`,
    [s.uid, s.email, s.fullName, s.passwordHash, s.at],
  );
  for (const role of s.roles) {
    await db.query('INSERT INTO staff_roles (uid, role) VALUES ($1, $2)', [s.uid, role]);
  }
}

export async function setPassword(db: Queryable, uid: string, passwordHash: string, at: Date): Promise<void> {
  // A new password also lifts a lockout: the user proved control of the account another way.
  await db.query(
    `UPDATE staff SET password_hash = $2, password_changed_at = $3, failed_logins = 0, lockouts = 0, locked_until = NULL
     WHERE uid = $1`,
    [uid, passwordHash, at],
  );
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
