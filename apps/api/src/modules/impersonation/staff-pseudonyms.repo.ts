import type { Queryable } from '../../db/db.ts';

/**
 * Reads the roles of the staff with the given emails (`emails` in lower case): one row per staff
 * member found, their email in lower case and every role they hold ('{}' for none).
 */
export async function staffRolesByEmail(
  db: Queryable,
  emails: string[],
): Promise<Array<{ email: string; roles: string[] }>> {
  const r = await db.query<{ email: string; roles: string[] }>(
    `SELECT lower(s.email) AS email, coalesce(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles
       FROM staff s LEFT JOIN staff_roles r ON r.uid = s.uid
      WHERE lower(s.email) = ANY($1) GROUP BY s.email`,
    [emails],
  );
  return r.rows;
}
