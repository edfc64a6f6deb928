import { sql } from 'kysely';
import { authChanged, type Db, type Queryable } from '../../db/db.ts';
import { execute, firstRow, preparedStatement, qb, rows } from '../../db/sql.ts';
import { hashSecret } from '../../lib/secrets.ts';
import { permissionsOf, scopesOf, staffAllowlist } from './sessions.repo.ts';
import { rolesOf } from './staff.repo.ts';

/** The columns a token is listed with, and its owner's email and kind. */
const listed = qb
  .selectFrom('staff_api_tokens as t')
  .innerJoin('staff as st', 'st.uid', 't.uid')
  .select([
    't.id',
    't.name',
    't.uid',
    'st.email',
    'st.kind',
    't.permissions',
    't.allowed_addresses',
    't.created_at',
    't.expires_at',
    't.last_used_at',
    't.last_used_address',
    't.revoked_at',
  ]);
export type ListedToken = NonNullable<Awaited<ReturnType<typeof findListedToken>>>;

export const findListedToken = (db: Queryable, id: number) => firstRow(db, listed.where('t.id', '=', id));

/** Tokens newest first: one owner's, or everyone's; ended ones (revoked, expired) for 30 days after. */
export function listTokens(db: Queryable, owner: string | undefined, now: Date) {
  const since = new Date(now.getTime() - 30 * 86_400_000);
  return rows(
    db,
    listed
      .$if(owner !== undefined, (q) => q.where('t.uid', '=', owner!))
      .where('t.expires_at', '>', since)
      .where((eb) => eb.or([eb('t.revoked_at', 'is', null), eb('t.revoked_at', '>', since)]))
      .orderBy('t.id', 'desc')
      .limit(500),
  );
}

export async function insertToken(
  db: Queryable,
  t: {
    uid: string;
    name: string;
    token: string;
    permissions: string[];
    allowedAddresses: string[];
    createdBy: string;
    at: Date;
    expiresAt: Date;
  },
): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .insertInto('staff_api_tokens')
      .values({
        uid: t.uid,
        name: t.name,
        token_hash: hashSecret(t.token),
        permissions: t.permissions,
        allowed_addresses: t.allowedAddresses,
        created_by_uid: t.createdBy,
        created_at: t.at,
        expires_at: t.expiresAt,
      })
      .returning('id'),
  );
  return r!.id;
}

/** Revokes a live token (of `owner` only, when given): its listed row, or undefined when none. */
export async function revokeToken(
  db: Queryable,
  id: number,
  owner: string | undefined,
  at: Date,
  by: string,
): Promise<{ id: number; name: string; uid: string } | undefined> {
  const r = await firstRow(
    db,
    qb
      .updateTable('staff_api_tokens')
      .set({ revoked_at: at, revoked_by_uid: by })
      .where('id', '=', id)
      .$if(owner !== undefined, (q) => q.where('uid', '=', owner!))
      .where('revoked_at', 'is', null)
      .returning(['id', 'name', 'uid']),
  );
  authChanged(db);
  return r;
}

/** A token by its hash, with its owner, the owner's roles and permissions now, and the allowlist. */
const tokenByHash = preparedStatement((tokenHash: Buffer) =>
  qb
    .selectFrom('staff_api_tokens as t')
    .innerJoin('staff as st', 'st.uid', 't.uid')
    .select((eb) => [
      't.id',
      't.name',
      't.uid',
      't.permissions as token_permissions',
      't.allowed_addresses',
      't.expires_at',
      't.revoked_at',
      'st.email',
      'st.full_name',
      rolesOf(eb.ref('st.uid')).as('roles'),
      permissionsOf(eb.ref('st.uid')).as('permissions'),
      scopesOf(eb.ref('st.uid')).as('scopes'),
      staffAllowlist.as('allowlist'),
    ])
    .where('t.token_hash', '=', tokenHash)
    // a deactivated owner's tokens end with their deactivation (migration 0060)
    .where('st.deactivated_at', 'is', null),
);

