import {
  ACTIVITY_PAGE_SIZE,
  criterionOf,
  LOGIN_SESSIONS_SHOWN,
  SEARCH_COUNT_LIMIT,
  SEARCH_MESSAGES,
  type SearchCriterion,
  SITE_SEARCH_CAP,
  type searchCustomerQuery,
} from '@sac/contract/customers';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { recordVersion } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { maskConnectionString } from '../../lib/field-crypto.ts';
import { isoOrNull } from '../../lib/iso.ts';
import {
  type CustomerRow,
  customerActivity,
  customerRoleCatalogue,
  dataCenterCatalogue,
  featureCatalogue,
  findCustomer,
  NAME_TIERS,
  ownedSites,
  recentLogins,
  type SearchCount,
  type SearchPosition,
  type SearchRow,
  type SiteRow,
  searchCounted,
  sharedSites,
  siteCounts,
  siteOfCustomer,
  UUID_PATTERN,
} from './customers.repo.ts';

const NO_SUCH_CUSTOMER = 'There is no customer with that uid.';
const NO_SUCH_SITE = 'This customer has no site with that appId.';

function summary(c: SearchRow) {
  return {
    Uid: c.uid,
    FirstName: c.first_name,
    LastName: c.last_name,
    FullName: `${c.first_name} ${c.last_name}`.trim(),
    Email: c.email,
    Status: c.status,
    Role: c.role,
    CreatedDate: c.created_at,
    ModifiedDate: c.modified_at,
  };
}

/**
 * A search cursor: base64url of [criterion, tier, sort key, uid, total, capped]. It is opaque to
 * clients; the criterion in it keeps a cursor from one kind of search from being read as a
 * position in another, and the first page's count rides along, so later pages answer the same
 * Total without counting again (and a name search keeps the plan the count chose).
 */
function encodeCursor(
  criterion: SearchCriterion,
  at: SearchPosition | undefined,
  count: SearchCount,
): string {
  return at
    ? Buffer.from(JSON.stringify([criterion, at.tier, at.key, at.uid, count.total, count.capped])).toString(
        'base64url',
      )
    : '';
}

const isCount = (n: unknown): n is number =>
  Number.isInteger(n) && (n as number) >= 0 && (n as number) <= SEARCH_COUNT_LIMIT;

function decodeCursor(
  criterion: SearchCriterion,
  cursor: string | undefined,
): { at: SearchPosition; count: SearchCount } | undefined {
  if (!cursor) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = undefined;
  }
  if (
    !Array.isArray(v) ||
    v.length !== 6 ||
    v[0] !== criterion ||
    !Object.values(NAME_TIERS).includes(v[1]) ||
    typeof v[2] !== 'string' ||
    typeof v[3] !== 'string' ||
    !UUID_PATTERN.test(v[3]) ||
    !isCount(v[4]) ||
    typeof v[5] !== 'boolean'
  ) {
    throw new AppError('validation', SEARCH_MESSAGES.badCursor, [
      { Field: 'cursor', Message: SEARCH_MESSAGES.badCursor },
    ]);
  }
  return { at: { tier: v[1], key: v[2], uid: v[3].toLowerCase() }, count: { total: v[4], capped: v[5] } };
}

/** One page of a search; 927 when nothing matches at all (a later page may be empty: 200). */
export async function search(ctx: AppContext, q: z.output<typeof searchCustomerQuery>) {
  const { criterion, term } = criterionOf(q);
  const from = decodeCursor(criterion, q.cursor);
  const page = await searchCounted(ctx.db, criterion, term, from);
  if (page.rows.length === 0 && !from) throw new AppError('notFound');
  return {
    Data: page.rows.map(summary),
    Criterion: criterion,
    Capped: page.count.capped,
    Limit: criterion === 'sitename' ? SITE_SEARCH_CAP : SEARCH_COUNT_LIMIT,
    Total: page.count.total,
    NextCursor: encodeCursor(criterion, page.next, page.count),
  };
}

/** The customer with this uid; 404 when there is none. */
export async function customer(ctx: AppContext, uid: string): Promise<CustomerRow> {
  const c = await findCustomer(ctx.db, uid);
  if (!c) throw new AppError('notFound', NO_SUCH_CUSTOMER);
  return c;
}

export async function profile(ctx: AppContext, uid: string) {
  return profileOf(await customer(ctx, uid));
}

/** The profile with the version it was read at (answered as the ETag). */
export async function versionedProfile(ctx: AppContext, uid: string) {
  const c = await customer(ctx, uid);
  return { body: profileOf(c), version: c.version };
}

function profileOf(c: CustomerRow) {
  return {
    Data: {
      Uid: c.uid,
      FirstName: c.first_name,
      LastName: c.last_name,
      Email: c.email,
      Organization: c.organization,
      PhoneNumber: c.phone,
      AuthEmail: c.auth_email,
      ContactEmail: c.contact_email,
      TimeZone: c.time_zone,
      Status: c.status,
      Role: c.role,
      EmailVerified: c.email_verified,
      CreatedDate: isoOrNull(c.created_at)!,
      ModifiedDate: isoOrNull(c.modified_at)!,
    },
  };
}

export async function account(ctx: AppContext, uid: string) {
  const c = await customer(ctx, uid);
  const [last] = await recentLogins(ctx.db, uid, 1);
  const counts = await siteCounts(ctx.db, uid);
  return {
    Data: {
      Uid: c.uid,
      Email: c.email,
      AuthEmail: c.auth_email,
      Status: c.status,
      Role: c.role,
      EmailVerified: c.email_verified,
      TimeZone: c.time_zone,
      CreatedDate: isoOrNull(c.created_at)!,
      LastLoginDate: isoOrNull(last?.at ?? null),
      OwnedSites: counts.owned,
      SharedSites: counts.shared,
    },
  };
}

