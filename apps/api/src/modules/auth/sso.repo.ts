import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, preparedStatement, qb, rows } from '../../db/sql.ts';

/** The SQL of single sign-on: its one row of settings, the group-to-role table, the pending sign-ins. */

export type SsoSettingsRow = NonNullable<Awaited<ReturnType<typeof readSsoSettings>>>;

/** The settings with the break-glass account's email: read by every password sign-in, so built once and prepared. */
const ssoSettings = preparedStatement(() =>
  qb
    .selectFrom('sso_settings as s')
    .leftJoin('staff as b', 'b.uid', 's.break_glass_uid')
    .select([
      's.enabled',
      's.display_name',
      's.issuer',
      's.client_id',
      's.client_secret_sealed',
      's.groups_claim',
      's.create_on_first',
      's.second_factor_values',
      's.password_sign_in',
      's.break_glass_uid',
      'b.email as break_glass_email',
    ])
    .where('s.id', '=', 1),
);

/** The settings with the break-glass account's email; undefined before they were first saved. */
export function readSsoSettings(db: Queryable) {
  return firstRow(db, ssoSettings());
}

/** The account the settings name for break-glass, if any (SCIM never changes it). */
export async function breakGlassUid(db: Queryable): Promise<string | null> {
  const r = await firstRow(db, qb.selectFrom('sso_settings').select('break_glass_uid').where('id', '=', 1));
  return r?.break_glass_uid ?? null;
}

/**
 * With password sign-in off and `uid` its break-glass account, what that account lacks as it
 * stands in the caller's write (after its change; before it, for a deletion), or undefined: it is there, not deactivated, a SuperAdmin, with a
 * second factor (the rules updateSsoSettings checks). The settings row is read FOR SHARE, so a
 * save of the settings waits for this write and then reads the account as this write left it.
 */
export async function breakGlassProblem(
  db: Queryable,
  superAdmin: string,
  uid: string,
  deleting: boolean,
): Promise<string | undefined> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('sso_settings as s')
      .select((eb) => [
        's.break_glass_uid',
        eb
          .selectFrom('staff as b')
          .select('b.deactivated_at')
          .whereRef('b.uid', '=', 's.break_glass_uid')
          .as('deactivated_at'),
        eb
          .exists(
            eb
              .selectFrom('staff_roles as r')
              .select('r.uid')
              .whereRef('r.uid', '=', 's.break_glass_uid')
              .where('r.role', '=', superAdmin),
          )
          .as('super_admin'),
        eb
          .or([
            eb.exists(
              eb
                .selectFrom('staff_totp as t')
                .select('t.uid')
                .whereRef('t.uid', '=', 's.break_glass_uid')
                .where('t.confirmed_at', 'is not', null),
            ),
            eb.exists(
              eb
                .selectFrom('staff_passkeys as p')
                .select('p.uid')
                .whereRef('p.uid', '=', 's.break_glass_uid'),
            ),
          ])
          .as('factor'),
      ])
      .where('s.id', '=', 1)
      .where('s.password_sign_in', '=', false)
      .where('s.break_glass_uid', '=', uid)
      .forShare(),
  );
  if (!r) return undefined;
  if (deleting) return 'the break-glass account would be gone';
  if (r.deactivated_at) return 'the break-glass account would be deactivated';
  if (!r.super_admin) return 'the break-glass account would no longer be a SuperAdmin';
  if (!r.factor) return 'the break-glass account would have no second factor';
  return undefined;
}

/** The group-to-role table (SSO's and SCIM's), in order. */
export function readGroupRoles(db: Queryable) {
  return rows(
    db,
    qb.selectFrom('staff_group_roles').select(['group_value', 'role']).orderBy('group_value').orderBy('role'),
  );
}

/**
 * Which of `names` are roles (built-in or custom), each share-locked for the write: a custom role's
 * deletion, which locks its row for update and then counts the groups mapped to it, cannot pass
 * between this check and the table's new rows.
 */
export async function shareLockRoles(db: Queryable, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const found = await rows(
    db,
    qb
      .selectFrom('roles')
      .select('name')
      .where('name', 'in', [...names])
      .forShare(),
  );
  return new Set(found.map((r) => r.name));
}

export async function lockSsoSettings(db: Queryable): Promise<void> {
  await execute(
    db,
    qb
      .insertInto('sso_settings')
      .values({ id: 1 })
      .onConflict((oc) => oc.column('id').doNothing()),
  );
  await execute(db, qb.selectFrom('sso_settings').select('id').where('id', '=', 1).forUpdate());
}

export async function writeSsoSettings(
  db: Queryable,
  s: {
    enabled: boolean;
    displayName: string;
    issuer: string;
    clientId: string;
    clientSecretSealed: Buffer | undefined;
    groupsClaim: string;
    createOnFirst: boolean;
    secondFactorValues: string[];
    passwordSignIn: boolean;
    breakGlassUid: string | null;
    at: Date;
  },
  groupRoles: { group: string; role: string }[],
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('sso_settings')
      .set({
        enabled: s.enabled,
        display_name: s.displayName,
        issuer: s.issuer,
        client_id: s.clientId,
        ...(s.clientSecretSealed ? { client_secret_sealed: s.clientSecretSealed } : {}),
        groups_claim: s.groupsClaim,
        create_on_first: s.createOnFirst,
        second_factor_values: s.secondFactorValues.join(' '),
        password_sign_in: s.passwordSignIn,
        break_glass_uid: s.breakGlassUid,
        updated_at: s.at,
      })
      .where('id', '=', 1),
  );
  await execute(db, qb.deleteFrom('staff_group_roles'));
  if (groupRoles.length > 0)
    await execute(
      db,
      qb
        .insertInto('staff_group_roles')
        .values(groupRoles.map((g) => ({ group_value: g.group, role: g.role }))),
    );
}

/** A pending sign-in, the expired ones cleared with it. */
export async function putSsoState(
  db: Queryable,
  s: { stateHash: Buffer; binderHash: Buffer; nonce: string; verifier: string; at: Date; expiresAt: Date },
): Promise<void> {
  await execute(
    db,
    qb
      .with('cleared', (w) => w.deleteFrom('sso_sign_in_states').where('expires_at', '<=', s.at))
      .insertInto('sso_sign_in_states')
      .values({
        state_hash: s.stateHash,
        binder_hash: s.binderHash,
        nonce: s.nonce,
        code_verifier: s.verifier,
        created_at: s.at,
        expires_at: s.expiresAt,
      }),
  );
}

/** Takes (deletes) a pending sign-in: a state is spent by its first use, right or wrong. */
export function takeSsoState(db: Queryable, stateHash: Buffer) {
  return firstRow(
    db,
    qb
      .deleteFrom('sso_sign_in_states')
      .where('state_hash', '=', stateHash)
      .returning(['binder_hash', 'nonce', 'code_verifier', 'expires_at']),
  );
}
