import { type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import type { CustomerRow } from './customers.repo.ts';

type Plan = Selectable<DB['sites']>['plan'];

/** Writes to customers and their sites, and the catalogue lookups they check against. */

/** Whether a customer other than `exceptUid` is known by this address (email or sign-in email). */
export async function emailTaken(db: Queryable, email: string, exceptUid?: string): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .selectFrom('customer_addresses')
      .select(sql.lit(1).as('one'))
      .where('address', '=', sql<string>`lower(${email})`)
      .$if(exceptUid !== undefined, (q) => q.where('uid', '<>', exceptUid ?? '')),
  );
  return r.length > 0;
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
  return firstRow(
    db,
    qb
      .selectFrom('customers')
      .select([
        'uid',
        'first_name',
        'last_name',
        'email',
        'auth_email',
        'organization',
        'phone',
        'contact_email',
        'time_zone',
      ])
      .where('uid', '=', uid)
      .forUpdate(),
  );
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
  await execute(
    db,
    qb.insertInto('customers').values({
      uid: c.uid,
      first_name: c.firstName,
      last_name: c.lastName,
      email: c.email,
      organization: c.organization,
      phone: c.phone,
      auth_email: c.email,
      contact_email: c.email,
      time_zone: c.timeZone,
      created_at: c.at,
      modified_at: c.at,
    }),
  );
}

/** A new site of `ownerUid`; its appId. */
export async function insertSite(
  db: Queryable,
  s: { name: string; apiKey: string; secretHash: Buffer; ownerUid: string; dbName: string; at: Date },
): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .insertInto('sites')
      .values({
        app_name: s.name,
        api_key: s.apiKey,
        secret_hash: s.secretHash,
        owner_uid: s.ownerUid,
        db_name: s.dbName,
        created_at: s.at,
        modified_at: s.at,
      })
      .returning('app_id'),
  );
  return Number(r!.app_id);
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
  const r = await rows(
    db,
    qb
      .updateTable('sites')
      .set((eb) => ({
        previous_secret_hash: previousUntil === null ? null : eb.ref('secret_hash'),
        previous_secret_until: previousUntil,
        secret_hash: secretHash,
        modified_at: at,
      }))
      .where('app_id', '=', appId)
      .where('owner_uid', '=', uid)
      .returning('app_id'),
  );
  return r.length > 0;
}

/**
 * Forgets the replaced secrets whose grace ended by `now`: the sites, their owners and when each
 * grace ended.
 */
export async function clearLapsedSecrets(
  db: Queryable,
  now: Date,
): Promise<{ app_id: number; owner_uid: string; ended: Date }[]> {
  const r = await rows(
    db,
    qb
      .updateTable('sites as s')
      .set({ previous_secret_hash: null, previous_secret_until: null })
      .from(
        qb
          .selectFrom('sites')
          .select(['app_id', 'previous_secret_until as ended'])
          .where('previous_secret_until', '<=', now)
          .forUpdate()
          .skipLocked()
          .as('o'),
      )
      .whereRef('s.app_id', '=', 'o.app_id')
      .returning(['s.app_id', 's.owner_uid', 'o.ended']),
  );
  // `ended` is never null: the rows were chosen by it
  return r.map((x) => ({ app_id: x.app_id, owner_uid: x.owner_uid, ended: x.ended ?? now }));
}

/** What a basic-settings write names: each web app's address, and the plan as one change. */
export interface BasicSettingsChange {
  productionUrl?: string;
  stagingUrl?: string;
  plan?: { plan: Plan; planStatus: 'Trial' | 'Subscribed'; trialEndsAt: Date | null };
}

/**
 * Sets only the columns the change names (no column is rewritten with what a form last read) of
 * an owned site; false when the site's version is not `expectedVersion` (nothing written). Also
 * the write of a site's web-app addresses alone (sites.service.ts).
 */
