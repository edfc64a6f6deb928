import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { qb, rows } from '../../db/sql.ts';

/**
 * Reads the roles of the staff with the given emails (`emails` in lower case): one row per staff
 * member found, their email in lower case and every role they hold ('{}' for none).
 */
export function staffRolesByEmail(db: Queryable, emails: string[]) {
  return rows(
    db,
    qb
      .selectFrom('staff as s')
      .leftJoin('staff_roles as r', 'r.uid', 's.uid')
      .select([
        sql<string>`lower(s.email)`.as('email'),
        sql<string[]>`coalesce(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}')`.as('roles'),
      ])
      .where(sql<boolean>`lower(s.email) = ANY(${emails})`)
      .groupBy('s.email'),
  );
}
