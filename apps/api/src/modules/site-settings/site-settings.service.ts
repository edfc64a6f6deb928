import { randomBytes } from 'node:crypto';
import {
  ENCRYPTION_MESSAGES,
  type SettingSet,
  usesKey,
  WEAK_ALGORITHMS,
} from '@sac/contract/encryption-settings';
import {
  APPLICATION_SECURITY_DEFAULTS,
  type ApplicationSecurity,
  SETTINGS_MESSAGES as M,
  SECURITY_981_TEXT,
  SETTINGS_SAVED,
  verificationRecordName,
} from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { Semaphore } from '../../lib/semaphore.ts';
import { writeCustomerActivity } from '../activity/customer-activity.ts';
import { inHashingQueue } from '../auth/password-hash.ts';
import { checkDomain } from './domain-check.ts';
import { ownedSite } from './owned-site.ts';
import { type HashSettings, hashWithSettings, type Pbkdf2 } from './password-hashing.ts';

// ---------------------------------------------------------------------------------------------
// Custom objects

/** Compiles a user's schema in the sandbox; a schema that does not compile is a 400 saying why. */
async function assertSchema(ctx: AppContext, text: string) {
  const c = await ctx.sandbox.run('checkSchema', { schema: text });
  if (c.error)
    throw new AppError('validation', `The schema is not a valid JSON Schema: ${c.error}`, [
      { Field: 'Schema', Message: c.error },
    ]);
}

interface ObjectRow {
  id: string;
  name: string;
  size_mb: number;
  schema: string;
  created_at: Date;
  modified_at: Date;
}
const objectOut = (o: ObjectRow) => ({
  Id: o.id,
  Name: o.name,
  SizeMB: o.size_mb,
  Schema: o.schema,
  CreatedDate: isoOrNull(o.created_at)!,
  ModifiedDate: isoOrNull(o.modified_at)!,
});

export async function listObjects(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx, uid, appId);
  const r = await ctx.db.query<ObjectRow>('SELECT * FROM custom_objects WHERE app_id = $1 ORDER BY id', [
    appId,
  ]);
  if (r.rows.length === 0) throw new AppError('customObjectsEmpty');
  return { Data: r.rows.map(objectOut) };
}

