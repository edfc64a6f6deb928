import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';

/** The SQL of single sign-on: its one row of settings, the group-to-role table, the pending sign-ins. */

export type SsoSettingsRow = NonNullable<Awaited<ReturnType<typeof readSsoSettings>>>;

/** The settings with the break-glass account's email; undefined before they were first saved. */
export function readSsoSettings(db: Queryable) {
  return firstRow(
    db,
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
}

/** The group-to-role table (SSO's and SCIM's), in order. */
export function readGroupRoles(db: Queryable) {
  return rows(
    db,
    qb.selectFrom('staff_group_roles').select(['group_value', 'role']).orderBy('group_value').orderBy('role'),
  );
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
