import { authChanged, type Db, prepared, type Queryable } from '../../db/db.ts';
import { hashSecret, randomSecret, sameHash } from '../../lib/secrets.ts';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

interface SessionRow {
  id: number;
  uid: string;
  sign_hash: Uint8Array;
  created_at: Date;
  last_used_at: Date;
  revoked_at: Date | null;
  /** Set on impersonation sessions: the approved request they act under. */
  impersonation_request_id: number | null;
}

/** A new session's row, as $1–$6 of an insert: two 256-bit secrets, kept only as hashes, and the secrets to hand out. */
export function newSessionRow(s: {
  uid: string;
  at: Date;
  clientAddress: string | null;
  userAgent: string | null;
}): { xtoken: string; xsign: string; params: unknown[] } {
  const xtoken = randomSecret();
  const xsign = randomSecret();
  return {
    xtoken,
    xsign,
    params: [
      s.uid,
      hashSecret(xtoken),
      hashSecret(xsign),
      s.at,
      s.clientAddress,
      s.userAgent?.slice(0, 500) ?? null,
    ],
  };
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
  const { xtoken, xsign, params } = newSessionRow(s);
  const r = await db.query<{ id: number }>(
    `INSERT INTO staff_sessions (uid, token_hash, sign_hash, created_at, last_used_at, client_address, user_agent,
       impersonation_request_id)
     VALUES ($1, $2, $3, $4, $4, $5, $6, $7) RETURNING id`,
    [...params, s.impersonationRequestId ?? null],
  );
  return { xtoken, xsign, id: r.rows[0]!.id };
}

/**
 * Issues a sign-in session only while the password it was verified against is still the user's:
 * the statement takes a share lock on the staff row, so a password reset or change (which updates
 * that row and then ends every session) either finishes first and this finds the hash changed, or
 * waits for this session and then ends it too. Without it a sign-in that checked the old password
 * just before a reset left a live session behind it. Answers undefined when the password changed
 * or the user is gone.
 */
export async function createSignInSession(
  db: Queryable,
  s: { uid: string; at: Date; clientAddress: string | null; userAgent: string | null },
  verifiedPasswordHash: string,
): Promise<{ xtoken: string; xsign: string; id: number } | undefined> {
  const { xtoken, xsign, params } = newSessionRow(s);
  const r = await db.query<{ id: number }>(
    `WITH staff_now AS (SELECT uid FROM staff WHERE uid = $1 AND password_hash = $7 FOR SHARE)
     INSERT INTO staff_sessions (uid, token_hash, sign_hash, created_at, last_used_at, client_address, user_agent)
     SELECT uid, $2, $3, $4, $4, $5, $6 FROM staff_now RETURNING id`,
    [...params, verifiedPasswordHash],
  );
  const row = r.rows[0];
  return row ? { xtoken, xsign, id: row.id } : undefined;
}

/** A live session with its staff member, their roles and the permissions those roles grant. */
export interface LiveSession extends SessionRow {
  email: string;
  full_name: string;
  roles: string[];
  permissions: string[];
}

/**
 * How long a renewal stands before the next call writes it again: at most 30 s, and at most an
 * eighth of the idle limit. Renewing on every call made each authenticated read a write (a WAL
 * flush on PostgreSQL); this way a busy session writes twice a minute, and a session can end at
 * most that much before its nominal idle limit, never after.
 */
const renewalInterval = (idleMs: number): number => Math.min(30_000, Math.floor(idleMs / 8));