export async function createObject(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  body: { Id: string; Name: string; SizeMB: number; Schema: string },
) {
  await ownedSite(ctx, uid, appId);
  await assertSchema(ctx, body.Schema);
  const now = ctx.clock.now();
  try {
    await ctx.db.query(
      `INSERT INTO custom_objects (app_id, id, name, size_mb, schema, created_at, modified_at) VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [appId, body.Id, body.Name, body.SizeMB, body.Schema, now],
    );
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new AppError('customObjectExists');
    throw e;
  }
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customobject.create', {
    appId,
    objId: body.Id,
  });
  const r = await ctx.db.query<ObjectRow>('SELECT * FROM custom_objects WHERE app_id = $1 AND id = $2', [
    appId,
    body.Id,
  ]);
  return { Data: objectOut(r.rows[0]!), Message: M.customObjectSaved };
}

export async function deleteObject(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  objId: string,
) {
  await ownedSite(ctx, uid, appId);
  const r = await ctx.db.query('DELETE FROM custom_objects WHERE app_id = $1 AND id = $2 RETURNING id', [
    appId,
    objId,
  ]);
  if (!r.rows[0]) throw new AppError('notFound', 'This site has no custom object with that Id.');
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customobject.delete', { appId, objId });
  return { IsPosted: true, Message: M.customObjectRemoved };
}

export async function setSchema(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  objId: string,
  schema: string,
) {
  await ownedSite(ctx, uid, appId);
  await assertSchema(ctx, schema);
  const r = await ctx.db.query<ObjectRow>(
    'UPDATE custom_objects SET schema = $3, modified_at = $4 WHERE app_id = $1 AND id = $2 RETURNING *',
    [appId, objId, schema, ctx.clock.now()],
  );
  if (!r.rows[0]) throw new AppError('notFound', 'This site has no custom object with that Id.');
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customobject.schema', { appId, objId });
  return { Data: objectOut(r.rows[0]), Message: M.schemaSet };
}

export async function validateSample(
  ctx: AppContext,
  uid: string,
  appId: number,
  schema: string,
  sample: string,
) {
  await ownedSite(ctx, uid, appId);
  const r = await ctx.sandbox.run('validate', { schema, sample });
  if ('schemaError' in r) return { Valid: false, Errors: [{ Path: '(schema)', Message: r.schemaError }] };
  if ('sampleError' in r) return { Valid: false, Errors: [{ Path: '(sample)', Message: r.sampleError }] };
  return { Valid: r.valid, Errors: r.errors };
}

// ---------------------------------------------------------------------------------------------
// Custom domains

interface DomainRow {
  domain: string;
  app_id: number;
  app_name: string;
  status: 'Pending Verification' | 'Verified';
  token: string;
  last_checked_at: Date | null;
  last_check_result: string | null;
  verified_at: Date | null;
}

const cnameTarget = (ctx: AppContext, appName: string) => `${appName}.${ctx.config.hubDomain}`;

function domainOut(ctx: AppContext, d: DomainRow) {
  return {
    Domain: d.domain,
    Status: d.status,
    Records: [
      { Type: 'CNAME' as const, Name: d.domain, Value: cnameTarget(ctx, d.app_name) },
      { Type: 'TXT' as const, Name: verificationRecordName(d.domain), Value: d.token },
    ],
    LastCheckedAt: isoOrNull(d.last_checked_at),
    LastCheckResult: d.last_check_result,
    VerifiedAt: isoOrNull(d.verified_at),
  };
}

const DOMAIN_SQL = `SELECT d.domain, d.app_id, s.app_name, d.status, d.token, d.last_checked_at, d.last_check_result, d.verified_at
  FROM custom_domains d JOIN sites s ON s.app_id = d.app_id`;

export function hubDomain(ctx: AppContext) {
  return { Data: { HubDomain: ctx.config.hubDomain } };
}

export async function listDomains(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx, uid, appId);
  const r = await ctx.db.query<DomainRow>(`${DOMAIN_SQL} WHERE d.app_id = $1 ORDER BY d.domain`, [appId]);
  return { Data: r.rows.map((d) => domainOut(ctx, d)) };
}

export async function createDomain(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  domain: string,
) {
  await ownedSite(ctx, uid, appId);
  const token = `sac-verify-${randomBytes(16).toString('hex')}`;
  try {
    await ctx.db.query(
      'INSERT INTO custom_domains (domain, app_id, token, created_at) VALUES ($1, $2, $3, $4)',
      [domain, appId, token, ctx.clock.now()],
    );
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new AppError('customDomainExists');
    throw e;
  }
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customdomain.create', { appId, domain });
  const r = await ctx.db.query<DomainRow>(`${DOMAIN_SQL} WHERE d.domain = $1`, [domain]);
  return { Data: domainOut(ctx, r.rows[0]!), Message: M.customDomainSaved };
}

export async function deleteDomain(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  domain: string,
) {
  await ownedSite(ctx, uid, appId);
  const r = await ctx.db.query(
    'DELETE FROM custom_domains WHERE domain = $1 AND app_id = $2 RETURNING domain',
    [domain, appId],
  );
  if (!r.rows[0]) throw new AppError('notFound', 'This site has no such custom domain.');
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customdomain.delete', { appId, domain });
  return { IsPosted: true, Message: M.customDomainDeleted };
}

/** Checks one domain's records and stores the outcome; Verified stays verified. */
async function runCheck(ctx: AppContext, d: DomainRow): Promise<DomainRow> {
  const check = await checkDomain({
    domain: d.domain,
    target: cnameTarget(ctx, d.app_name),
    txtName: verificationRecordName(d.domain),
    token: d.token,
    servers: ctx.config.dnsServers,
  });
  const now = ctx.clock.now();
  await ctx.db.query(
    `UPDATE custom_domains SET last_checked_at = $2, last_check_result = $3,
       status = CASE WHEN $4 THEN 'Verified' ELSE status END,
       verified_at = CASE WHEN $4 AND verified_at IS NULL THEN $2 ELSE verified_at END
     WHERE domain = $1`,
    [d.domain, now, check.result, check.ok],
  );
  const r = await ctx.db.query<DomainRow>(`${DOMAIN_SQL} WHERE d.domain = $1`, [d.domain]);
  return r.rows[0]!;
}

export async function verifyDomain(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  domain: string,
) {
  await ownedSite(ctx, uid, appId);
  const r = await ctx.db.query<DomainRow>(`${DOMAIN_SQL} WHERE d.domain = $1 AND d.app_id = $2`, [
    domain,
    appId,
  ]);
  if (!r.rows[0]) throw new AppError('notFound', 'This site has no such custom domain.');
  const wasVerified = r.rows[0].status === 'Verified';
  const after = await runCheck(ctx, r.rows[0]);
  if (!wasVerified && after.status === 'Verified') {
    await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.customdomain.verify', {
      appId,
      domain,
    });
  }
  return {
    Data: domainOut(ctx, after),
    Message: after.status === 'Verified' ? M.customDomainVerified : (after.last_check_result ?? ''),
  };
}

/** The periodic re-check of pending domains (oldest check first, a bounded batch). */
export async function recheckPendingDomains(ctx: AppContext, batch = 50): Promise<number> {
  const r = await ctx.db.query<DomainRow>(
    `${DOMAIN_SQL} WHERE d.status = 'Pending Verification' ORDER BY d.last_checked_at NULLS FIRST LIMIT $1`,
    [batch],
  );
  for (const d of r.rows) await runCheck(ctx, d);
  return r.rows.length;
}

// ---------------------------------------------------------------------------------------------
// App settings (plan info and web apps) and application level security

interface AppSettingsRow {
  app_name: string;
  plan: 'Free' | 'Developer' | 'Developer Premium';
  plan_status: 'Trial' | 'Subscribed';
  trial_ends_at: Date | null;
  billing: string;
  production_url: string;
  staging_url: string;
}

async function appSettingsRow(ctx: AppContext, uid: string, appId: number): Promise<AppSettingsRow> {
  const r = await ctx.db.query<AppSettingsRow>(
    `SELECT app_name, plan, plan_status, trial_ends_at, billing, production_url, staging_url FROM sites
     WHERE app_id = $1 AND owner_uid = $2`,
    [appId, uid],
  );
  if (!r.rows[0]) throw new AppError('notFound', 'This customer owns no site with that appId.');
  return r.rows[0];
}

const appSettingsOut = (r: AppSettingsRow) => ({
  AppName: r.app_name,
  Plan: r.plan,
  PlanStatus: r.plan_status,
  TrialEndsAt: isoOrNull(r.trial_ends_at),
  Billing: r.billing,
  ProductionUrl: r.production_url,
  StagingUrl: r.staging_url,
});

export async function getAppSettings(ctx: AppContext, uid: string, appId: number) {
  return { Data: appSettingsOut(await appSettingsRow(ctx, uid, appId)) };
}

export async function updateAppSettings(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  data: { ProductionUrl: string; StagingUrl: string },
) {
  await appSettingsRow(ctx, uid, appId);
  await ctx.db.query(
    'UPDATE sites SET production_url = $3, staging_url = $4, modified_at = $5 WHERE app_id = $1 AND owner_uid = $2',
    [appId, uid, data.ProductionUrl, data.StagingUrl, ctx.clock.now()],
  );
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.appsettings', { appId });
  return { Data: appSettingsOut(await appSettingsRow(ctx, uid, appId)), Message: SETTINGS_SAVED };
}

export async function getSecurity(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx, uid, appId);
  const r = await ctx.db.query<{ settings: ApplicationSecurity; modified_at: Date }>(
    'SELECT settings, modified_at FROM application_security WHERE app_id = $1',
    [appId],
  );
  if (!r.rows[0]) throw new AppError('notFound', 'This site has no application level security settings yet.');
  return {
    Data: { ...APPLICATION_SECURITY_DEFAULTS, ...r.rows[0].settings },
    ModifiedDate: isoOrNull(r.rows[0].modified_at)!,
  };
}

export async function updateSecurity(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  data: ApplicationSecurity,
) {
  await ownedSite(ctx, uid, appId);
  if (data.MaxFailedLogins > 0 && data.LockoutMinutes === 0)
    throw new AppError('securityConflict', SECURITY_981_TEXT);
  const now = ctx.clock.now();
  await ctx.db.query(
    `INSERT INTO application_security (app_id, settings, modified_at) VALUES ($1, $2, $3)
     ON CONFLICT (app_id) DO UPDATE SET settings = EXCLUDED.settings, modified_at = EXCLUDED.modified_at`,
    [appId, JSON.stringify(data), now],
  );
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.security', { appId, settings: data });
  return { Data: data, ModifiedDate: now.toISOString(), Message: SETTINGS_SAVED };
}

// ---------------------------------------------------------------------------------------------
// Encryption and hashing settings

const DEFAULT_HASHING: HashSettings = {
  EncryptionType: 'Argon2id',
  HashEncoding: 'base64',
  SaltEncoding: 'utf8',
  Salt: '',
  PerPasswordSalt: true,
  Iterations: 600_000,
  SaltAttach: 'None',
};

export async function getEncryptionSettings(ctx: AppContext, uid: string, appId: number, set: SettingSet) {
  await ownedSite(ctx, uid, appId);
  const r = await ctx.db.query<{ settings: HashSettings; key_sealed: Uint8Array | null; modified_at: Date }>(
    'SELECT settings, key_sealed, modified_at FROM encryption_settings WHERE app_id = $1 AND set_name = $2',
    [appId, set],
  );
  const row = r.rows[0];
  if (!row) {
    if (set === 'previous-password') throw new AppError('previousPasswordSettingsNotSet');
    if (set === 'security-answer') throw new AppError('securityAnswerSettingsNotSet');
    return { Data: { ...DEFAULT_HASHING, HasEncryptionKey: false, ModifiedDate: new Date(0).toISOString() } };
  }
  return {
    Data: {
      ...DEFAULT_HASHING,
      ...row.settings,
      HasEncryptionKey: row.key_sealed !== null,
      ModifiedDate: isoOrNull(row.modified_at)!,
    },
  };
}

export async function saveEncryptionSettings(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  set: SettingSet,
  data: HashSettings & { EncryptionKey?: string },
) {
  await ownedSite(ctx, uid, appId);
  const { EncryptionKey, ...settings } = data;
  const existing = await ctx.db.query<{ key_sealed: Uint8Array | null }>(
    'SELECT key_sealed FROM encryption_settings WHERE app_id = $1 AND set_name = $2',
    [appId, set],
  );
  const sealed = EncryptionKey ? ctx.crypto.encrypt(EncryptionKey) : (existing.rows[0]?.key_sealed ?? null);
  if (usesKey(settings.EncryptionType) && !sealed) throw new AppError('encryptionKeyNeeded');
  const now = ctx.clock.now();
  await ctx.db.query(
    `INSERT INTO encryption_settings (app_id, set_name, settings, key_sealed, modified_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (app_id, set_name) DO UPDATE SET settings = EXCLUDED.settings, key_sealed = EXCLUDED.key_sealed,
       modified_at = EXCLUDED.modified_at`,
    [appId, set, JSON.stringify(settings), sealed, now],
  );
  // the key itself is never logged
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.encryption', {
    appId,
    set,
    type: settings.EncryptionType,
    keyChanged: Boolean(EncryptionKey),
  });
  return { ...(await getEncryptionSettings(ctx, uid, appId, set)), Message: ENCRYPTION_MESSAGES.saved };
}

const previews = new Semaphore(1);
const PREVIEWS_WAITING = 2;

export async function previewHash(
  ctx: AppContext,
  uid: string,
  appId: number,
  data: HashSettings & { EncryptionKey?: string },
  sample: string,
) {
  await ownedSite(ctx, uid, appId);
  if (usesKey(data.EncryptionType) && !data.EncryptionKey) throw new AppError('encryptionKeyNeeded');
  // Previews run one at a time, with at most PREVIEWS_WAITING behind (then 503 at once). The
  // contract caps PBKDF2 iterations; PBKDF2 runs on the preview sandbox's thread, below the
  // priority of sign-ins' hashes, and argon2 (fixed cost, as a sign-in's) in the hashing queue.
  if (previews.load.waiting >= PREVIEWS_WAITING)
    throw Object.assign(new AppError('previewBusy'), { retryAfterSeconds: 1 });
  const pbkdf2: Pbkdf2 = async (material, salt, iterations, keylen, digest) =>
    Buffer.from((await ctx.previewSandbox.run('pbkdf2', { material, salt, iterations, keylen, digest })).key);
  const { stored, salt } = await previews.run(() =>
    data.EncryptionType.startsWith('Argon2')
      ? inHashingQueue(() => hashWithSettings(data, sample, data.EncryptionKey))
      : hashWithSettings(data, sample, data.EncryptionKey, undefined, pbkdf2),
  );
  return { Data: { Stored: stored, SaltUsed: salt, Weak: WEAK_ALGORITHMS[data.EncryptionType] ?? null } };
}
