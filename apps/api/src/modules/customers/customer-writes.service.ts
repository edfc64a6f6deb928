import { randomUUID } from 'node:crypto';
import type {
  addSiteBody,
  createCustomerBody,
  customerPasswordBody,
  rotateSecretBody,
  siteBasicSettingsBody,
  siteDataCenterBody,
  siteFeaturesBody,
  updateCustomerProfileBody,
  verifyEmailBody,
} from '@sac/contract/customer-writes';
import { SCOPE_WRITE_MESSAGES, WRITE_MESSAGES } from '@sac/contract/customer-writes';
import { BILLING_PERMISSION } from '@sac/contract/impersonation-session';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { hashPassword } from '../../lib/password-hash.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { customerIsInScope, fitsScope, outOfScope } from '../../lib/site-scope.ts';
import { runWrite } from '../../lib/write-path.ts';
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
  setCustomerPassword,
  setSiteBasicSettings,
  setSiteDataCenter,
  setSiteFeatures,
  updateCustomerProfile,
} from './customer-writes.repo.ts';
import * as read from './customers.service.ts';
import { lockedCustomer, ownedSite } from './owned-site.ts';
import { secretRotatedMail } from './site-secret.mails.ts';
import { type SiteInput, siteWrite } from './site-write.ts';

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

/**
 * What a new site starts with (the columns' defaults, migration 0003): the Free plan and no data
 * center until the wizard's storage step. A scoped role's holder may make one only when that is
 * in their scope, else they could not reach the site they made.
 */
const NEW_SITE = { plan: 'Free', dataCenter: null } as const;

function newSiteInScope(call: StaffCall): void {
  if (!fitsScope(call.session.scope, NEW_SITE))
    throw outOfScope('a new site in scope', SCOPE_WRITE_MESSAGES.newSiteOutOfScope);
}

/** Refuses a change that would leave the site outside the caller's scope (a plan or data center). */
function keepsScope(call: StaffCall, site: { dataCenter: string | null; plan: string }): void {
  if (!fitsScope(call.session.scope, site))
    throw outOfScope('a plan and data center in scope', SCOPE_WRITE_MESSAGES.moveOutOfScope);
}

/** Refuses copying from a site outside the caller's scope (its features or storage). */
function sourceInScope(call: StaffCall, from: { data_center: string | null; plan: string }): void {
  if (!fitsScope(call.session.scope, { dataCenter: from.data_center, plan: from.plan }))
    throw outOfScope('a site in scope', SCOPE_WRITE_MESSAGES.sourceOutOfScope);
}

/** Which customer a write is about (the uid of its query). */
interface CustomerInput {
  uid: string;
}

