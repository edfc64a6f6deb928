import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb } from '../../db/sql.ts';

/** The owner's consent links and site-access links: tokens stored only as their hashes. */

export async function insertConsentToken(
  db: Queryable,
  t: { tokenHash: Buffer; requestId: number; at: Date; expiresAt: Date },
): Promise<void> {
  await execute(
    db,
    qb.insertInto('impersonation_consent_tokens').values({
      token_hash: t.tokenHash,
      request_id: t.requestId,
      created_at: t.at,
      expires_at: t.expiresAt,
    }),
  );
}

/** A consent link's token; `lock` takes its row lock, so that it is used once. */
export function findConsentToken(db: Queryable, tokenHash: Buffer, lock = false) {
  return firstRow(
    db,
    qb
      .selectFrom('impersonation_consent_tokens')
      .select(['request_id', 'expires_at', 'used_at'])
      .where('token_hash', '=', tokenHash)
      .$if(lock, (s) => s.forUpdate()),
  );
}

export async function markConsentTokenUsed(db: Queryable, tokenHash: Buffer, at: Date): Promise<void> {
  await execute(
    db,
    qb.updateTable('impersonation_consent_tokens').set({ used_at: at }).where('token_hash', '=', tokenHash),
  );
}

export async function insertSiteAccessToken(
  db: Queryable,
  t: { tokenHash: Buffer; appId: number; at: Date; expiresAt: Date },
): Promise<void> {
  await execute(
    db,
    qb.insertInto('site_access_tokens').values({
      token_hash: t.tokenHash,
      app_id: t.appId,
      created_at: t.at,
      expires_at: t.expiresAt,
    }),
  );
}

/** The site of an unexpired site-access link. */
export function findSiteOfAccessToken(db: Queryable, tokenHash: Buffer, now: Date) {
  return firstRow(
    db,
    qb
      .selectFrom('site_access_tokens as a')
      .innerJoin('sites as s', 's.app_id', 'a.app_id')
      .select(['a.app_id', 's.app_name'])
      .where('a.token_hash', '=', tokenHash)
      .where('a.expires_at', '>', now),
  );
}

/** The email of the site's owner. */
export async function ownerEmailOfSite(db: Queryable, appId: number): Promise<string | undefined> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('sites as s')
      .innerJoin('customers as c', 'c.uid', 's.owner_uid')
      .select('c.email')
      .where('s.app_id', '=', appId),
  );
  return r?.email;
}