const readToken = (db: Queryable, tokenHash: Buffer) => firstRow(db, tokenByHash(tokenHash));
export type TokenRow = NonNullable<Awaited<ReturnType<typeof readToken>>>;

/**
 * Tokens as last read, per database that can vouch for them, as sessions are kept
 * (sessions.repo.ts): an entry counts only while nothing that ends a session or a token, or
 * changes staff, roles or the allowlist, has been written since it was read.
 */
const tokenCaches = new WeakMap<object, Map<string, { row: unknown; generation: number }>>();
const TOKEN_CACHE_MAX = 10_000;

/**
 * The row of a bearer secret's hash, as last read while the auth generation stood (staff tokens
 * and the SCIM provider's tokens alike; `kind` keeps their entries apart), or read now.
 */
async function keptTokenRow<T>(
  db: Queryable & Pick<Db, 'authGeneration'>,
  kind: string,
  tokenHash: Buffer,
  read: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const generationOf = db.authGeneration;
  let cache = generationOf ? tokenCaches.get(generationOf) : undefined;
  if (generationOf && !cache) {
    cache = new Map();
    tokenCaches.set(generationOf, cache);
  }
  const key = `${kind}:${tokenHash.toString('hex')}`;
  // the number before the read: a write during the read makes what it returns stale
  const generation = generationOf?.();
  const hit = cache?.get(key);
  if (hit && hit.generation === generation) return hit.row as T;
  const row = await read();
  if (row && cache && generation !== undefined) {
    if (cache.size >= TOKEN_CACHE_MAX) cache.clear();
    cache.set(key, { row, generation });
  }
  return row;
}

/**
 * The token named by a bearer secret with its owner as they stand now; undefined when unknown,
 * revoked or expired (its owner gone: the row went with them).
 */
export async function findLiveToken(
  db: Queryable & Pick<Db, 'authGeneration'>,
  token: string,
  now: Date,
): Promise<TokenRow | undefined> {
  const tokenHash = hashSecret(token);
  const t = await keptTokenRow(db, 'staff', tokenHash, () => readToken(db, tokenHash));
  if (!t) return undefined;
  if (t.revoked_at || new Date(t.expires_at).getTime() <= now.getTime()) return undefined;
  return t;
}

/**
 * The owner of a bearer secret that names a real token no longer live, and why it ended: for
 * the trail's refusal row; undefined for a secret nobody was given.
 */
export function endedTokenOwner(db: Queryable, token: string) {
  return firstRow(
    db,
    qb
      .selectFrom('staff_api_tokens as t')
      .innerJoin('staff as st', 'st.uid', 't.uid')
      .select(['t.uid', 'st.email', 't.revoked_at'])
      .where('t.token_hash', '=', hashSecret(token)),
  );
}

type TokenUse = { id: number; at: Date; address: string };

/** Last uses of a token table's tokens, in one statement; an older use never overwrites a newer one. */
async function recordUses(
  db: Queryable,
  table: 'staff_api_tokens' | 'scim_tokens',
  uses: TokenUse[],
): Promise<void> {
  const batch = sql<TokenUse>`unnest(${uses.map((u) => u.id)}::bigint[], ${uses.map((u) => u.at)}::timestamptz[], ${uses.map((u) => u.address)}::text[])`;
  await execute(
    db,
    qb
      .updateTable(`${table} as t` as 'staff_api_tokens as t')
      .from(batch.as<'b'>(sql`b (id, at, address)`))
      .set((eb) => ({ last_used_at: eb.ref('b.at'), last_used_address: eb.ref('b.address') }))
      .whereRef('t.id', '=', 'b.id')
      .where((eb) => eb.or([eb('t.last_used_at', 'is', null), eb('t.last_used_at', '<', eb.ref('b.at'))])),
  );
}

/** Last uses of staff API tokens. */
export const recordTokenUses = (db: Queryable, uses: TokenUse[]) => recordUses(db, 'staff_api_tokens', uses);

