import type { Readable } from 'node:stream';
import {
  ACTIVITY_PAGE_SIZE,
  CUSTOMER_EXPORT_COLUMNS,
  CUSTOMER_EXPORT_ROW_LIMIT,
  criterionOf,
  LOGIN_SESSIONS_SHOWN,
  SEARCH_COUNT_LIMIT,
  SEARCH_MESSAGES,
  type SearchCriterion,
  type searchCustomerExportQuery,
  type searchCustomerQuery,
} from '@sac/contract/customers';
import { sortParam } from '@sac/contract/list-sort';
import type { SiteScope } from '@sac/contract/role-scopes';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { recordVersion } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { csvFile, exportReading, fileStamp } from '../../lib/csv.ts';
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
import { recordEvent } from '../activity/activity.service.ts';
import { matchesInOrder, rowsOfUids, searchCounted, searchCustomers } from './customer-search.repo.ts';
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
import { countMatches } from './search-counts.repo.ts';
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

/** Rows an export reads per query: large enough to stream fast, small enough to interleave. */
const EXPORT_BATCH = 2000;

/**
 * Every customer a search matches, as CSV in the order its list shows them (under `sort`), read in
 * batches and streamed: its header names the columns, and x-export-rows how many rows follow. A
 * name, email or phone search in a list order (and a name in its own) reads its matches' uids in
 * that order in one statement, then their rows a batch at a time (matchesInOrder); the others walk
 * their index in keyset batches. On PostgreSQL every statement reads one snapshot, so a customer
 * renamed or added while the file streams is neither listed twice nor missed (consistentReader).
 * Refused past CUSTOMER_EXPORT_ROW_LIMIT matches. The export is recorded in the trail with its
 * criterion, sort and row count, not its term (a name, an address or a phone number: personal data
 * the trail would keep for ever, append-only).
 */
export async function exportSearch(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  q: z.output<typeof searchCustomerExportQuery>,
  release: () => void,
): Promise<{ rows: number; body: Readable; filename: string }> {
  const { criterion, term } = criterionOf(q);
  const sort = q.sort;
  return exportReading(ctx.db, release, async (db, end) => {
    const source = await exportSource(db, criterion, term, sort, actor.scope);
    const rows = source.rows;
    const exportedAt = ctx.clock.now().toISOString();
    // An event, not a change: the export changes no record, so there is nothing to lock and no
    // change to keep with its trail row. One statement of its own (on ctx.db, outside the
    // export's read-only snapshot), so not a write of the write path.
    await recordEvent(ctx.db, {
      at: new Date(exportedAt),
      action: 'customers.export',
      actorUid: actor.uid,
      actorEmail: actor.email,
      clientAddress: caller.clientAddress,
      details: { criterion, sort: sort ? sortParam(sort) : null, rows },
    });
    const body = csvFile({
      header: CUSTOMER_EXPORT_COLUMNS,
      page: source.page,
      line: (r) => {
        const c = summary(r);
        return [c.Uid, c.FullName, c.Email, c.Status, c.Role, c.CreatedDate, c.ModifiedDate];
      },
      release: end,
    });
    const stamp = fileStamp(new Date(exportedAt));
    return { rows, body, filename: `customers-${criterion}-${stamp}.csv` };
  });
}

type ExportPage = (
  cursor: SearchPosition | number | undefined,
) => Promise<{ rows: readonly SearchRow[]; next: SearchPosition | number | undefined }>;

/**
 * An export's row count and batches; refused past CUSTOMER_EXPORT_ROW_LIMIT matches. Where the
 * list sorts its matches (any list order, a name's substring tier), their uids are read once in
 * order, which is also the count, and a batch is the rows of the next EXPORT_BATCH of them. Where
 * the list walks an index in its order (an email or phone unsorted, a site name, a unique key),
 * a batch is the next page of that walk.
 */
async function exportSource(
  db: Queryable,
  criterion: SearchCriterion,
  term: string,
  sort: CustomerSort | undefined,
  scope: readonly SiteScope[] | undefined,
): Promise<{ rows: number; page: ExportPage }> {
  if (criterion === 'customerName' || (sort && (criterion === 'emailid' || criterion === 'phone'))) {
    const uids = await matchesInOrder(db, criterion, term, sort, CUSTOMER_EXPORT_ROW_LIMIT + 1, scope);
    if (uids.length > CUSTOMER_EXPORT_ROW_LIMIT)
      throw new AppError('validation', SEARCH_MESSAGES.exportTooMany);
    return {
      rows: uids.length,
      page: async (cursor) => {
        const from = typeof cursor === 'number' ? cursor : 0;
        const to = from + EXPORT_BATCH;
        const rows = uids.length > from ? await rowsOfUids(db, uids.slice(from, to)) : [];
        return { rows, next: to < uids.length ? to : undefined };
      },
    };
  }
  const count = await countMatches(db, criterion, term, CUSTOMER_EXPORT_ROW_LIMIT, scope);
  if (count.capped) throw new AppError('validation', SEARCH_MESSAGES.exportTooMany);
  // The list's plan for this term (its count stops at SEARCH_COUNT_LIMIT).
  const many = count.total > SEARCH_COUNT_LIMIT;
  return {
    rows: count.total,
    page: (cursor) =>
      searchCustomers(db, criterion, term, typeof cursor === 'number' ? undefined : cursor, {
        sort,
        many,
        pageSize: EXPORT_BATCH,
        ...(scope ? { scope } : {}),
      }),
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
