import { sql } from 'kysely';
import { authChanged, type Queryable } from '../../db/db.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';

/** A custom role's definition as the service writes it. */
export interface RoleDefinition {
  name: string;
  description: string;
  permissions: string[];
  dataCenters: string[] | null;
  plans: string[] | null;
}

/** A role's row, locked FOR UPDATE for the write's transaction; undefined when there is none. */
export function lockRole(db: Queryable, name: string) {
  return firstRow(
    db,
    qb
      .selectFrom('roles')
      .select([
        'name',
        'description',
        'permissions',
        'built_in',
        'scope_data_centers',
        'scope_plans',
        'version',
      ])
      .where('name', '=', name)
      .forUpdate(),
  );
}
export type LockedRole = NonNullable<Awaited<ReturnType<typeof lockRole>>>;

/** The name of a role whose name is `name` whatever the case, if any. */
export async function roleNamedLike(db: Queryable, name: string): Promise<string | undefined> {
  const r = await firstRow(
    db,
    qb.selectFrom('roles').select('name').where(sql<string>`lower(name)`, '=', name.toLowerCase()),
  );
  return r?.name;
}

/** The codes among `codes` that name no data center. */
export async function unknownDataCenters(db: Queryable, codes: readonly string[]): Promise<string[]> {
  if (codes.length === 0) return [];
  const found = await rows(db, qb.selectFrom('data_centers').select('code').where('code', 'in', codes));
  const known = new Set(found.map((r) => r.code));
  return codes.filter((c) => !known.has(c));
}

/** The data centers a scope may name, by name. */
export const dataCenterNames = (db: Queryable) =>
  rows(db, qb.selectFrom('data_centers').select(['code', 'name']).orderBy('name'));

export async function insertRole(db: Queryable, r: RoleDefinition, at: Date): Promise<void> {
  await execute(
    db,
    qb.insertInto('roles').values({
      name: r.name,
      description: r.description,
      permissions: r.permissions,
      built_in: false,
      created_at: at,
      scope_data_centers: r.dataCenters,
      scope_plans: r.plans,
    }),
  );
}

/**
 * Writes a custom role's definition and raises its version; the new version. Every session and
 * token of its holders is read again at its next call (authChanged here; other instances by 0020's
 * trigger), so a narrowed role narrows at once.
 */
export async function updateRole(db: Queryable, r: RoleDefinition, at: Date): Promise<number> {
  const row = await firstRow(
    db,
    qb
      .updateTable('roles')
      .set((eb) => ({
        description: r.description,
        permissions: r.permissions,
        scope_data_centers: r.dataCenters,
        scope_plans: r.plans,
        modified_at: at,
        version: eb('version', '+', 1),
      }))
      .where('name', '=', r.name)
      .where('built_in', '=', false)
      .returning('version'),
  );
  authChanged(db);
  return row!.version;
}

/**
 * Restarts the grant time of a role for all its holders: a role that comes to approve
 * impersonation makes its holders new approvers, whom the approver cool-down holds back.
 */
export async function restartRoleGrants(db: Queryable, name: string, at: Date): Promise<void> {
  await execute(db, qb.updateTable('staff_roles').set({ granted_at: at }).where('role', '=', name));
}

export async function deleteRole(db: Queryable, name: string): Promise<void> {
  await execute(db, qb.deleteFrom('roles').where('name', '=', name).where('built_in', '=', false));
  authChanged(db);
}
