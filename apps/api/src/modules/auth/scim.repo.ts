import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { authChanged } from '../../db/db.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import { rolesOf } from './staff.repo.ts';

/** A member's SCIM groups, as `[{ value, display }]`. */
const groupsOfUser = sql<Array<{ value: string; display: string }>>`COALESCE((
  SELECT json_agg(json_build_object('value', g.id, 'display', g.display_name) ORDER BY g.display_name)
  FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id WHERE m.uid = s.uid), '[]'::json)`;

const users = qb
  .selectFrom('staff as s')
  .select([
    's.uid',
    's.email',
    's.full_name',
    's.external_id',
    's.deactivated_at',
    's.created_at',
    groupsOfUser.as('groups'),
  ])
  // service accounts are the console's own, never the provider's; nor is a local account (one
  // the provider did not make): SCIM reads and writes only the members it provisioned
  .where('s.kind', '=', 'person')
  .where('s.scim_managed', '=', true);
export type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

export const findUser = (db: Queryable, uid: string) => firstRow(db, users.where('s.uid', '=', uid));

export type UserFilter = { attr: 'userName' | 'externalId'; value: string } | undefined;

const userWhere = <Q extends typeof users>(q: Q, f: UserFilter) =>
  !f
    ? q
    : f.attr === 'userName'
      ? q.where(sql<boolean>`lower(s.email) = lower(${f.value}::text)`)
      : q.where('s.external_id', '=', f.value);

export async function listUsers(db: Queryable, f: UserFilter, offset: number, limit: number) {
  const total = await firstRow(
    db,
    userWhere(users, f)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
  const page =
    limit === 0
      ? []
      : await rows(
          db,
          userWhere(users, f).orderBy('s.created_at').orderBy('s.uid').offset(offset).limit(limit),
        );
  return { total: Number(total?.n ?? 0), page };
}

export const emailTaken = async (db: Queryable, email: string, notUid?: string) =>
  (await firstRow(
    db,
    qb
      .selectFrom('staff')
      .select('uid')
      .where(sql<boolean>`lower(email) = lower(${email}::text)`)
      .$if(notUid !== undefined, (q) => q.where('uid', '<>', notUid!)),
  )) !== undefined;

export async function updateUser(
  db: Queryable,
  uid: string,
  u: { email: string; fullName: string; externalId: string | null },
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('staff')
      .set({ email: u.email, full_name: u.fullName, external_id: u.externalId, scim_managed: true })
      .where('uid', '=', uid),
  );
  // a session keeps its member's email and name
  authChanged(db);
}

export async function setDeactivated(db: Queryable, uid: string, at: Date | null): Promise<void> {
  await execute(db, qb.updateTable('staff').set({ deactivated_at: at }).where('uid', '=', uid));
  authChanged(db);
}

/** The SuperAdmins that are not deactivated, of the holders given. */
export async function activeOf(db: Queryable, uids: string[]): Promise<string[]> {
  if (uids.length === 0) return [];
  const r = await rows(
    db,
    qb.selectFrom('staff').select('uid').where('uid', 'in', uids).where('deactivated_at', 'is', null),
  );
  return r.map((x) => x.uid);
}

/* Groups */

const membersOf = sql<Array<{ value: string; display: string }>>`COALESCE((
  SELECT json_agg(json_build_object('value', st.uid, 'display', st.email) ORDER BY st.email)
  FROM scim_group_members m JOIN staff st ON st.uid = m.uid WHERE m.group_id = g.id), '[]'::json)`;

const groups = qb
  .selectFrom('scim_groups as g')
  .select([
    'g.id',
    'g.display_name',
    'g.external_id',
    'g.created_at',
    'g.updated_at',
    'g.version',
    membersOf.as('members'),
  ]);
export type GroupRow = NonNullable<Awaited<ReturnType<typeof findGroup>>>;

export const findGroup = (db: Queryable, id: string) => firstRow(db, groups.where('g.id', '=', id));

export type GroupFilter = { attr: 'displayName' | 'externalId'; value: string } | undefined;

const groupWhere = <Q extends typeof groups>(q: Q, f: GroupFilter) =>
  !f
    ? q
    : f.attr === 'displayName'
      ? q.where(sql<boolean>`lower(g.display_name) = lower(${f.value}::text)`)
      : q.where('g.external_id', '=', f.value);

export async function listGroups(db: Queryable, f: GroupFilter, offset: number, limit: number) {
  const total = await firstRow(
    db,
    groupWhere(groups, f)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n')),
  );
  const page =
    limit === 0
      ? []
      : await rows(
          db,
          groupWhere(groups, f).orderBy('g.created_at').orderBy('g.id').offset(offset).limit(limit),
        );
  return { total: Number(total?.n ?? 0), page };
}

export const lockGroup = (db: Queryable, id: string) =>
  firstRow(db, qb.selectFrom('scim_groups').select(['id', 'display_name']).where('id', '=', id).forUpdate());

export const groupNameTaken = async (db: Queryable, name: string, notId?: string) =>
  (await firstRow(
    db,
    qb
      .selectFrom('scim_groups')
      .select('id')
      .where(sql<boolean>`lower(display_name) = lower(${name}::text)`)
      .$if(notId !== undefined, (q) => q.where('id', '<>', notId!)),
  )) !== undefined;

export async function memberUids(db: Queryable, groupId: string): Promise<string[]> {
  const r = await rows(db, qb.selectFrom('scim_group_members').select('uid').where('group_id', '=', groupId));
  return r.map((x) => x.uid);
}

/** The ids among `uids` that name members SCIM provisioned (not service accounts, not local staff). */
export async function existingPeople(db: Queryable, uids: string[]): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  const r = await rows(
    db,
    qb
      .selectFrom('staff')
      .select('uid')
      .where('uid', 'in', uids)
      .where('kind', '=', 'person')
      .where('scim_managed', '=', true),
  );
  return new Set(r.map((x) => x.uid));
}

export async function setMembers(db: Queryable, groupId: string, uids: string[]): Promise<void> {
  await execute(db, qb.deleteFrom('scim_group_members').where('group_id', '=', groupId));
  if (uids.length > 0)
    await execute(
      db,
      qb.insertInto('scim_group_members').values(uids.map((uid) => ({ group_id: groupId, uid }))),
    );
}

/** A member's email and roles as they are now (the `from` of a role change's trail row). */
export const emailAndRoles = (db: Queryable, uid: string) =>
  firstRow(
    db,
    qb
      .selectFrom('staff as s')
      .select((eb) => ['s.email', rolesOf(eb.ref('s.uid')).as('roles')])
      .where('s.uid', '=', uid),
  );

/** The members of the SCIM groups named (by displayName, as staff_group_roles names them). */
export async function membersOfGroupsNamed(db: Queryable, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const r = await rows(
    db,
    qb
      .selectFrom('scim_group_members as m')
      .innerJoin('scim_groups as g', 'g.id', 'm.group_id')
      .select('m.uid')
      .distinct()
      .where('g.display_name', 'in', names),
  );
  return r.map((x) => x.uid);
}

/** The roles a member's SCIM groups give through staff_group_roles (the table SSO maps through). */
export async function rolesFromGroups(db: Queryable, uid: string): Promise<string[]> {
  const r = await rows(
    db,
    qb
      .selectFrom('scim_group_members as m')
      .innerJoin('scim_groups as g', 'g.id', 'm.group_id')
      .innerJoin('staff_group_roles as gr', 'gr.group_value', 'g.display_name')
      .select('gr.role')
      .distinct()
      .where('m.uid', '=', uid)
      .orderBy('gr.role'),
  );
  return r.map((x) => x.role);
}
