import { type Expression, sql } from 'kysely';
import { authChanged, type Queryable } from '../../db/db.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import { permissionsOf, scopesOf } from './sessions.repo.ts';

/** `= ANY` over uuids as one array parameter (the set may be empty, where `IN ()` is no SQL). */
const uuids = (ids: readonly string[]) => sql<string>`ANY(${ids}::uuid[])`;

/** A staff member's roles, sorted; an empty array when none. */
export const rolesOf = (uid: Expression<string>) =>
  sql<string[]>`COALESCE(${qb
    .selectFrom('staff_roles as r')
    .select((eb) => eb.fn.agg<string[]>('array_agg', ['r.role']).orderBy('r.role').as('roles'))
    .where('r.uid', '=', uid)}, '{}')`;

/**
 * When a staff member (`uid`) got a role that approves impersonation: the earliest such grant,
 * or NULL when one of them has no recorded time (held before grant times were recorded, or given
 * at the first start, as the demo staff are) or when they hold none.
 */
const approverSinceOf = (uid: Expression<string>) =>
  qb
    .selectFrom('staff_roles as ar')
    .innerJoin('roles as ap', 'ap.name', 'ar.role')
    .select((eb) =>
      eb
        .case()
        .when(eb.fn<boolean>('bool_or', [eb('ar.granted_at', 'is', null)]))
        .then(sql<Date | null>`NULL`)
        .else(eb.fn.min('ar.granted_at'))
        .end()
        .as('since'),
    )
    .where('ar.uid', '=', uid)
    .where((eb) => eb(sql.lit('impersonation.approve'), '=', eb.fn.any('ap.permissions')));

/** The staff columns every read of an account answers (its roles with them). */
const staffAccount = qb
  .selectFrom('staff as s')
  .select((eb) => [
    's.uid',
    's.email',
    's.full_name',
    's.password_hash',
    's.created_at',
    's.last_login_at',
    's.password_changed_at',
    's.invitation_pending',
    's.failed_logins',
    's.lockouts',
    's.locked_until',
    rolesOf(eb.ref('s.uid')).as('roles'),
  ]);

/** The account columns with when the member got a role that approves impersonation (approverSinceOf). */
const staffWithApprover = staffAccount.select((eb) => [
  approverSinceOf(eb.ref('s.uid')).as('approver_since'),
  // a service account (api-tokens.service.ts): the team list marks it
  's.kind',
  // deactivated by SCIM (migration 0060): the team list marks it
  's.deactivated_at',
  // the periodic access review (migration 0070): the last confirmation of the roles
  's.roles_confirmed_at',
  's.roles_confirmed_by',
]);

export type StaffRow = NonNullable<Awaited<ReturnType<typeof findStaffByEmail>>>;

/** A staff row with when they got a role that approves impersonation (listStaff, findStaffByUid). */
export type StaffRowWithApprover = Awaited<ReturnType<typeof listStaff>>[number];

/** How many staff accounts exist (0 on a new installation). */
export async function countStaff(db: Queryable): Promise<number> {
  const r = await firstRow(
    db,
    qb.selectFrom('staff').select((eb) => eb.fn.countAll<number>().as('n')),
  );
  return Number(r?.n ?? 0);
}

export function findStaffByEmail(db: Queryable, email: string) {
  return firstRow(
    db,
    staffAccount.where((eb) => eb(eb.fn('lower', ['s.email']), '=', eb.fn('lower', [eb.val(email)]))),
  );
}

/** Whether the account of an email is deactivated (SCIM, migration 0060). */
export async function isDeactivated(db: Queryable, email: string): Promise<boolean> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('staff as s')
      .select('s.uid')
      .where((eb) => eb(eb.fn('lower', ['s.email']), '=', eb.fn('lower', [eb.val(email)])))
      .where('s.deactivated_at', 'is not', null),
  );
  return r !== undefined;
}

export function listStaff(db: Queryable) {
  return rows(
    db,
    staffWithApprover.orderBy('s.created_at').orderBy((eb) => eb.fn('lower', ['s.email'])),
  );
}

export function findStaffByUid(db: Queryable, uid: string): Promise<StaffRowWithApprover | undefined> {
  return firstRow(db, staffWithApprover.where('s.uid', '=', uid));
}

