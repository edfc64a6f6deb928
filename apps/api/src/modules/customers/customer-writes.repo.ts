import type { Queryable } from '../../db/db.ts';
import type { CustomerRow } from './customers.repo.ts';

/** Writes to customers and their sites, and the catalogue lookups they check against. */

/** Whether a customer other than `exceptUid` is known by this address (email or sign-in email). */
export async function emailTaken(db: Queryable, email: string, exceptUid?: string): Promise<boolean> {
  const r = await db.query(
    'SELECT 1 FROM customer_addresses WHERE address = lower($1) AND ($2::uuid IS NULL OR uid <> $2::uuid)',
    [email, exceptUid ?? null],
  );
  return r.rows.length > 0;
}

/** What a write reads of the customer it locks: the profile (a trail row's before-image) and the address. */
export type LockedCustomer = Pick<
  CustomerRow,
  | 'uid'
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'auth_email'
  | 'organization'
  | 'phone'
  | 'contact_email'
  | 'time_zone'
>;

/** The customer, their row locked until the transaction `db` ends; undefined when there is none. */
export async function lockCustomer(db: Queryable, uid: string): Promise<LockedCustomer | undefined> {
  const r = await db.query<LockedCustomer>(
    `SELECT uid, first_name, last_name, email, auth_email, organization, phone, contact_email, time_zone
     FROM customers WHERE uid = $1 FOR UPDATE`,
    [uid],
  );
  return r.rows[0];
}

export async function insertCustomer(
  db: Queryable,
  c: {
    uid: string;
    firstName: string;
    lastName: string;
    email: string;
    organization: string;
    phone: string;
    timeZone: string;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
       time_zone, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $4, $4, $7, $8, $8)`,
    [c.uid, c.firstName, c.lastName, c.email, c.organization, c.phone, c.timeZone, c.at],
  );
}

/** A new site of `ownerUid`; its appId. */
export async function insertSite(
  db: Queryable,
  s: { name: string; apiKey: string; secretHash: Buffer; ownerUid: string; dbName: string; at: Date },
): Promise<number> {
  const r = await db.query<{ app_id: number }>(
    `INSERT INTO sites (app_name, api_key, secret_hash, owner_uid, db_name, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING app_id`,
    [s.name, s.apiKey, s.secretHash, s.ownerUid, s.dbName, s.at],
  );
  return Number(r.rows[0]!.app_id);
}

/**
 * Replaces an owned site's API secret (by its hash). With `previousUntil` the replaced hash stays
 * accepted until then; without it, it stops at once. False when the site is not `uid`'s.
 */
export async function replaceSiteSecret(
  db: Queryable,
  uid: string,
  appId: number,
  secretHash: Buffer,
  previousUntil: Date | null,
  at: Date,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE sites SET previous_secret_hash = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE secret_hash END,
       previous_secret_until = $4, secret_hash = $3, modified_at = $5
     WHERE app_id = $1 AND owner_uid = $2 RETURNING app_id`,
    [appId, uid, secretHash, previousUntil, at],
  );
  return r.rows.length > 0;
}

/**
 * Forgets the replaced secrets whose grace ended by `now`: the sites, their owners and when each
 * grace ended.
 */
export async function clearLapsedSecrets(
  db: Queryable,
  now: Date,
): Promise<{ app_id: number; owner_uid: string; ended: Date }[]> {
  const r = await db.query<{ app_id: number; owner_uid: string; ended: Date }>(
    `UPDATE sites s SET previous_secret_hash = NULL, previous_secret_until = NULL
     FROM (SELECT app_id, previous_secret_until AS ended FROM sites
           WHERE previous_secret_until <= $1 FOR UPDATE SKIP LOCKED) o
     WHERE s.app_id = o.app_id
     RETURNING s.app_id, s.owner_uid, o.ended`,
    [now],
  );
  return r.rows;
}

