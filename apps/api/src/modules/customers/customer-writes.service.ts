import { randomUUID } from 'node:crypto';
import type {
  addSiteBody,
  createCustomerBody,
  customerPasswordBody,
  rotateSecretBody,
  siteBasicSettingsBody,
  siteDataCenterBody,
  siteFeaturesBody,
  siteStatusBody,
  updateCustomerProfileBody,
  verifyEmailBody,
} from '@sac/contract/customer-writes';
import { WRITE_MESSAGES } from '@sac/contract/customer-writes';
import { BILLING_PERMISSION, IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { claimVersionOrRefuse } from '../../lib/record-version.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { writeActivity, writeCustomerActivity } from '../activity/activity.service.ts';
import {
  clearLapsedSecrets,
  dataCenterExists,
  dataCenterOfGlobalServer,
  emailTaken,
  featuresOfSet,
  insertCustomer,
  insertSite,
  markEmailVerified,
  replaceSiteSecret,
  saveSiteStatus,
  setCustomerPassword,
  setSiteBasicSettings,
  setSiteDataCenter,
  setSiteFeatures,
  updateCustomerProfile,
} from './customer-writes.repo.ts';
import * as read from './customers.service.ts';
import { ownedSite } from './owned-site.ts';
import { secretRotatedMail } from './site-secret.mails.ts';

/** Inserts a site with a fresh API key and secret; the secret is returned once and kept only hashed. */
async function newSite(tx: Queryable, ownerUid: string, name: string, at: Date) {
  const secret = randomSecret();
  const appId = await insertSite(tx, {
    name,
    apiKey: randomUUID(),
    secretHash: hashSecret(secret),
    ownerUid,
    dbName: `${name.replace(/-/g, '_')}_db`,
    at,
  });
  return { appId, secret };
}

/** Which customer a write is about (the uid of its query). */
interface CustomerInput {
  uid: string;
}

/** Which site of which customer a write is about (its query, whatever the endpoint names them). */
interface CustomerSiteInput {
  uid: string;
  appId: number;
}

export async function createCustomer(
  ctx: AppContext,
  call: StaffCall,
  body: z.output<typeof createCustomerBody>,
) {
  const at = ctx.clock.now();
  const uid = randomUUID();
  let created: { appId: number; secret: string };
  try {
    created = await ctx.db.transaction(async (tx) => {
      if (await emailTaken(tx, body.email)) throw new AppError('customerExists');
      await insertCustomer(tx, {
        uid,
        firstName: body.firstname,
        lastName: body.lastname,
        email: body.email,
        organization: body.organization,
        phone: body.phone,
        timeZone: body.timezone,
        at,
      });
      const site = await newSite(tx, uid, body.appname, at);
      await writeCustomerActivity(tx, ctx, call, call.session, uid, 'customer.create', {
        email: body.email,
        appName: body.appname,
      });
      return site;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'customers_email_key') || isUniqueViolation(e, 'customer_addresses_pkey'))
      throw new AppError('customerExists');
    if (isUniqueViolation(e, 'sites_name_key')) throw new AppError('siteNameTaken');
    throw e;
  }
  const profile = await read.profile(ctx, uid);
  const site = await read.appById(ctx, uid, created.appId);
  return { Data: { Customer: profile.Data, Site: site.Data, ApiSecret: created.secret } };
}

export async function addSite(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerInput & z.output<typeof addSiteBody>,
) {
  const { uid, appname: name } = input;
  await read.customer(ctx, uid);
  let created: { appId: number; secret: string };
  try {
    created = await ctx.db.transaction(async (tx) => {
      const site = await newSite(tx, uid, name, ctx.clock.now());
      await writeCustomerActivity(tx, ctx, call, call.session, uid, 'site.create', {
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

/**
 * Only the owner's sites are configured through these calls: an unknown customer, then a site
 * they do not own, answer 404.
 */
async function customersOwnSite(ctx: AppContext, uid: string, appId: number) {
  await read.customer(ctx, uid);
  return ownedSite(ctx.db, uid, appId);
}

/** The site version the form was read at is the call's If-Match; a newer stored one refuses the write (930). */
export async function updateBasicSettings(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerSiteInput & z.output<typeof siteBasicSettingsBody>,
) {
  const { uid, appId } = input;
  const actor = call.session;
  await customersOwnSite(ctx, uid, appId);
  const at = ctx.clock.now();
  const d = input.data;
  // Through an impersonation this call is open to ManageSettings (the web apps); a plan change is
  // billing, which needs ManageBilling.
  const billingAllowed = !actor.impersonation || actor.impersonation.permissions.has(BILLING_PERMISSION);
  if (d.Plan !== undefined && !billingAllowed)
    throw new AppError('impersonationForbidden', IMPERSONATION_SESSION_MESSAGES.billingNeeded);
  const trialDays = d.TrialDays ?? 0;
  const trialEnds = trialDays > 0 ? new Date(at.getTime() + trialDays * 86_400_000) : null;
  await ctx.db.transaction(async (tx) => {
    await ownedSite(tx, uid, appId, true);
    const written = await setSiteBasicSettings(
      tx,
      uid,
      appId,
      {
        productionUrl: d.ProductionUrl,
        stagingUrl: d.StagingUrl,
        plan: d.Plan
          ? { plan: d.Plan, planStatus: trialEnds ? 'Trial' : 'Subscribed', trialEndsAt: trialEnds }
          : undefined,
      },
      at,
      call.expectedVersion,
    );
    if (!written) throw new AppError('conflict');
    await writeCustomerActivity(tx, ctx, call, actor, uid, 'site.basicsettings', {
      appId,
      changed: Object.keys(d).filter((k) => d[k as keyof typeof d] !== undefined),
      ...(d.Plan ? { plan: d.Plan, trialDays } : {}),
    });
  });
  return read.siteBasicSettings(ctx, uid, appId);
}

/** The features' version the step was read at is the call's If-Match. */
export async function updateFeatures(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerSiteInput & z.output<typeof siteFeaturesBody>,
) {
  const { uid, appId, ...body } = input;
  await customersOwnSite(ctx, uid, appId);
  let features: string[];
  if (body.FeatureSet) {
    const set = await featuresOfSet(ctx.db, body.FeatureSet);
    if (!set) throw new AppError('unknownCatalogueEntry');
    features = set;
  } else {
    features = (await customersOwnSite(ctx, uid, body.FromAppId!)).features;
  }
  await ctx.db.transaction(async (tx) => {
    // Checked again under the site's lock: the owner read above may have changed since.
    await ownedSite(tx, uid, appId, true);
    await claimVersionOrRefuse(tx, read.siteFeaturesRecord(appId), call.expectedVersion);
    await setSiteFeatures(tx, uid, appId, features, ctx.clock.now());
    await writeCustomerActivity(tx, ctx, call, call.session, uid, 'site.features', {
      appId,
      featureSet: body.FeatureSet,
      fromAppId: body.FromAppId,
    });
  });
  return read.siteFeatures(ctx, uid, appId);
}

/** The data center's version the step was read at is the call's If-Match. */
export async function updateDataCenter(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerSiteInput & { body: z.output<typeof siteDataCenterBody> },
) {
  const { uid, appId, body } = input;
  await customersOwnSite(ctx, uid, appId);
  let dataCenter: string | null;
  let globalServer: string | null = null;
  let dbName: string;
  let conn: Buffer | Uint8Array | null = null;
  if (body.Source === 'existing-site') {
    const from = await customersOwnSite(ctx, uid, body.FromAppId);
    dataCenter = from.data_center;
    globalServer = from.global_server;
    dbName = from.db_name;
    conn = from.custom_db_conn;
  } else if (body.Source === 'global-server') {
    const center = await dataCenterOfGlobalServer(ctx.db, body.GlobalServer);
    if (center === undefined) throw new AppError('unknownCatalogueEntry');
    dataCenter = center;
    globalServer = body.GlobalServer;
    dbName = body.DbName;
  } else {
    if (!(await dataCenterExists(ctx.db, body.DataCenter))) throw new AppError('unknownCatalogueEntry');
    dataCenter = body.DataCenter;
    dbName = body.DbName;
    conn = ctx.crypto.encrypt(body.ConnectionString);
  }
  await ctx.db.transaction(async (tx) => {
    await ownedSite(tx, uid, appId, true);
    await claimVersionOrRefuse(tx, read.siteDataCenterRecord(appId), call.expectedVersion);
    await setSiteDataCenter(
      tx,
      uid,
      appId,
      { dataCenter, globalServer, dbName, connection: conn },
      ctx.clock.now(),
    );
    // never log the connection string
    await writeCustomerActivity(tx, ctx, call, call.session, uid, 'site.datacenter', {
      appId,
      source: body.Source,
      dataCenter,
      globalServer,
      dbName,
    });
  });
  return read.siteDataCenter(ctx, uid, appId);
}

/** The version the form was read at is the call's If-Match; a newer stored one refuses the write (930). */
export async function updateProfile(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerInput & z.output<typeof updateCustomerProfileBody>,
) {
  const { uid } = input;
  const before = await read.customer(ctx, uid);
  const d = input.data;
  try {
    await ctx.db.transaction(async (tx) => {
      // Each address is checked apart, so the answer says which one another customer uses; the
      // database's unique index (customer_addresses) still decides under concurrent writes.
      if (await emailTaken(tx, d.Email, uid)) throw new AppError('customerEmailTaken');
      if (d.AuthEmail !== undefined && (await emailTaken(tx, d.AuthEmail, uid)))
        throw new AppError('customerAuthEmailTaken');
      const written = await updateCustomerProfile(
        tx,
        uid,
        {
          firstName: d.FirstName,
          lastName: d.LastName,
          email: d.Email,
          authEmail: d.AuthEmail,
          organization: d.Organization,
          phone: d.PhoneNumber,
          contactEmail: d.ContactEmail,
          timeZone: d.TimeZone,
        },
        ctx.clock.now(),
        call.expectedVersion,
      );
      if (!written) throw new AppError('conflict');
      const changed = Object.entries({
        FirstName: [before.first_name, d.FirstName],
        LastName: [before.last_name, d.LastName],
        Email: [before.email, d.Email],
        AuthEmail: [before.auth_email, d.AuthEmail ?? before.auth_email],
        Organization: [before.organization, d.Organization],
        PhoneNumber: [before.phone, d.PhoneNumber],
        ContactEmail: [before.contact_email, d.ContactEmail],
        TimeZone: [before.time_zone, d.TimeZone],
      })
        .filter(([, [a, b]]) => a !== b)
        .map(([k]) => k);
      await writeCustomerActivity(tx, ctx, call, call.session, uid, 'customer.profile.update', { changed });
    });
  } catch (e) {
    if (isUniqueViolation(e, 'customers_email_key')) throw new AppError('customerEmailTaken');
    if (isUniqueViolation(e, 'customer_addresses_pkey'))
      throw new AppError(d.AuthEmail === undefined ? 'customerEmailTaken' : 'customerAuthEmailTaken');
    throw e;
  }
  return read.versionedProfile(ctx, uid);
}

export async function setPassword(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerInput & z.output<typeof customerPasswordBody>,
) {
  const { uid, password } = input;
  await read.customer(ctx, uid);
  const hash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    await setCustomerPassword(tx, uid, hash, ctx.clock.now());
    await writeCustomerActivity(tx, ctx, call, call.session, uid, 'customer.password.reset', {});
  });
  return { IsPosted: true, Message: WRITE_MESSAGES.passwordSet };
}

export async function verifyEmail(ctx: AppContext, call: StaffCall, input: z.output<typeof verifyEmailBody>) {
  const { uid } = input;
  await read.customer(ctx, uid);
  await ctx.db.transaction(async (tx) => {
    await markEmailVerified(tx, uid, ctx.clock.now());
    await writeCustomerActivity(tx, ctx, call, call.session, uid, 'customer.email.verify', {});
  });
  return { IsPosted: true, Message: WRITE_MESSAGES.emailVerified };
}

/**
 * A new API secret for an owned site, answered once (only its hash is kept). The replaced secret
 * stays accepted for `graceMinutes` (0: refused at once). Logged in the customer's activity, and
 * the owner is mailed in the same transaction.
 */
export async function rotateSiteSecret(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerSiteInput & z.output<typeof rotateSecretBody>,
) {
  const { uid, appId, GraceMinutes: graceMinutes } = input;
  const owner = await read.customer(ctx, uid);
  const site = await ownedSite(ctx.db, uid, appId);
  const now = ctx.clock.now();
  const previousUntil = graceMinutes > 0 ? new Date(now.getTime() + graceMinutes * 60_000) : null;
  const secret = randomSecret();
  await ctx.db.transaction(async (tx) => {
    if (!(await replaceSiteSecret(tx, uid, appId, hashSecret(secret), previousUntil, now)))
      throw new AppError('notFound', 'This customer has no site with this id.');
    // the secrets themselves are never logged
    await writeCustomerActivity(tx, ctx, call, call.session, uid, 'site.secret.rotate', {
      appId,
      graceMinutes,
      previousValidUntil: previousUntil?.toISOString() ?? null,
    });
    await ctx.mailer.send(
      tx,
      secretRotatedMail({
        to: owner.email,
        firstName: owner.first_name,
        appName: site.app_name,
        previousValidUntil: previousUntil?.toISOString() ?? null,
      }),
    );
  });
  return {
    Data: {
      AppName: site.app_name,
      ApiKey: site.api_key,
      ApiSecret: secret,
      PreviousSecretValidUntil: previousUntil?.toISOString() ?? null,
    },
    Message: WRITE_MESSAGES.secretRotated,
  };
}

/**
 * The second step of a rotation, run periodically: a replaced secret whose grace ended is
 * forgotten, and that it stopped working is logged in the customer's activity (no actor: the
 * clock did it). The lookup already refuses it from the end of its grace; this records when.
 */
export async function retireLapsedSecrets(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const lapsed = await clearLapsedSecrets(tx, now);
    for (const s of lapsed) {
      await writeActivity(tx, {
        at: now,
        action: 'site.secret.retire',
        targetType: 'customer',
        targetId: s.owner_uid,
        details: { appId: Number(s.app_id), graceEndedAt: new Date(s.ended).toISOString() },
      });
    }
    return lapsed.length;
  });
}

export async function setSiteStatus(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerSiteInput & z.output<typeof siteStatusBody>,
) {
  const { uid, appId, Status: status } = input;
  await customersOwnSite(ctx, uid, appId);
  await ctx.db.transaction(async (tx) => {
    await ownedSite(tx, uid, appId, true);
    await saveSiteStatus(tx, uid, appId, status, ctx.clock.now());
    await writeCustomerActivity(
      tx,
      ctx,
      call,
      call.session,
      uid,
      status === 'active' ? 'site.activate' : 'site.deactivate',
      {
        appId,
      },
    );
  });
  return read.appById(ctx, uid, appId);
}
