import { randomUUID } from 'node:crypto';
import type {
  createCustomerBody,
  siteBasicSettingsBody,
  siteDataCenterBody,
  siteFeaturesBody,
  updateCustomerProfileBody,
} from '@sac/contract/customer-writes';
import { trialDaysLeft, WRITE_MESSAGES } from '@sac/contract/customer-writes';
import { BILLING_PERMISSION, IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { writeCustomerActivity } from '../activity/customer-activity.ts';
import { hashPassword } from '../auth/password-hash.ts';
import { findCustomer, siteOfCustomer } from './customers.repo.ts';
import * as read from './customers.service.ts';

const isUniqueViolation = (e: unknown, index: string) =>
  (e as { code?: string }).code === '23505' &&
  String((e as { constraint?: string }).constraint ?? (e as Error).message).includes(index);

/** Inserts a site with a fresh API key and secret; the secret is returned once and kept only hashed. */
async function insertSite(tx: Queryable, ownerUid: string, name: string, at: Date) {
  const secret = randomSecret();
  const r = await tx.query<{ app_id: number }>(
    `INSERT INTO sites (app_name, api_key, secret_hash, owner_uid, db_name, created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING app_id`,
    [name, randomUUID(), hashSecret(secret), ownerUid, `${name.replace(/-/g, '_')}_db`, at],
  );
  return { appId: Number(r.rows[0]!.app_id), secret };
}

export async function createCustomer(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  body: z.output<typeof createCustomerBody>,
) {
  const at = ctx.clock.now();
  const uid = randomUUID();
  let created: { appId: number; secret: string };
  try {
    created = await ctx.db.transaction(async (tx) => {
      const taken = await tx.query('SELECT 1 FROM customers WHERE lower(email) = lower($1)', [body.email]);
      if (taken.rows.length) throw new AppError('customerExists');
      await tx.query(
        `INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
           time_zone, created_at, modified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $4, $4, $7, $8, $8)`,
        [uid, body.firstname, body.lastname, body.email, body.organization, body.phone, body.timezone, at],
      );
      const site = await insertSite(tx, uid, body.appname, at);
      await writeCustomerActivity(tx, ctx, caller, actor, uid, 'customer.create', {
        email: body.email,
        appName: body.appname,
      });
      return site;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'customers_email_key')) throw new AppError('customerExists');
    if (isUniqueViolation(e, 'sites_name_key')) throw new AppError('siteNameTaken');
    throw e;
  }
  const profile = await read.profile(ctx, uid);
  const site = await read.appById(ctx, uid, created.appId);
  return { Data: { Customer: profile.Data, Site: site.Data, ApiSecret: created.secret } };
}

export async function addSite(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  name: string,
) {
  if (!(await findCustomer(ctx.db, uid)))
    throw new AppError('notFound', 'There is no customer with that uid.');
  let created: { appId: number; secret: string };
  try {
    created = await ctx.db.transaction(async (tx) => {
      const site = await insertSite(tx, uid, name, ctx.clock.now());
      await writeCustomerActivity(tx, ctx, caller, actor, uid, 'site.create', {
        appId: site.appId,
        appName: name,
      });
      return site;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'sites_name_key')) throw new AppError('siteNameTaken');
    throw e;
  }
  return { Data: { Site: (await read.appById(ctx, uid, created.appId)).Data, ApiSecret: created.secret } };
}

/** Only the owner's sites are configured through these calls; a shared site answers 404. */
async function ownedSite(ctx: AppContext, uid: string, appId: number) {
  const s = await siteOfCustomer(ctx.db, uid, appId);
  if (!(await findCustomer(ctx.db, uid)))
    throw new AppError('notFound', 'There is no customer with that uid.');
  if (!s || s.owner_uid !== uid)
    throw new AppError('notFound', 'This customer owns no site with that appId.');
  return s;
}

export async function updateBasicSettings(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  body: z.output<typeof siteBasicSettingsBody>,
) {
  await ownedSite(ctx, uid, appId);
  const at = ctx.clock.now();
  const d = body.data;
  const trialEnds = d.TrialDays > 0 ? new Date(at.getTime() + d.TrialDays * 86_400_000) : null;
  // Through an impersonation this call is open to ManageSettings (the web apps); the plan and the
  // trial are billing, so a grant without ManageBilling may only send them along unchanged (the
  // current plan and the trial's days left), and then they are kept exactly as stored.
  const billingAllowed = !actor.impersonation || actor.impersonation.permissions.has(BILLING_PERMISSION);
  await ctx.db.transaction(async (tx) => {
    const cur = await tx.query<{ plan: string; plan_status: string; trial_ends_at: Date | null }>(
      'SELECT plan, plan_status, trial_ends_at FROM sites WHERE app_id = $1 AND owner_uid = $2 FOR UPDATE',
      [appId, uid],
    );
    const site = cur.rows[0];
    if (!site) throw new AppError('notFound', 'This customer owns no site with that appId.');
    const unchanged =
      d.Plan === site.plan &&
      d.TrialDays ===
        trialDaysLeft({ PlanStatus: site.plan_status, TrialEndsAt: site.trial_ends_at }, at.getTime());
    if (!billingAllowed && !unchanged)
      throw new AppError('impersonationForbidden', IMPERSONATION_SESSION_MESSAGES.billingNeeded);
    if (billingAllowed) {
      await tx.query(
        `UPDATE sites SET production_url = $3, staging_url = $4, plan = $5, plan_status = $6, trial_ends_at = $7,
           modified_at = $8 WHERE app_id = $1 AND owner_uid = $2`,
        [
          appId,
          uid,
          d.ProductionUrl,
          d.StagingUrl,
          d.Plan,
          trialEnds ? 'Trial' : 'Subscribed',
          trialEnds,
          at,
        ],
      );
    } else {
      await tx.query(
        'UPDATE sites SET production_url = $3, staging_url = $4, modified_at = $5 WHERE app_id = $1 AND owner_uid = $2',
        [appId, uid, d.ProductionUrl, d.StagingUrl, at],
      );
    }
    await writeCustomerActivity(tx, ctx, caller, actor, uid, 'site.basicsettings', {
      appId,
      ...(billingAllowed ? { plan: d.Plan, trialDays: d.TrialDays } : { plan: 'unchanged' }),
    });
  });
  return read.siteBasicSettings(ctx, uid, appId);
}

export async function updateFeatures(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  body: z.output<typeof siteFeaturesBody>,
) {
  await ownedSite(ctx, uid, appId);
  let features: string[];
  if (body.FeatureSet) {
    const r = await ctx.db.query<{ features: string[] }>(
      'SELECT features FROM feature_sets WHERE name = $1',
      [body.FeatureSet],
    );
    if (!r.rows[0]) throw new AppError('unknownCatalogueEntry');
    features = r.rows[0].features;
  } else {
    features = (await ownedSite(ctx, uid, body.FromAppId!)).features;
  }
  await ctx.db.transaction(async (tx) => {
    await tx.query('UPDATE sites SET features = $3, modified_at = $4 WHERE app_id = $1 AND owner_uid = $2', [
      appId,
      uid,
      features,
      ctx.clock.now(),
    ]);
    await writeCustomerActivity(tx, ctx, caller, actor, uid, 'site.features', {
      appId,
      featureSet: body.FeatureSet,
      fromAppId: body.FromAppId,
    });
  });
  return read.siteFeatures(ctx, uid, appId);
}

export async function updateDataCenter(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  body: z.output<typeof siteDataCenterBody>,
) {
  await ownedSite(ctx, uid, appId);
  let dataCenter: string | null;
  let globalServer: string | null = null;
  let dbName: string;
  let conn: Buffer | Uint8Array | null = null;
  if (body.Source === 'existing-site') {
    const from = await ownedSite(ctx, uid, body.FromAppId);
    dataCenter = from.data_center;
    globalServer = from.global_server;
    dbName = from.db_name;
    conn = from.custom_db_conn;
  } else if (body.Source === 'global-server') {
    const r = await ctx.db.query<{ data_center: string }>(
      'SELECT data_center FROM global_servers WHERE code = $1',
      [body.GlobalServer],
    );
    if (!r.rows[0]) throw new AppError('unknownCatalogueEntry');
    dataCenter = r.rows[0].data_center;
    globalServer = body.GlobalServer;
    dbName = body.DbName;
  } else {
    const r = await ctx.db.query('SELECT 1 FROM data_centers WHERE code = $1', [body.DataCenter]);
    if (!r.rows[0]) throw new AppError('unknownCatalogueEntry');
    dataCenter = body.DataCenter;
    dbName = body.DbName;
    conn = ctx.crypto.encrypt(body.ConnectionString);
  }
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `UPDATE sites SET data_center = $3, global_server = $4, db_name = $5, custom_db_conn = $6, modified_at = $7
       WHERE app_id = $1 AND owner_uid = $2`,
      [appId, uid, dataCenter, globalServer, dbName, conn, ctx.clock.now()],
    );
    // never log the connection string
    await writeCustomerActivity(tx, ctx, caller, actor, uid, 'site.datacenter', {
      appId,
      source: body.Source,
      dataCenter,
      globalServer,
      dbName,
    });
  });
  return read.siteDataCenter(ctx, uid, appId);
}

