import type { PermissionScopes } from '@sac/contract/role-scopes';
import { type Expression, sql } from 'kysely';
import { authChanged, type Db, type Queryable } from '../../db/db.ts';
import { execute, firstRow, preparedStatement, qb, rows } from '../../db/sql.ts';
import { hashSecret, randomSecret, sameHash } from '../../lib/secrets.ts';
import { rolesOf } from './staff.repo.ts';

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** A new session's row: two 256-bit secrets, kept only as hashes, and the secrets to hand out. */
export function newSessionRow(s: {
  uid: string;
  at: Date;
  clientAddress: string | null;
  userAgent: string | null;
}) {
  const xtoken = randomSecret();
  const xsign = randomSecret();
  return {
    xtoken,
    xsign,
    row: {
      uid: s.uid,
      token_hash: hashSecret(xtoken),
      sign_hash: hashSecret(xsign),
      created_at: s.at,
      last_used_at: s.at,
      client_address: s.clientAddress,
      user_agent: s.userAgent?.slice(0, 500) ?? null,
    },
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
  const { xtoken, xsign, row } = newSessionRow(s);
  const r = await firstRow(
    db,
    qb
      .insertInto('staff_sessions')
      .values({ ...row, impersonation_request_id: s.impersonationRequestId ?? null })
      .returning('id'),
  );
  return { xtoken, xsign, id: r!.id };
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
  const { xtoken, xsign, row } = newSessionRow(s);
  const made = await firstRow(
    db,
    qb
      .with('staff_now', (w) =>
        w
          .selectFrom('staff')
          .select('uid')
          .where('uid', '=', s.uid)
          .where('password_hash', '=', verifiedPasswordHash)
          .forShare(),
      )
      .insertInto('staff_sessions')
      .columns([
        'uid',
        'token_hash',
        'sign_hash',
        'created_at',
        'last_used_at',
        'client_address',
        'user_agent',
      ])
      .expression((eb) =>
        eb
          .selectFrom('staff_now')
          .select((e) => [
            'uid',
            e.val(row.token_hash).as('token_hash'),
            e.val(row.sign_hash).as('sign_hash'),
            e.val(row.created_at).as('created_at'),
            e.val(row.last_used_at).as('last_used_at'),
            e.val(row.client_address).as('client_address'),
            e.val(row.user_agent).as('user_agent'),
          ]),
      )
      .returning('id'),
  );
  return made ? { xtoken, xsign, id: made.id } : undefined;
}

/** The permissions a staff member's roles grant, each once, sorted; an empty array when none. */
export const permissionsOf = (uid: Expression<string>) =>
  sql<string[]>`COALESCE(${qb
    .selectFrom('staff_roles as sr')
    .innerJoin('roles as ro', 'ro.name', 'sr.role')
    .crossJoin(sql<{ p: string }>`unnest(${sql.ref('ro.permissions')})`.as('p'))
    .select((eb) => eb.fn.agg<string[]>('array_agg', ['p.p']).distinct().orderBy('p.p').as('permissions'))
    .where('sr.uid', '=', uid)}, '{}')`;

/**
 * What a staff member's scoped roles limit, per permission (role-scopes.ts): for each permission
 * that only scoped roles grant, the scopes of those roles; NULL when no permission is limited,
 * which is every principal without a scoped role.
 */
export const scopesOf = (uid: Expression<string>) =>
  sql<PermissionScopes | null>`(SELECT jsonb_object_agg(x.p, x.scopes) FROM (
    SELECT p.p, jsonb_agg(jsonb_build_object('dataCenters', ro.scope_data_centers, 'plans', ro.scope_plans)) AS scopes
    FROM staff_roles sr JOIN roles ro ON ro.name = sr.role CROSS JOIN unnest(ro.permissions) AS p(p)
    WHERE sr.uid = ${uid}
    GROUP BY p.p
    HAVING bool_and(ro.scope_data_centers IS NOT NULL OR ro.scope_plans IS NOT NULL)) x)`;

/**
 * The staff address allowlist, read with each session or token (no statement of its own): a change
 * of it ends what every instance keeps (migration 0057), so the kept row's copy is current.
 */
export const staffAllowlist = sql<string[]>`(SELECT entries FROM staff_address_allowlist WHERE id = 1)`;

/** A session by its token's hash, with its staff member, their roles and the permissions those roles grant. */
const sessionByTokenHash = preparedStatement((tokenHash: Buffer) =>
  qb
    .selectFrom('staff_sessions as s')
    .innerJoin('staff as st', 'st.uid', 's.uid')
    .select((eb) => [
      's.id',
      's.uid',
      's.sign_hash',
      's.created_at',
      's.last_used_at',
      's.revoked_at',
      /** The holder's last proof beyond the session itself: its sign-in, or a later step-up. */
      eb.fn.coalesce('s.verified_at', 's.created_at').as('verified_at'),
      /** Set on impersonation sessions: the approved request they act under. */
      's.impersonation_request_id',
      'st.email',
      'st.full_name',
      rolesOf(eb.ref('st.uid')).as('roles'),
      permissionsOf(eb.ref('st.uid')).as('permissions'),
      scopesOf(eb.ref('st.uid')).as('scopes'),
      staffAllowlist.as('allowlist'),
    ])
    .where('s.token_hash', '=', tokenHash)
    // a deactivated member's sessions are refused even before their revocation is read (0060)
    .where('st.deactivated_at', 'is', null),
);

const readSession = (db: Queryable, tokenHash: Buffer) => firstRow(db, sessionByTokenHash(tokenHash));

export type LiveSession = NonNullable<Awaited<ReturnType<typeof readSession>>>;

/**
 * How long a renewal stands before the next call writes it again: at most 30 s, and at most an
 * eighth of the idle limit. Renewing on every call made each authenticated read a write (a WAL
 * flush on PostgreSQL); this way a busy session writes twice a minute, and a session can end at
 * most that much before its nominal idle limit, never after.
 */
const renewalInterval = (idleMs: number): number => Math.min(30_000, Math.floor(idleMs / 8));

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

/** A session's idle clock restarted, if it is still unrevoked. */
const renewal = preparedStatement((id: number, now: Date) =>
  qb
    .updateTable('staff_sessions')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id'),
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
    s = await readSession(db, tokenHash);
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
  const renewed = await firstRow(db, renewal(s.id, now));
  if (!renewed) {
    cache?.delete(key);
    return undefined;
  }
  s.last_used_at = now;
  return s;
}

/**
 * Records a step-up on a live session: its holder proved who they are at `at`. Whether the
 * session was still live (a revocation racing the step-up wins).
 */
export async function markSessionVerified(db: Queryable, id: number, at: Date): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .updateTable('staff_sessions')
      .set({ verified_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning('id'),
  );
  authChanged(db);
  return r.length > 0;
}

export async function revokeSession(db: Queryable, id: number, at: Date, reason: string): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('staff_sessions')
      .set({ revoked_at: at, revoked_reason: reason })
      .where('id', '=', id)
      .where('revoked_at', 'is', null),
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
  const r = await rows(
    db,
    qb
      .updateTable('staff_sessions')
      .set({ revoked_at: at, revoked_reason: reason })
      .where('uid', '=', uid)
      .where('revoked_at', 'is', null)
      .$if(keepSessionId !== undefined, (q) => q.where('id', '<>', keepSessionId ?? 0))
      .returning('id'),
  );
  authChanged(db);
  return r.length;
}