export async function createCustomer(
  ctx: AppContext,
  call: StaffCall,
  body: z.output<typeof createCustomerBody>,
) {
  newSiteInScope(call);
  const at = ctx.clock.now();
  const uid = randomUUID();
  let created: { appId: number; secret: string };
  try {
    created = await runWrite(ctx.db, {
      // No record to lock yet: the address is read in the write's transaction, and the unique
      // index (customer_addresses) decides between two creations at once (caught below).
      lock: async (tx) => {
        if (await emailTaken(tx, body.email)) throw new AppError('customerExists');
      },
      change: async (tx) => {
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
        return newSite(tx, uid, body.appname, at);
      },
      trail: (tx) =>
        writeCustomerActivity(tx, ctx, call, call.session, uid, 'customer.create', {
          email: body.email,
          appName: body.appname,
        }),
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

/** A new site of the customer, whose row is locked while it is added (404 for an unknown customer). */
export async function addSite(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerInput & z.output<typeof addSiteBody>,
) {
  const { uid, appname: name } = input;
  newSiteInScope(call);
  const scope = call.session.scope;
  let created: { appId: number; secret: string };
  try {
    created = await runWrite(ctx.db, {
      // A scoped caller adds a site only to a customer already in scope: else a site in scope
      // (a Free-plan role's) would bring any customer into it.
      lock: async (tx) => {
        await lockedCustomer(tx, uid);
        if (scope && !(await customerIsInScope(tx, scope, uid))) throw outOfScope('a customer in scope');
      },
      change: (tx) => newSite(tx, uid, name, ctx.clock.now()),
      trail: (tx, site) =>
        writeCustomerActivity(tx, ctx, call, call.session, uid, 'site.create', {
          appId: site.appId,
          appName: name,
        }),
    });
  } catch (e) {
    if (isUniqueViolation(e, 'sites_name_key')) throw new AppError('siteNameTaken');
    throw e;
  }
  return { Data: { Site: (await read.appById(ctx, uid, created.appId)).Data, ApiSecret: created.secret } };
}

/** The site version the form was read at is the call's If-Match; a newer stored one refuses the write (930). */
export async function updateBasicSettings(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & z.output<typeof siteBasicSettingsBody>,
) {
  const { uid, appId } = input;
  const actor = call.session;
  const at = ctx.clock.now();
  const d = input.data;
  const trialDays = d.TrialDays ?? 0;
  const trialEnds = trialDays > 0 ? new Date(at.getTime() + trialDays * 86_400_000) : null;
  await siteWrite(ctx, call, input, {
    action: 'site.basicsettings',
    // After the site's 404, as before: through an impersonation this call is open to
    // ManageSettings (the web apps); a plan change is billing, which needs ManageBilling.
    check: async (_tx, row) => {
      const billingAllowed = !actor.impersonation || actor.impersonation.permissions.has(BILLING_PERMISSION);
      if (d.Plan !== undefined && !billingAllowed)
        throw new AppError('impersonationForbidden', IMPERSONATION_SESSION_MESSAGES.billingNeeded);
      if (d.Plan) keepsScope(call, { dataCenter: row.data_center, plan: d.Plan });
    },
    change: async (tx) => {
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
    },
    details: () => ({
      changed: Object.keys(d).filter((k) => d[k as keyof typeof d] !== undefined),
      ...(d.Plan ? { plan: d.Plan, trialDays } : {}),
    }),
  });
  return read.siteBasicSettings(ctx, uid, appId);
}

/**
 * The features' version the step was read at is the call's If-Match. The features copied (of a
 * set, or of another of the customer's sites) are read in the write's transaction, under the
 * target site's lock.
 */
export async function updateFeatures(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & z.output<typeof siteFeaturesBody>,
) {
  const { uid, appId, ...body } = input;
  await siteWrite(ctx, call, input, {
    action: 'site.features',
    record: read.siteFeaturesRecord(appId),
    check: async (tx) => {
      if (!body.FeatureSet) {
        const from = await ownedSite(tx, uid, body.FromAppId!);
        sourceInScope(call, from);
        return from.features;
      }
      const set = await featuresOfSet(tx, body.FeatureSet);
      if (!set) throw new AppError('unknownCatalogueEntry');
      return set;
    },
    change: (tx, features) => setSiteFeatures(tx, uid, appId, features, ctx.clock.now()),
    details: () => ({ featureSet: body.FeatureSet, fromAppId: body.FromAppId }),
  });
  return read.siteFeatures(ctx, uid, appId);
}

/** Where a site's data lives, as a data-center write sets it. */
interface SiteStorage {
  dataCenter: string | null;
  globalServer: string | null;
  dbName: string;
  connection: Buffer | Uint8Array | null;
}

/**
 * The data center's version the step was read at is the call's If-Match. The source (another of
 * the customer's sites, or the catalogue) is read in the write's transaction, under the target
 * site's lock.
 */
export async function updateDataCenter(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & { body: z.output<typeof siteDataCenterBody> },
) {
  const { uid, appId, body } = input;
  await siteWrite(ctx, call, input, {
    action: 'site.datacenter',
    record: read.siteDataCenterRecord(appId),
    check: async (tx, row) => {
      const storage = await storageOf(tx);
      keepsScope(call, { dataCenter: storage.dataCenter, plan: row.plan });
      return storage;
    },
    change: (tx, storage) => setSiteDataCenter(tx, uid, appId, storage, ctx.clock.now()),
    // never log the connection string
    details: (_done, s) => ({
      source: body.Source,
      dataCenter: s.dataCenter,
      globalServer: s.globalServer,
      dbName: s.dbName,
    }),
  });
  return read.siteDataCenter(ctx, uid, appId);

  /** Where the site's data will live: another of the customer's sites' storage, or the catalogue's. */
  async function storageOf(tx: Queryable): Promise<SiteStorage> {
    if (body.Source === 'existing-site') {
      const from = await ownedSite(tx, uid, body.FromAppId);
      sourceInScope(call, from);
      return {
        dataCenter: from.data_center,
        globalServer: from.global_server,
        dbName: from.db_name,
        connection: from.custom_db_conn,
      };
    }
    if (body.Source === 'global-server') {
      const center = await dataCenterOfGlobalServer(tx, body.GlobalServer);
      if (center === undefined) throw new AppError('unknownCatalogueEntry');
      return { dataCenter: center, globalServer: body.GlobalServer, dbName: body.DbName, connection: null };
    }
    if (!(await dataCenterExists(tx, body.DataCenter))) throw new AppError('unknownCatalogueEntry');
    return {
      dataCenter: body.DataCenter,
      globalServer: null,
      dbName: body.DbName,
      connection: ctx.crypto.encrypt(body.ConnectionString),
    };
  }
}

/**
 * The version the form was read at is the call's If-Match; a newer stored one refuses the write
 * (930). The customer's row is locked before the profile is read, so the trail row's list of
 * changed fields compares with the profile this write replaces, not one another write replaced.
 */
export async function updateProfile(
  ctx: AppContext,
  call: StaffCall,
  input: CustomerInput & z.output<typeof updateCustomerProfileBody>,
) {
  const { uid } = input;
  const d = input.data;
  try {
    await runWrite(ctx.db, {
      lock: async (tx) => {
        const before = await lockedCustomer(tx, uid);
        // Each address is checked apart, so the answer says which one another customer uses; the
        // database's unique index (customer_addresses) still decides under concurrent writes.
        if (await emailTaken(tx, d.Email, uid)) throw new AppError('customerEmailTaken');
        if (d.AuthEmail !== undefined && (await emailTaken(tx, d.AuthEmail, uid)))
          throw new AppError('customerAuthEmailTaken');
        return before;
      },
      change: async (tx) => {
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
      },
      trail: (tx, _done, before) => {
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
        return writeCustomerActivity(tx, ctx, call, call.session, uid, 'customer.profile.update', {
          changed,
        });
      },
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
  // Hashed before the write (it takes a while), so the customer's row is not held meanwhile.
  const hash = await hashPassword(password);
  await runWrite(ctx.db, {
    lock: (tx) => lockedCustomer(tx, uid),
    change: (tx) => setCustomerPassword(tx, uid, hash, ctx.clock.now()),
    trail: (tx) => writeCustomerActivity(tx, ctx, call, call.session, uid, 'customer.password.reset', {}),
  });
  return { IsPosted: true, Message: WRITE_MESSAGES.passwordSet };
}

export async function verifyEmail(ctx: AppContext, call: StaffCall, input: z.output<typeof verifyEmailBody>) {
  const { uid } = input;
  await runWrite(ctx.db, {
    lock: (tx) => lockedCustomer(tx, uid),
    change: (tx) => markEmailVerified(tx, uid, ctx.clock.now()),
    trail: (tx) => writeCustomerActivity(tx, ctx, call, call.session, uid, 'customer.email.verify', {}),
  });
  return { IsPosted: true, Message: WRITE_MESSAGES.emailVerified };
}

/**
 * A new API secret for an owned site, answered once (only its hash is kept). The replaced secret
 * stays accepted for `graceMinutes` (0: refused at once). Logged in the customer's activity, and
 * the owner is mailed in the same transaction, at the address and with the site's name read under
 * the locks of the customer's row and the site's.
 */
export async function rotateSiteSecret(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & z.output<typeof rotateSecretBody>,
) {
  const { uid, appId, GraceMinutes: graceMinutes } = input;
  const now = ctx.clock.now();
  const previousUntil = graceMinutes > 0 ? new Date(now.getTime() + graceMinutes * 60_000) : null;
  const secret = randomSecret();
  const { site } = await runWrite(ctx.db, {
    lock: async (tx) => {
      const owner = await lockedCustomer(tx, uid);
      return { owner, site: await ownedSite(tx, uid, appId, true) };
    },
    change: async (tx, locked) => {
      if (!(await replaceSiteSecret(tx, uid, appId, hashSecret(secret), previousUntil, now)))
        throw new AppError('notFound', 'This customer has no site with this id.');
      return locked;
    },
    trail: async (tx, { owner, site }) => {
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
    },
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
  const lapsed = await runWrite(ctx.db, {
    // The change locks the rows it clears itself (FOR UPDATE SKIP LOCKED), one statement.
    change: (tx) => clearLapsedSecrets(tx, now),
    trail: async (tx, retired) => {
      for (const s of retired) {
        await writeActivity(tx, {
          at: now,
          action: 'site.secret.retire',
          targetType: 'customer',
          targetId: s.owner_uid,
          details: { appId: Number(s.app_id), graceEndedAt: new Date(s.ended).toISOString() },
        });
      }
    },
  });
  return lapsed.length;
}