/** The web apps' addresses of an owned site; false when its version is not `expectedVersion`. */
export async function setSiteWebApps(
  db: Queryable,
  uid: string,
  appId: number,
  urls: { productionUrl: string; stagingUrl: string },
  at: Date,
  expectedVersion?: number,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE sites SET production_url = $3, staging_url = $4, modified_at = $5, version = version + 1
     WHERE app_id = $1 AND owner_uid = $2 AND ($6::bigint IS NULL OR version = $6) RETURNING app_id`,
    [appId, uid, urls.productionUrl, urls.stagingUrl, at, expectedVersion ?? null],
  );
  return r.rows.length > 0;
}

/** What a basic-settings write names: each web app's address, and the plan as one change. */
export interface BasicSettingsChange {
  productionUrl?: string;
  stagingUrl?: string;
  plan?: { plan: string; planStatus: 'Trial' | 'Subscribed'; trialEndsAt: Date | null };
}

/**
 * Sets only the columns the change names (no column is rewritten with what a form last read);
 * false when the site's version is not `expectedVersion` (nothing written).
 */
export async function setSiteBasicSettings(
  db: Queryable,
  uid: string,
  appId: number,
  change: BasicSettingsChange,
  at: Date,
  expectedVersion?: number,
): Promise<boolean> {
  const sets: string[] = [];
  const values: unknown[] = [appId, uid, at, expectedVersion ?? null];
  const set = (column: string, value: unknown) => {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  };
  if (change.productionUrl !== undefined) set('production_url', change.productionUrl);
  if (change.stagingUrl !== undefined) set('staging_url', change.stagingUrl);
  if (change.plan) {
    set('plan', change.plan.plan);
    set('plan_status', change.plan.planStatus);
    set('trial_ends_at', change.plan.trialEndsAt);
  }
  const r = await db.query(
    `UPDATE sites SET ${[...sets, 'modified_at = $3', 'version = version + 1'].join(', ')}
     WHERE app_id = $1 AND owner_uid = $2 AND ($4::bigint IS NULL OR version = $4) RETURNING app_id`,
    values,
  );
  return r.rows.length > 0;
}

/** The features of a feature set; undefined when there is no such set. */
export async function featuresOfSet(db: Queryable, name: string): Promise<string[] | undefined> {
  const r = await db.query<{ features: string[] }>('SELECT features FROM feature_sets WHERE name = $1', [
    name,
  ]);
  return r.rows[0]?.features;
}

export async function setSiteFeatures(
  db: Queryable,
  uid: string,
  appId: number,
  features: string[],
  at: Date,
): Promise<void> {
  await db.query('UPDATE sites SET features = $3, modified_at = $4 WHERE app_id = $1 AND owner_uid = $2', [
    appId,
    uid,
    features,
    at,
  ]);
}

/** The data center of a global server; undefined when there is no such server. */
export async function dataCenterOfGlobalServer(db: Queryable, code: string): Promise<string | undefined> {
  const r = await db.query<{ data_center: string }>(
    'SELECT data_center FROM global_servers WHERE code = $1',
    [code],
  );
  return r.rows[0]?.data_center;
}

export async function dataCenterExists(db: Queryable, code: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM data_centers WHERE code = $1', [code]);
  return r.rows.length > 0;
}

export async function setSiteDataCenter(
  db: Queryable,
  uid: string,
  appId: number,
  s: {
    dataCenter: string | null;
    globalServer: string | null;
    dbName: string;
    connection: Buffer | Uint8Array | null;
  },
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE sites SET data_center = $3, global_server = $4, db_name = $5, custom_db_conn = $6, modified_at = $7
     WHERE app_id = $1 AND owner_uid = $2`,
    [appId, uid, s.dataCenter, s.globalServer, s.dbName, s.connection, at],
  );
}

export async function saveSiteStatus(
  db: Queryable,
  uid: string,
  appId: number,
  status: 'active' | 'inactive',
  at: Date,
): Promise<void> {
  await db.query('UPDATE sites SET status = $3, modified_at = $4 WHERE app_id = $1 AND owner_uid = $2', [
    appId,
    uid,
    status,
    at,
  ]);
}

/** A customer's profile; the email stays verified only when it is unchanged (case aside). */
/** Writes the profile's fields; false when the stored version is not `expectedVersion` (nothing written). */
export async function updateCustomerProfile(
  db: Queryable,
  uid: string,
  p: {
    firstName: string;
    lastName: string;
    email: string;
    /** Absent: the sign-in email stays as stored. */
    authEmail: string | undefined;
    organization: string;
    phone: string;
    contactEmail: string;
    timeZone: string;
  },
  at: Date,
  /** The version the form was read at; undefined to write whatever the current one is. */
  expectedVersion?: number,
): Promise<boolean> {
  const r = await db.query(
    `UPDATE customers SET first_name = $2, last_name = $3, email = $4, organization = $5, phone = $6,
       contact_email = $7, time_zone = $8, modified_at = $9,
       email_verified = email_verified AND lower(email) = lower($4),
       auth_email = coalesce($10, auth_email), version = version + 1
     WHERE uid = $1 AND ($11::bigint IS NULL OR version = $11) RETURNING uid`,
    [
      uid,
      p.firstName,
      p.lastName,
      p.email,
      p.organization,
      p.phone,
      p.contactEmail,
      p.timeZone,
      at,
      p.authEmail ?? null,
      expectedVersion ?? null,
    ],
  );
  return r.rows.length > 0;
}

export async function setCustomerPassword(db: Queryable, uid: string, hash: string, at: Date): Promise<void> {
  await db.query('UPDATE customers SET password_hash = $2, modified_at = $3 WHERE uid = $1', [uid, hash, at]);
}

export async function markEmailVerified(db: Queryable, uid: string, at: Date): Promise<void> {
  await db.query('UPDATE customers SET email_verified = true, modified_at = $2 WHERE uid = $1', [uid, at]);
}