export async function setSiteBasicSettings(
  db: Queryable,
  uid: string,
  appId: number,
  change: BasicSettingsChange,
  at: Date,
  expectedVersion?: number,
): Promise<boolean> {
  const r = await rows(
    db,
    qb
      .updateTable('sites')
      .set((eb) => ({
        ...(change.productionUrl !== undefined && { production_url: change.productionUrl }),
        ...(change.stagingUrl !== undefined && { staging_url: change.stagingUrl }),
        ...(change.plan && {
          plan: change.plan.plan,
          plan_status: change.plan.planStatus,
          trial_ends_at: change.plan.trialEndsAt,
        }),
        modified_at: at,
        version: eb('version', '+', 1),
      }))
      .where('app_id', '=', appId)
      .where('owner_uid', '=', uid)
      .$if(expectedVersion !== undefined, (q) => q.where('version', '=', expectedVersion ?? 0))
      .returning('app_id'),
  );
  return r.length > 0;
}

/** The features of a feature set; undefined when there is no such set. */
export async function featuresOfSet(db: Queryable, name: string): Promise<string[] | undefined> {
  const r = await firstRow(db, qb.selectFrom('feature_sets').select('features').where('name', '=', name));
  return r?.features;
}

export async function setSiteFeatures(
  db: Queryable,
  uid: string,
  appId: number,
  features: string[],
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('sites')
      .set({ features, modified_at: at })
      .where('app_id', '=', appId)
      .where('owner_uid', '=', uid),
  );
}

/** The data center of a global server; undefined when there is no such server. */
export async function dataCenterOfGlobalServer(db: Queryable, code: string): Promise<string | undefined> {
  const r = await firstRow(
    db,
    qb.selectFrom('global_servers').select('data_center').where('code', '=', code),
  );
  return r?.data_center;
}

export async function dataCenterExists(db: Queryable, code: string): Promise<boolean> {
  const r = await rows(
    db,
    qb.selectFrom('data_centers').select(sql.lit(1).as('one')).where('code', '=', code),
  );
  return r.length > 0;
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
  await execute(
    db,
    qb
      .updateTable('sites')
      .set({
        data_center: s.dataCenter,
        global_server: s.globalServer,
        db_name: s.dbName,
        custom_db_conn: s.connection,
        modified_at: at,
      })
      .where('app_id', '=', appId)
      .where('owner_uid', '=', uid),
  );
}

export async function saveSiteStatus(
  db: Queryable,
  uid: string,
  appId: number,
  status: 'active' | 'inactive',
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('sites')
      .set({ status, modified_at: at })
      .where('app_id', '=', appId)
      .where('owner_uid', '=', uid),
  );
}

/**
 * Writes the profile's fields; false when the stored version is not `expectedVersion` (nothing
 * written). The email stays verified only when it is unchanged (case aside).
 */
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
  const r = await rows(
    db,
    qb
      .updateTable('customers')
      .set((eb) => ({
        first_name: p.firstName,
        last_name: p.lastName,
        email: p.email,
        organization: p.organization,
        phone: p.phone,
        contact_email: p.contactEmail,
        time_zone: p.timeZone,
        modified_at: at,
        email_verified: sql<boolean>`email_verified AND lower(email) = lower(${p.email})`,
        ...(p.authEmail !== undefined && { auth_email: p.authEmail }),
        version: eb('version', '+', 1),
      }))
      .where('uid', '=', uid)
      .$if(expectedVersion !== undefined, (q) => q.where('version', '=', expectedVersion ?? 0))
      .returning('uid'),
  );
  return r.length > 0;
}

export async function setCustomerPassword(db: Queryable, uid: string, hash: string, at: Date): Promise<void> {
  await execute(
    db,
    qb.updateTable('customers').set({ password_hash: hash, modified_at: at }).where('uid', '=', uid),
  );
}

export async function markEmailVerified(db: Queryable, uid: string, at: Date): Promise<void> {
  await execute(
    db,
    qb.updateTable('customers').set({ email_verified: true, modified_at: at }).where('uid', '=', uid),
  );
}
