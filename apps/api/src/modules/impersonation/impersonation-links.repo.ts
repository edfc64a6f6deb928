import type { Queryable } from '../../db/db.ts';

/** The owner's consent links and site-access links: tokens stored only as their hashes. */

export async function insertConsentToken(
  db: Queryable,
  t: { tokenHash: Buffer; requestId: number; at: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO impersonation_consent_tokens (token_hash, request_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [t.tokenHash, t.requestId, t.at, t.expiresAt],
  );
}

/** A consent link's token; `lock` takes its row lock, so that it is used once. */
export async function findConsentToken(
  db: Queryable,
  tokenHash: Buffer,
  lock = false,
): Promise<{ request_id: number; expires_at: Date; used_at: Date | null } | undefined> {
  const r = await db.query<{ request_id: number; expires_at: Date; used_at: Date | null }>(
    `SELECT request_id, expires_at, used_at FROM impersonation_consent_tokens WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
    [tokenHash],
  );
  return r.rows[0];
}

export async function markConsentTokenUsed(db: Queryable, tokenHash: Buffer, at: Date): Promise<void> {
  await db.query('UPDATE impersonation_consent_tokens SET used_at = $2 WHERE token_hash = $1', [
    tokenHash,
    at,
  ]);
}

export async function insertSiteAccessToken(
  db: Queryable,
  t: { tokenHash: Buffer; appId: number; at: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO site_access_tokens (token_hash, app_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [t.tokenHash, t.appId, t.at, t.expiresAt],
  );
}

/** The site of an unexpired site-access link. */
export async function findSiteOfAccessToken(
  db: Queryable,
  tokenHash: Buffer,
  now: Date,
): Promise<{ app_id: number; app_name: string } | undefined> {
  const r = await db.query<{ app_id: number; app_name: string }>(
    `SELECT a.app_id, s.app_name FROM site_access_tokens a JOIN sites s ON s.app_id = a.app_id
     WHERE a.token_hash = $1 AND a.expires_at > $2`,
    [tokenHash, now],
  );
  return r.rows[0];
}

/** The email of the site's owner. */
export async function ownerEmailOfSite(db: Queryable, appId: number): Promise<string | undefined> {
  const r = await db.query<{ email: string }>(
    'SELECT c.email FROM sites s JOIN customers c ON c.uid = s.owner_uid WHERE s.app_id = $1',
    [appId],
  );
  return r.rows[0]?.email;
}