/** Reads when a staff member got a role that approves impersonation (see approverSinceOf); null when unrecorded or none. */
export async function approverSince(db: Queryable, uid: string): Promise<Date | null> {
  const r = await firstRow(db, qb.selectNoFrom(approverSinceOf(sql<string>`${uid}::uuid`).as('since')));
  return r?.since ?? null;
}

/** Locks one staff row (FOR UPDATE) until the transaction ends, so work on one account goes one at a time. */
export async function lockStaffRow(db: Queryable, uid: string): Promise<void> {
  await execute(db, qb.selectFrom('staff').select(sql.lit(1).as('one')).where('uid', '=', uid).forUpdate());
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
  await execute(
    db,
    qb
      .selectFrom('staff')
      .select(sql.lit(1).as('one'))
      .where('uid', '=', uuids(ids))
      .orderBy('uid')
      .forUpdate(),
  );
  return rows(db, staffWithApprover.where('s.uid', '=', uuids(ids)).orderBy('s.uid'));
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
    /** 'service': a service account, which never signs in (api-tokens.service.ts). */
    kind?: 'person' | 'service';
    /**
     * Recorded as when each role was given (the approval cool-down counts from it). Unset: not
     * recorded, as for the staff a first start creates, who hold their roles from the beginning.
     */
    rolesGrantedAt?: Date;
    /** When and by whom the roles were last confirmed in an access review (the demo's staff). */
    rolesConfirmed?: { at: Date; by: string };
  },
): Promise<void> {
  await execute(
    db,
    qb.insertInto('staff').values({
      uid: s.uid,
      email: s.email,
      full_name: s.fullName,
      password_hash: s.passwordHash,
      created_at: s.at,
      password_changed_at: s.invitationPending ? null : s.at,
      invitation_pending: s.invitationPending ?? false,
      kind: s.kind ?? 'person',
      roles_confirmed_at: s.rolesConfirmed?.at ?? null,
      roles_confirmed_by: s.rolesConfirmed?.by ?? null,
    }),
  );
  for (const role of s.roles) {
    await execute(
      db,
      qb.insertInto('staff_roles').values({ uid: s.uid, role, granted_at: s.rolesGrantedAt ?? null }),
    );
  }
}

export async function setPassword(db: Queryable, uid: string, passwordHash: string, at: Date): Promise<void> {
  // A new password also lifts a lockout: the user proved control of the account another way.
  await execute(
    db,
    qb
      .updateTable('staff')
      .set({
        password_hash: passwordHash,
        password_changed_at: at,
        invitation_pending: false,
        failed_logins: 0,
        factor_failures: 0,
        lockouts: 0,
        locked_until: null,
      })
      .where('uid', '=', uid),
  );
  authChanged(db);
}

/** Replaces a user's roles with `roles`; a role newly given records `at`, a kept one keeps its time. */
export async function setStaffRoles(db: Queryable, uid: string, roles: string[], at: Date): Promise<void> {
  await execute(
    db,
    qb
      .deleteFrom('staff_roles')
      .where('uid', '=', uid)
      .where((eb) => eb.not(eb('role', '=', eb.fn.any(eb.val(roles))))),
  );
  for (const role of roles) {
    await execute(
      db,
      qb
        .insertInto('staff_roles')
        .values({ uid, role, granted_at: at })
        .onConflict((oc) => oc.doNothing()),
    );
  }
  authChanged(db);
}

/**
 * Records that a SuperAdmin (`by`, an email) confirmed a member's roles at `at` (the periodic access
 * review's clock starts again). The roles themselves do not change, so sessions are left alone.
 */
export async function markRolesConfirmed(db: Queryable, uid: string, at: Date, by: string): Promise<void> {
  await execute(
    db,
    qb.updateTable('staff').set({ roles_confirmed_at: at, roles_confirmed_by: by }).where('uid', '=', uid),
  );
}

export async function deleteStaff(db: Queryable, uid: string): Promise<boolean> {
  const r = await rows(db, qb.deleteFrom('staff').where('uid', '=', uid).returning('uid'));
  authChanged(db);
  return r.length > 0;
}

/** Holders of `role` and whether they can sign in, by uid (the SuperAdmin checks and notices read these). */
const holdersOf = (role: string) =>
  qb
    .selectFrom('staff_roles as sr')
    .innerJoin('staff as s', 's.uid', 'sr.uid')
    .select(['sr.uid', 's.deactivated_at', 's.invitation_pending'])
    .where('sr.role', '=', role)
    .orderBy('sr.uid');