const RENEW_SESSION = prepared(
  `UPDATE staff_sessions SET last_used_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
);

/**
 * Live sessions as last read, per database that can vouch for them (PGlite: see authGeneration);
 * an entry counts only while no write to sessions, staff or roles has happened since it was read.
 */
type KeptSessions = Map<string, { row: LiveSession; generation: number }>;
const sessionCaches = new WeakMap<object, KeptSessions>();
const SESSION_CACHE_MAX = 10_000;

/** The sessions kept for one database, found by its authGeneration (instrumented copies share it). */
function keptSessionsOf(generationOf: object): KeptSessions {
  let kept = sessionCaches.get(generationOf);
  if (!kept) {
    kept = new Map();
    sessionCaches.set(generationOf, kept);
  }
  return kept;
}

const LIVE_SESSION = prepared(
  `SELECT s.id, s.uid, s.sign_hash, s.created_at, s.last_used_at, s.revoked_at, s.impersonation_request_id,
       st.email, st.full_name,
       COALESCE((SELECT array_agg(sr.role ORDER BY sr.role) FROM staff_roles sr WHERE sr.uid = st.uid), '{}') AS roles,
       COALESCE((SELECT array_agg(DISTINCT p ORDER BY p) FROM staff_roles sr
                   JOIN roles ro ON ro.name = sr.role, unnest(ro.permissions) AS p
                 WHERE sr.uid = st.uid), '{}') AS permissions
     FROM staff_sessions s JOIN staff st ON st.uid = s.uid WHERE s.token_hash = $1`,
);

/**
 * The live session for a token and sign pair, with its staff member in the same query, renewed
 * (idle clock restarted); undefined when the pair is unknown, mismatched, revoked, idle too long,
 * past its absolute lifetime, or its staff member is gone.
 */
export async function useSession(
  db: Queryable & Pick<Db, 'authGeneration'>,
  xtoken: string,
  xsign: string,
  now: Date,
  policy: SessionPolicy,
): Promise<LiveSession | undefined> {
  const tokenHash = hashSecret(xtoken);
  const generationOf = db.authGeneration;
  const cache = generationOf ? keptSessionsOf(generationOf) : undefined;
  const key = tokenHash.toString('hex');
  // the number before the read: a write during the read makes what it returns stale
  const generation = generationOf?.();
  const hit = cache?.get(key);
  let s = hit && hit.generation === generation ? hit.row : undefined;
  if (!s) {
    s = (await db.query<LiveSession>(LIVE_SESSION, [tokenHash])).rows[0];
    if (!s) return undefined;
    if (cache && generation !== undefined) {
      if (cache.size >= SESSION_CACHE_MAX) cache.clear();
      cache.set(key, { row: s, generation });
    }
  }
  if (!sameHash(Buffer.from(s.sign_hash), hashSecret(xsign))) return undefined;
  if (s.revoked_at) return undefined;
  const t = now.getTime();
  const idle = t - new Date(s.last_used_at).getTime();
  if (idle >= policy.idleMs) return undefined;
  if (t - new Date(s.created_at).getTime() >= policy.absoluteMs) return undefined;
  if (idle < renewalInterval(policy.idleMs)) return s;
  // Renew only if still unrevoked, so a revocation racing this call wins.
  const renewed = await db.query(RENEW_SESSION, [s.id, now]);
  if (renewed.rows.length === 0) {
    cache?.delete(key);
    return undefined;
  }
  s.last_used_at = now;
  return s;
}

export async function revokeSession(db: Queryable, id: number, at: Date, reason: string): Promise<void> {
  await db.query(
    'UPDATE staff_sessions SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL',
    [id, at, reason],
  );
  authChanged(db);
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
  authChanged(db);
  return r.rows.length;
}

export interface LiveSessionRow {
  id: number;
  created_at: Date;
  last_used_at: Date;
  client_address: string | null;
  user_agent: string | null;
  impersonated_site: string | null;
}

/** A staff member's live sessions (not ended, not idle too long, not past their lifetime), newest use first. */
export async function liveSessionsOf(
  db: Queryable,
  uid: string,
  now: Date,
  policy: SessionPolicy,
): Promise<LiveSessionRow[]> {
  const r = await db.query<LiveSessionRow>(
    `SELECT ss.id::int AS id, ss.created_at, ss.last_used_at, ss.client_address, ss.user_agent,
       s.app_name AS impersonated_site
     FROM staff_sessions ss
     LEFT JOIN impersonation_requests r ON r.id = ss.impersonation_request_id
     LEFT JOIN sites s ON s.app_id = r.app_id
     WHERE ss.uid = $1 AND ss.revoked_at IS NULL AND ss.last_used_at > $2 AND ss.created_at > $3
     ORDER BY ss.last_used_at DESC, ss.id DESC`,
    [uid, new Date(now.getTime() - policy.idleMs), new Date(now.getTime() - policy.absoluteMs)],
  );
  return r.rows;
}

/** Ends one session of `uid` (none when the id is another account's or already ended): whether it did. */
export async function revokeSessionOf(
  db: Queryable,
  uid: string,
  id: number,
  at: Date,
  reason: string,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE staff_sessions SET revoked_at = $3, revoked_reason = $4
     WHERE id = $1 AND uid = $2 AND revoked_at IS NULL RETURNING id`,
    [id, uid, at, reason],
  );
  authChanged(db);
  return r.rows.length > 0;
}