export async function loginSessions(ctx: AppContext, uid: string) {
  await customer(ctx, uid);
  const rows = await recentLogins(ctx.db, uid, LOGIN_SESSIONS_SHOWN);
  return {
    Data: rows.map((r) => ({
      AccessType: r.access_type,
      Browser: r.browser,
      ClientAddress: r.client_address,
      Location: r.location,
      LoginDate: isoOrNull(r.at)!,
    })),
  };
}

export async function activity(ctx: AppContext, uid: string, cursor: number) {
  await customer(ctx, uid);
  const page = await customerActivity(ctx.db, uid, cursor, ACTIVITY_PAGE_SIZE);
  return {
    Data: page.rows.map((r) => ({
      Id: Number(r.id),
      Action: r.action,
      ActorEmail: r.actor_email,
      ClientAddress: r.client_address,
      Date: isoOrNull(r.at)!,
      Details: r.details ?? {},
    })),
    NextCursor: page.nextCursor,
  };
}

function siteOut(s: SiteRow) {
  return {
    appId: Number(s.app_id),
    AppName: s.app_name,
    ApiKey: s.api_key,
    uid: s.owner_uid,
    Status: s.status,
    Plan: s.plan,
    Role: s.member_role,
    CreatedDate: isoOrNull(s.created_at)!,
  };
}

export async function apps(ctx: AppContext, uid: string, which: 'owned' | 'shared' | 'all') {
  await customer(ctx, uid);
  const owned = which === 'shared' ? [] : await ownedSites(ctx.db, uid);
  const shared = which === 'owned' ? [] : await sharedSites(ctx.db, uid);
  return { Data: [...owned, ...shared].map(siteOut) };
}

async function siteOf(ctx: AppContext, uid: string, appId: number): Promise<SiteRow> {
  await customer(ctx, uid);
  const s = await siteOfCustomer(ctx.db, uid, appId);
  if (!s) throw new AppError('notFound', NO_SUCH_SITE);
  return s;
}

export async function appById(ctx: AppContext, uid: string, appId: number) {
  return { Data: siteOut(await siteOf(ctx, uid, appId)) };
}

export async function appInfoById(ctx: AppContext, uid: string, appId: number) {
  const s = await siteOf(ctx, uid, appId);
  let connection: string | null = null;
  if (s.custom_db_conn) {
    try {
      connection = maskConnectionString(ctx.crypto.decrypt(s.custom_db_conn));
    } catch {
      connection = '(cannot be read with this server’s key)';
    }
  }
  return {
    Data: {
      ...siteOut(s),
      PlanStatus: s.plan_status,
      TrialEndsAt: isoOrNull(s.trial_ends_at),
      Billing: s.billing,
      DataCenter: s.data_center,
      GlobalServer: s.global_server,
      Database: { Name: s.db_name, Custom: s.custom_db_conn !== null, ConnectionString: connection },
      Features: s.features,
      ProductionUrl: s.production_url,
      StagingUrl: s.staging_url,
      ModifiedDate: isoOrNull(s.modified_at)!,
      OwnerEmail: s.owner_email,
    },
  };
}

export async function features(ctx: AppContext) {
  const c = await featureCatalogue(ctx.db);
  return {
    Data: {
      Features: c.features.map((f) => ({ Key: f.key, Name: f.name, Description: f.description })),
      FeatureSets: c.sets.map((s) => ({ Name: s.name, Features: s.features })),
    },
  };
}

/**
 * The records whose versions guard a site's features and its data center (wizard steps 3 and 4),
 * apart from the site row's version (web apps and plan), so saving one step never makes another
 * step's form stale.
 */
export const siteFeaturesRecord = (appId: number) => `site:${appId}:features`;
export const siteDataCenterRecord = (appId: number) => `site:${appId}:data-center`;

export async function siteFeatures(ctx: AppContext, uid: string, appId: number) {
  const s = await siteOf(ctx, uid, appId);
  return {
    body: { Data: { appId: Number(s.app_id), Features: s.features } },
    version: await recordVersion(ctx.db, siteFeaturesRecord(appId)),
  };
}

export async function siteDataCenter(ctx: AppContext, uid: string, appId: number) {
  const s = await siteOf(ctx, uid, appId);
  const c = await dataCenterCatalogue(ctx.db);
  return {
    version: await recordVersion(ctx.db, siteDataCenterRecord(appId)),
    body: {
      Data: {
        DataCenters: c.centers.map((d) => ({ Code: d.code, Name: d.name, Region: d.region })),
        GlobalServers: c.servers.map((g) => ({ Code: g.code, Name: g.name, DataCenter: g.data_center })),
        Current: {
          DataCenter: s.data_center,
          GlobalServer: s.global_server,
          DbName: s.db_name,
          CustomDb: s.custom_db_conn !== null,
        },
      },
    },
  };
}

export async function siteBasicSettings(ctx: AppContext, uid: string, appId: number) {
  const s = await siteOf(ctx, uid, appId);
  return { body: basicSettingsOf(s), version: s.version };
}

function basicSettingsOf(s: SiteRow) {
  return {
    Data: {
      appId: Number(s.app_id),
      AppName: s.app_name,
      ProductionUrl: s.production_url,
      StagingUrl: s.staging_url,
      Plan: s.plan,
      PlanStatus: s.plan_status,
      TrialEndsAt: isoOrNull(s.trial_ends_at),
      Billing: s.billing,
      Status: s.status,
    },
  };
}

export async function customerRoles(ctx: AppContext) {
  const roles = await customerRoleCatalogue(ctx.db);
  return { Data: roles.map((r) => ({ Name: r.name, Permissions: r.permissions })) };
}