type Holder = { uid: string; deactivated_at: Date | null; invitation_pending: boolean };
/** Those who can sign in: not deactivated, no invitation still waiting to be accepted. */
const canSignIn = (hs: Holder[]) =>
  hs.filter((x) => x.deactivated_at === null && !x.invitation_pending).map((x) => x.uid);

/**
 * Locks the SuperAdmin role's rows and answers their holders who can sign in (not deactivated, no
 * invitation still waiting to be accepted), so "the last SuperAdmin" checks cannot race and neither
 * a deactivated holder nor an invitee who may never accept counts as another.
 */
export async function lockSuperAdmins(db: Queryable, role: string): Promise<string[]> {
  return canSignIn(await rows(db, holdersOf(role).forUpdate('sr')));
}

/** The SuperAdmins who can sign in, read without locks: whom to tell. */
export async function superAdminUids(db: Queryable, role: string): Promise<string[]> {
  return canSignIn(await rows(db, holdersOf(role)));
}

/** Every role, built in first, each with its scope, version and how many staff members hold it. */
export function listRoles(db: Queryable) {
  return rows(
    db,
    qb
      .selectFrom('roles as ro')
      .select([
        'ro.name',
        'ro.description',
        'ro.permissions',
        'ro.built_in',
        'ro.scope_data_centers',
        'ro.scope_plans',
        'ro.version',
      ])
      .select((eb) =>
        eb
          .selectFrom('staff_roles as sr')
          .select((c) => c.fn.countAll<string>().as('n'))
          .whereRef('sr.role', '=', 'ro.name')
          .as('holders'),
      )
      .orderBy('ro.built_in', 'desc')
      .orderBy('ro.name'),
  );
}

/**
 * What still names a role, read in a deletion's transaction after the role's row is locked: the
 * staff members holding it and the single sign-on groups mapped to it (both reference it).
 */
export async function roleUse(db: Queryable, name: string): Promise<{ holders: number; groups: number }> {
  const r = await firstRow(
    db,
    qb.selectNoFrom((eb) => [
      eb
        .selectFrom('staff_roles')
        .select((c) => c.fn.countAll<string>().as('n'))
        .where('role', '=', name)
        .as('holders'),
      eb
        .selectFrom('staff_group_roles')
        .select((c) => c.fn.countAll<string>().as('n'))
        .where('role', '=', name)
        .as('groups'),
    ]),
  );
  return { holders: Number(r?.holders ?? 0), groups: Number(r?.groups ?? 0) };
}

/** The permissions that the given roles hold, from the roles table. */
export async function permissionsOfRoles(db: Queryable, roles: string[]): Promise<string[]> {
  if (roles.length === 0) return [];
  const r = await rows(
    db,
    qb
      .selectFrom('roles')
      .select((eb) => eb.fn<string>('unnest', ['permissions']).as('p'))
      .distinct()
      .where('name', 'in', roles)
      .orderBy('p'),
  );
  return r.map((x) => x.p);
}

/**
 * What a staff member may do now, for a job acting later on their word: whether the account is
 * there and not deactivated, their roles, the permissions those grant, and what their scoped roles
 * limit (null: nothing); with `apiTokenId`, the job's token of theirs in the same read (its name,
 * when it was revoked and when it expires; all null when there is no such token of theirs).
 * Undefined when there is no such account.
 */
export async function currentGrantOf(db: Queryable, uid: string, apiTokenId: number | null = null) {
  const r = await firstRow(
    db,
    qb
      .selectFrom('staff as st')
      // `t.id = NULL` matches no token: a job asked for from a console session
      .leftJoin('staff_api_tokens as t', (j) =>
        j.onRef('t.uid', '=', 'st.uid').on(sql<boolean>`t.id = ${apiTokenId}::bigint`),
      )
      .select((eb) => [
        eb('st.deactivated_at', 'is', null).as('active'),
        rolesOf(eb.ref('st.uid')).as('roles'),
        permissionsOf(eb.ref('st.uid')).as('permissions'),
        scopesOf(eb.ref('st.uid')).as('scopes'),
        't.name as token_name',
        't.revoked_at as token_revoked_at',
        't.expires_at as token_expires_at',
      ])
      .where('st.uid', '=', uid),
  );
  return r;
}
