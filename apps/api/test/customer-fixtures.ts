import { randomUUID } from 'node:crypto';
import type { Queryable } from '../src/db/db.ts';
import { hashSecret } from '../src/lib/secrets.ts';

/** Inserts a customer row as tests need it; answers its uid. */
export async function insertCustomer(
  db: Queryable,
  c: { first: string; last: string; email: string; at?: Date; organization?: string; phone?: string },
): Promise<string> {
  const uid = randomUUID();
  const at = c.at ?? new Date('2026-01-10T09:00:00Z');
  await db.query(
    `INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
       time_zone, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $4, $4, 'Europe/London', $7, $7)`,
    [uid, c.first, c.last, c.email, c.organization ?? '', c.phone ?? '', at],
  );
  return uid;
}

/** Inserts a site owned by `owner`; answers its appId, API key and (plain) secret. */
export async function insertSite(
  db: Queryable,
  s: { owner: string; name: string; encryptedConn?: Buffer; features?: string[]; at?: Date },
): Promise<{ appId: number; apiKey: string; secret: string }> {
  const apiKey = randomUUID();
  const secret = `secret-${randomUUID()}`;
  const at = s.at ?? new Date('2026-01-10T09:00:00Z');
  const r = await db.query<{ app_id: number }>(
    `INSERT INTO sites (app_name, api_key, secret_hash, owner_uid, plan, plan_status, trial_ends_at, data_center,
       global_server, db_name, custom_db_conn, features, production_url, staging_url, created_at, modified_at)
     VALUES ($1, $2, $3, $4, 'Developer', 'Trial', $5, 'eu-central', 'euc-shared-1', $6, $7, $8,
       $9, $10, $11, $11) RETURNING app_id`,
    [
      s.name,
      apiKey,
      hashSecret(secret),
      s.owner,
      new Date('2026-02-01T00:00:00Z'),
      `${s.name}-db`,
      s.encryptedConn ?? null,
      s.features ?? ['social-login', 'mfa'],
      `https://${s.name}.example.com`,
      `https://staging.${s.name}.example.com`,
      at,
    ],
  );
  return { appId: Number(r.rows[0]!.app_id), apiKey, secret };
}

export async function shareSite(
  db: Queryable,
  appId: number,
  customerUid: string,
  role: string,
): Promise<void> {
  await db.query(
    'INSERT INTO site_members (app_id, customer_uid, role, added_at) VALUES ($1, $2, $3, now())',
    [appId, customerUid, role],
  );
}