export type LiveSessionRow = Awaited<ReturnType<typeof liveSessionsOf>>[number];

/** A staff member's live sessions (not ended, not idle too long, not past their lifetime), newest use first. */
export async function liveSessionsOf(db: Queryable, uid: string, now: Date, policy: SessionPolicy) {
  return rows(
    db,
    qb
      .selectFrom('staff_sessions as ss')
      .leftJoin('impersonation_requests as r', 'r.id', 'ss.impersonation_request_id')
      .leftJoin('sites as s', 's.app_id', 'r.app_id')
      .select([
        'ss.id',
        'ss.created_at',
        'ss.last_used_at',
        'ss.client_address',
        'ss.user_agent',
        's.app_name as impersonated_site',
      ])
      .where('ss.uid', '=', uid)
      .where('ss.revoked_at', 'is', null)
      .where('ss.last_used_at', '>', new Date(now.getTime() - policy.idleMs))
      .where('ss.created_at', '>', new Date(now.getTime() - policy.absoluteMs))
      .orderBy('ss.last_used_at', 'desc')
      .orderBy('ss.id', 'desc'),
  );
}

/** Ends one session of `uid` (none when the id is another account's or already ended): whether it did. */
export async function revokeSessionOf(
  db: Queryable,
  uid: string,
  id: number,
  at: Date,
  reason: string,
): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .updateTable('staff_sessions')
      .set({ revoked_at: at, revoked_reason: reason })
      .where('id', '=', id)
      .where('uid', '=', uid)
      .where('revoked_at', 'is', null)
      .returning('id'),
  );
  authChanged(db);
  return r.length > 0;
}
