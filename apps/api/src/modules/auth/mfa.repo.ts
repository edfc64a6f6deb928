import type { Queryable } from '../../db/db.ts';
import { hashSecret } from '../../lib/secrets.ts';

/** The SQL of second factors: authenticator apps, passkeys, recovery codes, sign-in tickets, challenges. */

export interface TotpRow {
  uid: string;
  secret_sealed: Uint8Array;
  created_at: Date;
  confirmed_at: Date | null;
  last_used_step: string | number;
  last_used_at: Date | null;
}

export interface PasskeyRow {
  id: number;
  uid: string;
  credential_id: string;
  public_key: Uint8Array;
  sign_count: string | number;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** What an account has: a confirmed app, how many passkeys, how many recovery codes are left. */
export async function factorsOf(
  db: Queryable,
  uid: string,
): Promise<{ totp: boolean; passkeys: number; recoveryLeft: number }> {
  const r = await db.query<{ totp: boolean; passkeys: number; recovery_left: number }>(
    `SELECT EXISTS (SELECT 1 FROM staff_totp WHERE uid = $1 AND confirmed_at IS NOT NULL) AS totp,
       (SELECT count(*)::int FROM staff_passkeys WHERE uid = $1) AS passkeys,
       (SELECT count(*)::int FROM staff_recovery_codes WHERE uid = $1 AND used_at IS NULL) AS recovery_left`,
    [uid],
  );
  const row = r.rows[0]!;
  return { totp: row.totp, passkeys: row.passkeys, recoveryLeft: row.recovery_left };
}

export async function findTotp(db: Queryable, uid: string): Promise<TotpRow | undefined> {
  const r = await db.query<TotpRow>('SELECT * FROM staff_totp WHERE uid = $1', [uid]);
  return r.rows[0];
}

/** Starts a set-up: a new unconfirmed secret, unless a confirmed one exists (then false). */
export async function putPendingTotp(db: Queryable, uid: string, sealed: Buffer, at: Date): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO staff_totp (uid, secret_sealed, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (uid) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, created_at = EXCLUDED.created_at,
       last_used_step = 0, last_used_at = NULL
       WHERE staff_totp.confirmed_at IS NULL
     RETURNING uid`,
    [uid, sealed, at],
  );
  return r.rows.length > 0;
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
  const r = await db.query(
    `UPDATE staff_totp SET last_used_step = $2, last_used_at = $3,
       confirmed_at = CASE WHEN $4::boolean THEN $3 ELSE confirmed_at END
     WHERE uid = $1 AND last_used_step < $2
       AND (CASE WHEN $4::boolean THEN confirmed_at IS NULL ELSE confirmed_at IS NOT NULL END)
     RETURNING uid`,
    [uid, step, at, confirming],
  );
  return r.rows.length > 0;
}

export async function deleteTotp(db: Queryable, uid: string): Promise<boolean> {
  const r = await db.query(
    'DELETE FROM staff_totp WHERE uid = $1 AND confirmed_at IS NOT NULL RETURNING uid',
    [uid],
  );
  return r.rows.length > 0;
}

export async function passkeysOf(db: Queryable, uid: string): Promise<PasskeyRow[]> {
  const r = await db.query<PasskeyRow>(
    `SELECT id::int AS id, uid, credential_id, public_key, sign_count, transports, name, created_at, last_used_at
     FROM staff_passkeys WHERE uid = $1 ORDER BY created_at, staff_passkeys.id`,
    [uid],
  );
  return r.rows;
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
  const r = await db.query<{ id: number }>(
    `INSERT INTO staff_passkeys (uid, credential_id, public_key, sign_count, transports, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (credential_id) DO NOTHING RETURNING id::int AS id`,
    [p.uid, p.credentialId, Buffer.from(p.publicKey), p.signCount, p.transports, p.name, p.at],
  );
  return r.rows[0]?.id;
}

export async function usePasskey(db: Queryable, id: number, signCount: number, at: Date): Promise<void> {
  await db.query('UPDATE staff_passkeys SET sign_count = $2, last_used_at = $3 WHERE id = $1', [
    id,
    signCount,
    at,
  ]);
}

export async function renamePasskey(db: Queryable, uid: string, id: number, name: string): Promise<boolean> {
  const r = await db.query('UPDATE staff_passkeys SET name = $3 WHERE id = $1 AND uid = $2 RETURNING id', [
    id,
    uid,
    name,
  ]);
  return r.rows.length > 0;
}

export async function deletePasskey(
  db: Queryable,
  uid: string,
  id: number,
): Promise<{ name: string } | undefined> {
  const r = await db.query<{ name: string }>(
    'DELETE FROM staff_passkeys WHERE id = $1 AND uid = $2 RETURNING name',
    [id, uid],
  );
  return r.rows[0];
}

/** Replaces the account's recovery codes with these hashes. */
export async function replaceRecoveryCodes(
  db: Queryable,
  uid: string,
  hashes: Buffer[],
  at: Date,
): Promise<void> {
  await db.query('DELETE FROM staff_recovery_codes WHERE uid = $1', [uid]);
  await db.query(
    `INSERT INTO staff_recovery_codes (uid, code_hash, created_at) SELECT $1, h, $3 FROM unnest($2::bytea[]) AS h`,
    [uid, hashes, at],
  );
}

export async function unusedRecoveryHashes(db: Queryable, uid: string): Promise<Buffer[]> {
  const r = await db.query<{ code_hash: Uint8Array }>(
    'SELECT code_hash FROM staff_recovery_codes WHERE uid = $1 AND used_at IS NULL',
    [uid],
  );
  return r.rows.map((row) => Buffer.from(row.code_hash));
}

/** Spends one recovery code, in the statement that checks it is unused: whether it did. */
export async function spendRecoveryCode(
  db: Queryable,
  uid: string,
  hash: Buffer,
  at: Date,
): Promise<boolean> {
  const r = await db.query(
    'UPDATE staff_recovery_codes SET used_at = $3 WHERE uid = $1 AND code_hash = $2 AND used_at IS NULL RETURNING uid',
    [uid, hash, at],
  );
  return r.rows.length > 0;
}

/** Removes every factor, recovery code, ticket and challenge of an account (a SuperAdmin's reset). */
export async function deleteAllFactors(
  db: Queryable,
  uid: string,
): Promise<{ totp: boolean; passkeys: number }> {
  const t = await db.query(
    'DELETE FROM staff_totp WHERE uid = $1 AND confirmed_at IS NOT NULL RETURNING uid',
    [uid],
  );
  await db.query('DELETE FROM staff_totp WHERE uid = $1', [uid]);
  const p = await db.query('DELETE FROM staff_passkeys WHERE uid = $1 RETURNING id', [uid]);
  await db.query('DELETE FROM staff_recovery_codes WHERE uid = $1', [uid]);
  await db.query('DELETE FROM staff_sign_in_tickets WHERE uid = $1', [uid]);
  await db.query('DELETE FROM staff_webauthn_challenges WHERE uid = $1', [uid]);
  return { totp: t.rows.length > 0, passkeys: p.rows.length };
}

export type TicketKind = 'verify' | 'enrol';

export interface TicketRow {
  uid: string;
  kind: TicketKind;
  password_hash: string;
  expires_at: Date;
}

/** A live ticket (unused, unexpired) of a kind, without spending it. */
export async function liveTicket(
  db: Queryable,
  ticket: string,
  kind: TicketKind,
  now: Date,
): Promise<TicketRow | undefined> {
  const r = await db.query<TicketRow>(
    `SELECT uid, kind, password_hash, expires_at FROM staff_sign_in_tickets
     WHERE ticket_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3`,
    [hashSecret(ticket), kind, now],
  );
  return r.rows[0];
}

/** Spends a ticket in the statement that checks it is live: two uses cannot both succeed. */
export async function spendTicket(
  db: Queryable,
  ticket: string,
  kind: TicketKind,
  now: Date,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE staff_sign_in_tickets SET used_at = $3
     WHERE ticket_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3 RETURNING uid`,
    [hashSecret(ticket), kind, now],
  );
  return r.rows.length > 0;
}

export type Ceremony = 'register' | 'authenticate';

export async function putChallenge(
  db: Queryable,
  uid: string,
  ceremony: Ceremony,
  challenge: string,
  expiresAt: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO staff_webauthn_challenges (uid, ceremony, challenge, expires_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (uid, ceremony) DO UPDATE SET challenge = EXCLUDED.challenge, expires_at = EXCLUDED.expires_at`,
    [uid, ceremony, challenge, expiresAt],
  );
}

/** Takes the pending challenge of a ceremony (single-use); undefined when none or expired. */
export async function takeChallenge(
  db: Queryable,
  uid: string,
  ceremony: Ceremony,
  now: Date,
): Promise<string | undefined> {
  const r = await db.query<{ challenge: string; expires_at: Date }>(
    'DELETE FROM staff_webauthn_challenges WHERE uid = $1 AND ceremony = $2 RETURNING challenge, expires_at',
    [uid, ceremony],
  );
  const row = r.rows[0];
  return row && new Date(row.expires_at) > now ? row.challenge : undefined;
}
