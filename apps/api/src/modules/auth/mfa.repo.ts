import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import { hashSecret } from '../../lib/secrets.ts';

/** The SQL of second factors: authenticator apps, passkeys, recovery codes, sign-in tickets, challenges. */

export type PasskeyRow = Awaited<ReturnType<typeof passkeysOf>>[number];

/** What an account has: a confirmed app, how many passkeys, how many recovery codes are left. */
export async function factorsOf(
  db: Queryable,
  uid: string,
): Promise<{ totp: boolean; passkeys: number; recoveryLeft: number }> {
  const row = await firstRow(
    db,
    qb.selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('staff_totp')
            .select(sql.lit(1).as('one'))
            .where('uid', '=', uid)
            .where('confirmed_at', 'is not', null),
        )
        .as('totp'),
      eb
        .selectFrom('staff_passkeys')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('uid', '=', uid)
        .as('passkeys'),
      eb
        .selectFrom('staff_recovery_codes')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('uid', '=', uid)
        .where('used_at', 'is', null)
        .as('recovery_left'),
    ]),
  );
  return {
    totp: Boolean(row?.totp),
    passkeys: Number(row?.passkeys ?? 0),
    recoveryLeft: Number(row?.recovery_left ?? 0),
  };
}

export function findTotp(db: Queryable, uid: string) {
  return firstRow(db, qb.selectFrom('staff_totp').selectAll().where('uid', '=', uid));
}

/** Starts a set-up: a new unconfirmed secret, unless a confirmed one exists (then false). */
export async function putPendingTotp(db: Queryable, uid: string, sealed: Buffer, at: Date): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .insertInto('staff_totp')
      .values({ uid, secret_sealed: sealed, created_at: at })
      .onConflict((oc) =>
        oc
          .column('uid')
          .doUpdateSet((eb) => ({
            secret_sealed: eb.ref('excluded.secret_sealed'),
            created_at: eb.ref('excluded.created_at'),
            last_used_step: 0,
            last_used_at: null,
          }))
          .where('staff_totp.confirmed_at', 'is', null),
      )
      .returning('uid'),
  );
  return r.length > 0;
}

/**
 * Spends a code's step: only when it is later than the last step used (so two requests with the
 * same code cannot both pass), and confirms a pending set-up. Whether it did.
 */
export async function useTotpStep(
  db: Queryable,
  uid: string,
  step: number,
  at: Date,
  confirming: boolean,
): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .updateTable('staff_totp')
      .set((eb) => ({
        last_used_step: step,
        last_used_at: at,
        confirmed_at: confirming ? eb.val(at) : eb.ref('confirmed_at'),
      }))
      .where('uid', '=', uid)
      .where('last_used_step', '<', step)
      .where('confirmed_at', confirming ? 'is' : 'is not', null)
      .returning('uid'),
  );
  return r.length > 0;
}

export async function deleteTotp(db: Queryable, uid: string): Promise<boolean> {
  const r = await rows(
    db,
    qb.deleteFrom('staff_totp').where('uid', '=', uid).where('confirmed_at', 'is not', null).returning('uid'),
  );
  return r.length > 0;
}

export function passkeysOf(db: Queryable, uid: string) {
  return rows(
    db,
    qb
      .selectFrom('staff_passkeys')
      .select([
        'id',
        'uid',
        'credential_id',
        'public_key',
        'sign_count',
        'transports',
        'name',
        'created_at',
        'last_used_at',
      ])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('staff_passkeys.id'),
  );
}

export async function insertPasskey(
  db: Queryable,
  p: {
    uid: string;
    credentialId: string;
    publicKey: Uint8Array;
    signCount: number;
    transports: string[];
    name: string;
    at: Date;
  },
): Promise<number | undefined> {
  const r = await firstRow(
    db,
    qb
      .insertInto('staff_passkeys')
      .values({
        uid: p.uid,
        credential_id: p.credentialId,
        public_key: Buffer.from(p.publicKey),
        sign_count: p.signCount,
        transports: p.transports,
        name: p.name,
        created_at: p.at,
      })
      .onConflict((oc) => oc.column('credential_id').doNothing())
      .returning('id'),
  );
  return r?.id;
}

export async function usePasskey(db: Queryable, id: number, signCount: number, at: Date): Promise<void> {
  await execute(
    db,
    qb.updateTable('staff_passkeys').set({ sign_count: signCount, last_used_at: at }).where('id', '=', id),
  );
}

export async function renamePasskey(db: Queryable, uid: string, id: number, name: string): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .updateTable('staff_passkeys')
      .set({ name })
      .where('id', '=', id)
      .where('uid', '=', uid)
      .returning('id'),
  );
  return r.length > 0;
}

export function deletePasskey(db: Queryable, uid: string, id: number) {
  return firstRow(
    db,
    qb.deleteFrom('staff_passkeys').where('id', '=', id).where('uid', '=', uid).returning('name'),
  );
}

