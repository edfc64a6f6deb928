import type { Queryable } from '../../db/db.ts';
import { hashSecret, randomSecret, sameHash } from '../../lib/secrets.ts';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

export interface SessionRow {
  id: number;
  uid: string;
  sign_hash: Uint8Array;
  created_at: Date;
  last_used_at: Date;
  revoked_at: Date | null;
  /** Set on impersonation sessions: the approved request they act under. */
  impersonation_request_id: number | null;
}

/** Issues a session: xtoken and xsign are 256-bit secrets, stored only as hashes. */
export async function createSession(
  db: Queryable,
  s: {
    uid: string;
    at: Date;
    clientAddress: string | null;
    userAgent: string | null;
    impersonationRequestId?: number;
  },
): Promise<{ xtoken: string; xsign: string; id: number }> {
  const xtoken = randomSecret();
  const xsign = randomSecret();
  const r = await db.query<{ id: number }>(
    `INSERT INTO staff_sessions (uid, token_hash, sign_hash, created_at, last_used_at, client_address, user_agent,
       impersonation_request_id)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7) RETURNING id`,
    [
      s.uid,
      hashSecret(xtoken),
      hashSecret(xsign),
      s.at,
      s.clientAddress,
      s.userAgent?.slice(0, 500) ?? null,
      s.impersonationRequestId ?? null,
    ],
  );
  return { xtoken, xsign, id: r.rows[0]!.id };
}

/**
 * The live session for a token and sign pair, renewed (idle clock restarted); undefined when the
 * pair is unknown, mismatched, revoked, idle too long or past its absolute lifetime.
 */
export async function useSession(
  db: Queryable,
  xtoken: string,
  xsign: string,
  now: Date,
  policy: SessionPolicy,
): Promise<SessionRow | undefined> {
  const r = await db.query<SessionRow>(
    `SELECT id, uid, sign_hash, created_at, last_used_at, revoked_at, impersonation_request_id
     FROM staff_sessions WHERE token_hash = $1`,
    [hashSecret(xtoken)],
  );
  const s = r.rows[0];
  if (!s) return undefined;
  if (!sameHash(Buffer.from(s.sign_hash), hashSecret(xsign))) return undefined;
  if (s.revoked_at) return undefined;
  const t = now.getTime();
  if (t - new Date(s.last_used_at).getTime() >= policy.idleMs) return undefined;
  if (t - new Date(s.created_at).getTime() >= policy.absoluteMs) return undefined;
  // Renew only if still unrevoked, so a revocation racing this call wins.
  const renewed = await db.query(
    'UPDATE staff_sessions SET last_used_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id',
    [s.id, now],
  );
  return renewed.rows.length > 0 ? s : undefined;
}

export async function revokeSession(db: Queryable, id: number, at: Date, reason: string): Promise<void> {
  await db.query(
    'UPDATE staff_sessions SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL',
    [id, at, reason],
  );
}

/** Revokes every live session of a user, but the one kept (the caller's own, at a password change). */
export async function revokeUserSessions(
  db: Queryable,
  uid: string,
  at: Date,
  reason: string,
  keepSessionId?: number,
): Promise<number> {
  const r = await db.query(
    `UPDATE staff_sessions SET revoked_at = $2, revoked_reason = $3
     WHERE uid = $1 AND revoked_at IS NULL AND ($4::bigint IS NULL OR id <> $4) RETURNING id`,
    [uid, at, reason, keepSessionId ?? null],
  );
  return r.rows.length;
}