/** The staff address allowlist. */
export async function readAllowlist(db: Queryable): Promise<string[]> {
  const r = await firstRow(db, qb.selectNoFrom(staffAllowlist.as('entries')));
  return r?.entries ?? [];
}

export async function saveAllowlist(db: Queryable, entries: string[], at: Date, by: string): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('staff_address_allowlist')
      .set({ entries, updated_at: at, updated_by: by })
      .where('id', '=', 1),
  );
  authChanged(db);
}

/** The allowlist as last read, per database that can vouch for it (as tokens are kept). */
const allowlistCaches = new WeakMap<object, { entries: string[]; generation: number }>();

/**
 * The staff address allowlist for a sign-in, which has no session row to carry it: read again
 * only after something that ends sessions or changes the list was written (authGeneration).
 */
export async function currentAllowlist(db: Queryable & Pick<Db, 'authGeneration'>): Promise<string[]> {
  const generationOf = db.authGeneration;
  const generation = generationOf?.();
  const kept = generationOf ? allowlistCaches.get(generationOf) : undefined;
  if (kept && kept.generation === generation) return kept.entries;
  const entries = await readAllowlist(db);
  if (generationOf && generation !== undefined) allowlistCaches.set(generationOf, { entries, generation });
  return entries;
}

/** Ends every live API token of a staff member (a SCIM deactivation): how many it ended. */
export async function revokeTokensOf(db: Queryable, uid: string, at: Date): Promise<number> {
  const r = await rows(
    db,
    qb
      .updateTable('staff_api_tokens')
      .set({ revoked_at: at })
      .where('uid', '=', uid)
      .where('revoked_at', 'is', null)
      .returning('id'),
  );
  authChanged(db);
  return r.length;
}

/*
 * The SCIM provider's bearer tokens (migration 0060): kept as staff tokens are (the hash only, the
 * cache above, last uses batched by TokenUses), but a credential of their own, good only on /scim/v2.
 */

const scimTokenColumns = [
  'id',
  'name',
  'created_at',
  'last_used_at',
  'last_used_address',
  'revoked_at',
] as const;

export async function insertScimToken(
  db: Queryable,
  t: { name: string; token: string; by: string | null; at: Date },
) {
  return (await firstRow(
    db,
    qb
      .insertInto('scim_tokens')
      .values({ name: t.name, token_hash: hashSecret(t.token), created_by_uid: t.by, created_at: t.at })
      .returning(scimTokenColumns),
  ))!;
}

export function revokeScimToken(db: Queryable, id: number, at: Date, by: string | null) {
  return firstRow(
    db,
    qb
      .updateTable('scim_tokens')
      .set({ revoked_at: at, revoked_by_uid: by })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning(scimTokenColumns),
  ).finally(() => authChanged(db));
}

/** The SCIM tokens, live ones and those revoked in the last 30 days, newest first. */
export function listScimTokens(db: Queryable, now: Date) {
  const since = new Date(now.getTime() - 30 * 86_400_000);
  return rows(
    db,
    qb
      .selectFrom('scim_tokens')
      .select(scimTokenColumns)
      .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', since)]))
      .orderBy('id', 'desc')
      .limit(100),
  );
}

/** The live SCIM token of a bearer secret, or undefined (unknown or revoked). */
export async function findLiveScimToken(db: Queryable & Pick<Db, 'authGeneration'>, token: string) {
  const tokenHash = hashSecret(token);
  const t = await keptTokenRow(db, 'scim', tokenHash, () =>
    firstRow(
      db,
      qb.selectFrom('scim_tokens').select(['id', 'name', 'revoked_at']).where('token_hash', '=', tokenHash),
    ),
  );
  return t && !t.revoked_at ? { id: Number(t.id), name: t.name } : undefined;
}

/** Last uses of SCIM tokens. */
export const recordScimTokenUses = (db: Queryable, uses: TokenUse[]) => recordUses(db, 'scim_tokens', uses);