/** Replaces the account's recovery codes with these hashes. */
export async function replaceRecoveryCodes(
  db: Queryable,
  uid: string,
  hashes: Buffer[],
  at: Date,
): Promise<void> {
  await execute(db, qb.deleteFrom('staff_recovery_codes').where('uid', '=', uid));
  // One statement for every code: the hashes go as one array parameter, unnested by the database.
  await execute(
    db,
    qb
      .insertInto('staff_recovery_codes')
      .columns(['uid', 'code_hash', 'created_at'])
      .expression(
        qb
          .selectFrom(sql<{ h: Uint8Array }>`unnest(${hashes}::bytea[])`.as('h'))
          .select((eb) => [
            eb.val(uid).as('uid'),
            sql<Uint8Array>`h`.as('code_hash'),
            eb.val(at).as('created_at'),
          ]),
      ),
  );
}

export async function unusedRecoveryHashes(db: Queryable, uid: string): Promise<Buffer[]> {
  const r = await rows(
    db,
    qb
      .selectFrom('staff_recovery_codes')
      .select('code_hash')
      .where('uid', '=', uid)
      .where('used_at', 'is', null),
  );
  return r.map((row) => Buffer.from(row.code_hash));
}

/** Spends one recovery code, in the statement that checks it is unused: whether it did. */
export async function spendRecoveryCode(
  db: Queryable,
  uid: string,
  hash: Buffer,
  at: Date,
): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .updateTable('staff_recovery_codes')
      .set({ used_at: at })
      .where('uid', '=', uid)
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .returning('uid'),
  );
  return r.length > 0;
}

/** Removes every factor, recovery code, ticket and challenge of an account (a SuperAdmin's reset). */
export async function deleteAllFactors(
  db: Queryable,
  uid: string,
): Promise<{ totp: boolean; passkeys: number }> {
  const t = await rows(
    db,
    qb.deleteFrom('staff_totp').where('uid', '=', uid).where('confirmed_at', 'is not', null).returning('uid'),
  );
  await execute(db, qb.deleteFrom('staff_totp').where('uid', '=', uid));
  const p = await rows(db, qb.deleteFrom('staff_passkeys').where('uid', '=', uid).returning('id'));
  await execute(db, qb.deleteFrom('staff_recovery_codes').where('uid', '=', uid));
  await execute(db, qb.deleteFrom('staff_sign_in_tickets').where('uid', '=', uid));
  await execute(db, qb.deleteFrom('staff_webauthn_challenges').where('uid', '=', uid));
  return { totp: t.length > 0, passkeys: p.length };
}

export type TicketKind = DB['staff_sign_in_tickets']['kind'];

export type TicketRow = NonNullable<Awaited<ReturnType<typeof liveTicket>>>;

/** A live ticket (unused, unexpired) of a kind, without spending it. */
export function liveTicket(db: Queryable, ticket: string, kind: TicketKind, now: Date) {
  return firstRow(
    db,
    qb
      .selectFrom('staff_sign_in_tickets')
      .select(['uid', 'kind', 'password_hash', 'expires_at'])
      .where('ticket_hash', '=', hashSecret(ticket))
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now),
  );
}

/** Spends a ticket in the statement that checks it is live: two uses cannot both succeed. */
export async function spendTicket(
  db: Queryable,
  ticket: string,
  kind: TicketKind,
  now: Date,
): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .updateTable('staff_sign_in_tickets')
      .set({ used_at: now })
      .where('ticket_hash', '=', hashSecret(ticket))
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('uid'),
  );
  return r.length > 0;
}

export type Ceremony = DB['staff_webauthn_challenges']['ceremony'];

export async function putChallenge(
  db: Queryable,
  uid: string,
  ceremony: Ceremony,
  challenge: string,
  expiresAt: Date,
): Promise<void> {
  await execute(
    db,
    qb
      .insertInto('staff_webauthn_challenges')
      .values({ uid, ceremony, challenge, expires_at: expiresAt })
      .onConflict((oc) =>
        oc.columns(['uid', 'ceremony']).doUpdateSet((eb) => ({
          challenge: eb.ref('excluded.challenge'),
          expires_at: eb.ref('excluded.expires_at'),
        })),
      ),
  );
}

/** Takes the pending challenge of a ceremony (single-use); undefined when none or expired. */
export async function takeChallenge(
  db: Queryable,
  uid: string,
  ceremony: Ceremony,
  now: Date,
): Promise<string | undefined> {
  const row = await firstRow(
    db,
    qb
      .deleteFrom('staff_webauthn_challenges')
      .where('uid', '=', uid)
      .where('ceremony', '=', ceremony)
      .returning(['challenge', 'expires_at']),
  );
  return row && new Date(row.expires_at) > now ? row.challenge : undefined;
}
