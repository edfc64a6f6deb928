import type { Queryable } from '../../db/db.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';

export type TokenPurpose = 'reset' | 'invite';

/** Issues a single-use token; earlier unused tokens of the same purpose for that user stop working. */
export async function issueToken(
  db: Queryable,
  t: { uid: string; purpose: TokenPurpose; at: Date; ttlMs: number },
): Promise<string> {
  const token = randomSecret();
  await db.query('UPDATE staff_tokens SET used_at = $3 WHERE uid = $1 AND purpose = $2 AND used_at IS NULL', [
    t.uid,
    t.purpose,
    t.at,
  ]);
  await db.query(
    `INSERT INTO staff_tokens (token_hash, uid, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
    [hashSecret(token), t.uid, t.purpose, t.at, new Date(t.at.getTime() + t.ttlMs)],
  );
  return token;
}

/** How many tokens of a purpose were issued to a user at or after `since` (spent ones included). */
export async function tokensIssuedSince(
  db: Queryable,
  uid: string,
  purpose: TokenPurpose,
  since: Date,
): Promise<number> {
  const r = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM staff_tokens WHERE uid = $1 AND purpose = $2 AND created_at >= $3',
    [uid, purpose, since],
  );
  return r.rows[0]?.n ?? 0;
}

/**
 * Whether a token is live (unused, unexpired, of one of the purposes), without spending it: one
 * indexed read, so a bogus token is refused before any password is hashed for it.
 */
export async function isLiveToken(
  db: Queryable,
  token: string,
  purposes: TokenPurpose[],
  now: Date,
): Promise<boolean> {
  const r = await db.query(
    'SELECT 1 FROM staff_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND purpose = ANY($3)',
    [hashSecret(token), now, purposes],
  );
  return r.rows.length > 0;
}

/**
 * Spends a token: marks it used in the same statement that checks it is unused and unexpired,
 * so two concurrent uses cannot both succeed. Returns its user, or undefined.
 */
export async function consumeToken(
  db: Queryable,
  token: string,
  purposes: TokenPurpose[],
  now: Date,
): Promise<{ uid: string; purpose: TokenPurpose } | undefined> {
  const r = await db.query<{ uid: string; purpose: TokenPurpose }>(
    `UPDATE staff_tokens SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND purpose = ANY($3)
     RETURNING uid, purpose`,
    [hashSecret(token), now, purposes],
  );
  return r.rows[0];
}
