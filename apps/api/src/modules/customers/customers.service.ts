import {
  ACTIVITY_PAGE_SIZE,
  criterionOf,
  LOGIN_SESSIONS_SHOWN,
  SEARCH_COUNT_LIMIT,
  SEARCH_MESSAGES,
  type SearchCriterion,
  type searchCustomerQuery,
} from '@sac/contract/customers';
import { sortParam } from '@sac/contract/list-sort';
import type { SiteScope } from '@sac/contract/role-scopes';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { recordVersion } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { maskConnectionString } from '../../lib/field-crypto.ts';
import { isoOrNull } from '../../lib/iso.ts';
import {
  ANY_TEXT,
  BOOLEAN,
  count,
  decodeCursor,
  encodeCursor,
  literal,
  oneOf,
  type PartRule,
  text,
} from '../../lib/keyset-cursor.ts';
import { Versioned } from '../../lib/record-version.ts';
import { customerIsInScope, outOfScope } from '../../lib/site-scope.ts';
import { searchCounted } from './customer-search.repo.ts';
import {
  type CustomerRow,
  customerActivity,
  customerRoleCatalogue,
  dataCenterCatalogue,
  featureCatalogue,
  findCustomer,
  ownedSites,
  recentLogins,
  type SiteRow,
  sharedSites,
  siteCounts,
  siteOfCustomer,
} from './customers.repo.ts';
import {
  type CustomerSort,
  NAME_TIERS,
  type SearchCount,
  type SearchPosition,
  type SearchRow,
  SORT_TIME_TEXT,
  UUID_PATTERN,
} from './search-sql.ts';

export const NO_SUCH_CUSTOMER = 'There is no customer with that uid.';
const NO_SUCH_SITE = 'This customer has no site with that appId.';

/** A customer as the search lists them (and its export writes them). */
export function summary(c: SearchRow) {
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
 * A search cursor: base64url of [criterion, tier, sort key, uid, total, capped], and the sort
 * (`sort` as sent) when the list is sorted. It is opaque to clients; the criterion and the sort in
 * it keep a cursor of one search or order from being read as a position in another, and the first
 * page's count rides along, so later pages answer the same Total without counting again (and a
 * name search keeps the plan the count chose).
 */
function cursorOf(
  criterion: SearchCriterion,
  sort: CustomerSort | undefined,
  at: SearchPosition | undefined,
  count: SearchCount,
): string {
  if (!at) return '';
  return encodeCursor([
    criterion,
    at.tier,
    at.key,
    at.uid,
    count.total,
    count.capped,
    ...(sort ? [sortParam(sort)] : []),
  ]);
}

/** A time sort's key is a UTC instant with microseconds, as the database wrote it. */
const TIME_KEY: PartRule<string> = {
  test: (k): k is string =>
    typeof k === 'string' && SORT_TIME_TEXT.test(k) && !Number.isNaN(Date.parse(k.slice(0, 23))),
};
const UID = text(UUID_PATTERN);
const TOTAL = count(SEARCH_COUNT_LIMIT);

function positionOf(
  criterion: SearchCriterion,
  sort: CustomerSort | undefined,
  cursor: string | undefined,
): { at: SearchPosition; count: SearchCount } | undefined {
  if (!cursor) return undefined;
  const { badCursor: message } = SEARCH_MESSAGES;
  const [, tier, key, uid, total, capped] = sort
    ? decodeCursor(
        cursor,
        [
          literal(criterion),
          literal(0),
          sort.key === 'name' ? ANY_TEXT : TIME_KEY,
          UID,
          TOTAL,
          BOOLEAN,
          literal(sortParam(sort)),
        ],
        message,
      )
    : decodeCursor(
        cursor,
        [literal(criterion), oneOf(Object.values(NAME_TIERS)), ANY_TEXT, UID, TOTAL, BOOLEAN],
        message,
      );
  return { at: { tier, key, uid: uid.toLowerCase() }, count: { total, capped } };
}

/** One page of a search; 927 when nothing matches at all (a later page may be empty: 200). */
export async function search(
  ctx: AppContext,
  q: z.output<typeof searchCustomerQuery>,
  scope: readonly SiteScope[] | undefined,
) {
  const { criterion, term } = criterionOf(q);
  const from = positionOf(criterion, q.sort, q.cursor);
  const page = await searchCounted(ctx.db, criterion, term, from, SEARCH_COUNT_LIMIT, {
    sort: q.sort,
    ...(scope ? { scope } : {}),
  });
  if (page.rows.length === 0 && !from) throw new AppError('notFound');
  return {
    Data: page.rows.map(summary),
    Criterion: criterion,
    Capped: page.count.capped,
    Limit: SEARCH_COUNT_LIMIT,
    Total: page.count.total,
    NextCursor: cursorOf(criterion, q.sort, page.next, page.count),
  };
}

/** The customer with this uid; 404 when there is none. */
async function customer(ctx: AppContext, uid: string): Promise<CustomerRow> {
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
  return new Versioned(profileOf(c), c.version);
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

/** The account; a scoped caller's site counts are of the sites in their scope. */
export async function account(ctx: AppContext, uid: string, scope?: readonly SiteScope[]) {
  const c = await customer(ctx, uid);
  const [last] = await recentLogins(ctx.db, uid, 1);
  const counts = await siteCounts(ctx.db, uid, scope);
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

export async function activity(ctx: AppContext, uid: string, cursor: number, scope?: readonly SiteScope[]) {
  await customer(ctx, uid);
  const page = await customerActivity(ctx.db, uid, cursor, ACTIVITY_PAGE_SIZE, scope);
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

/**
 * A customer's sites. A scoped caller (role-scopes.ts) is refused a customer outside the scope
 * (403, as an unknown one: the same one statement as the unscoped 404's read) and is listed the
 * sites in it alone.
 */
export async function apps(
  ctx: AppContext,
  uid: string,
  which: 'owned' | 'shared' | 'all',
  scope: readonly SiteScope[] | undefined,
) {
  if (!scope) await customer(ctx, uid);
  else if (!(await customerIsInScope(ctx.db, scope, uid))) throw outOfScope('a customer in scope');
  const owned = which === 'shared' ? [] : await ownedSites(ctx.db, uid, scope);
  const shared = which === 'owned' ? [] : await sharedSites(ctx.db, uid, scope);
  return { Data: [...owned, ...shared].map(siteOut) };
}

async function siteOf(ctx: AppContext, uid: string, appId: number) {
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
      DataCenterName: s.data_center_name,
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
  return new Versioned(
    { Data: { appId: Number(s.app_id), Features: s.features } },
    await recordVersion(ctx.db, siteFeaturesRecord(appId)),
  );
}

export async function siteDataCenter(ctx: AppContext, uid: string, appId: number) {
  const s = await siteOf(ctx, uid, appId);
  const c = await dataCenterCatalogue(ctx.db);
  return new Versioned(
    {
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
    await recordVersion(ctx.db, siteDataCenterRecord(appId)),
  );
}

export async function siteBasicSettings(ctx: AppContext, uid: string, appId: number) {
  const s = await siteOf(ctx, uid, appId);
  return new Versioned(basicSettingsOf(s), s.version);
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