export async function updateProfile(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  body: z.output<typeof updateCustomerProfileBody>,
) {
  const before = await findCustomer(ctx.db, uid);
  if (!before) throw new AppError('notFound', 'There is no customer with that uid.');
  const d = body.data;
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE customers SET first_name = $2, last_name = $3, email = $4, organization = $5, phone = $6,
           contact_email = $7, time_zone = $8, modified_at = $9,
           email_verified = email_verified AND lower(email) = lower($4)
         WHERE uid = $1`,
        [
          uid,
          d.FirstName,
          d.LastName,
          d.Email,
          d.Organization,
          d.PhoneNumber,
          d.ContactEmail,
          d.TimeZone,
          ctx.clock.now(),
        ],
      );
      const changed = Object.entries({
        FirstName: [before.first_name, d.FirstName],
        LastName: [before.last_name, d.LastName],
        Email: [before.email, d.Email],
        Organization: [before.organization, d.Organization],
        PhoneNumber: [before.phone, d.PhoneNumber],
        ContactEmail: [before.contact_email, d.ContactEmail],
        TimeZone: [before.time_zone, d.TimeZone],
      })
        .filter(([, [a, b]]) => a !== b)
        .map(([k]) => k);
      await writeCustomerActivity(tx, ctx, caller, actor, uid, 'customer.profile.update', { changed });
    });
  } catch (e) {
    if (isUniqueViolation(e, 'customers_email_key')) throw new AppError('customerExists');
    throw e;
  }
  return read.profile(ctx, uid);
}

export async function setPassword(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  password: string,
) {
  if (!(await findCustomer(ctx.db, uid)))
    throw new AppError('notFound', 'There is no customer with that uid.');
  const hash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    await tx.query('UPDATE customers SET password_hash = $2, modified_at = $3 WHERE uid = $1', [
      uid,
      hash,
      ctx.clock.now(),
    ]);
    await writeCustomerActivity(tx, ctx, caller, actor, uid, 'customer.password.reset', {});
  });
  return { IsPosted: true, Message: WRITE_MESSAGES.passwordSet };
}

export async function verifyEmail(ctx: AppContext, caller: Caller, actor: StaffSession, uid: string) {
  if (!(await findCustomer(ctx.db, uid)))
    throw new AppError('notFound', 'There is no customer with that uid.');
  await ctx.db.transaction(async (tx) => {
    await tx.query('UPDATE customers SET email_verified = true, modified_at = $2 WHERE uid = $1', [
      uid,
      ctx.clock.now(),
    ]);
    await writeCustomerActivity(tx, ctx, caller, actor, uid, 'customer.email.verify', {});
  });
  return { IsPosted: true, Message: WRITE_MESSAGES.emailVerified };
}

export async function setSiteStatus(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  status: 'active' | 'inactive',
) {
  await ownedSite(ctx, uid, appId);
  await ctx.db.transaction(async (tx) => {
    await tx.query('UPDATE sites SET status = $3, modified_at = $4 WHERE app_id = $1 AND owner_uid = $2', [
      appId,
      uid,
      status,
      ctx.clock.now(),
    ]);
    await writeCustomerActivity(
      tx,
      ctx,
      caller,
      actor,
      uid,
      status === 'active' ? 'site.activate' : 'site.deactivate',
      {
        appId,
      },
    );
  });
  return read.appById(ctx, uid, appId);
}
