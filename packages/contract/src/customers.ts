import { z } from 'zod';
import { CUSTOMER_SORT_KEYS, sortQueryField } from './list-sort.ts';
import { decimalInteger } from './validation.ts';

/**
 * The search criteria of spec section 7 and ours (phone, uid), in the console's field order; one
 * is used at a time.
 */
export const SEARCH_CRITERIA = [
  'customerName',
  'emailid',
  'apikey',
  'sitename',
  'phone',
  'uid',
  'apisecret',
] as const;
export type SearchCriterion = (typeof SEARCH_CRITERIA)[number];

/** Customers per search answer; NextCursor fetches the next ones. */
export const SEARCH_PAGE_SIZE = 50;
/**
 * An answer's Total is exact up to this many customers; past it the answer says "more than" it
 * (Capped). Counting stops there, so a term matching 300,000 customers costs what one matching
 * 1,001 does (bench/search.bench.ts).
 */
export const SEARCH_COUNT_LIMIT = 1000;
/** Customer exports one instance streams at once; more are refused (429) until one ends. */
export const CUSTOMER_EXPORTS_AT_ONCE = 2;
/**
 * The most customers one export writes; a search matching more is refused (400): narrow it. The
 * file streams in bounded memory at any size, but a one-click copy of a million customers'
 * addresses is a leak waiting to happen, and the exact x-export-rows counts up to this bound.
 */
export const CUSTOMER_EXPORT_ROW_LIMIT = 50_000;
/** Substring search starts at this many characters; shorter terms match as a prefix. */
export const SUBSTRING_MIN_LENGTH = 3;
/** Activity log page size (the spec leaves it open). */
export const ACTIVITY_PAGE_SIZE = 20;
/** How many recent sign-ins the last-login panel shows. */
export const LOGIN_SESSIONS_SHOWN = 10;

export const SEARCH_MESSAGES = {
  oneCriterion: 'Please search by one criterion at a time.',
  noCriterion:
    'Please enter a customer name, email address, API key, site name, phone number, UID or API secret to search.',
  badCursor: 'The cursor is not valid. Start the search again.',
  badUid: 'A UID is 36 characters: 8-4-4-4-12 hexadecimal digits.',
  badPhone: 'A phone number has digits, and may start with + and hold spaces, dashes, dots or brackets.',
  exportTooMany: `This search matches more than ${CUSTOMER_EXPORT_ROW_LIMIT.toLocaleString('en-US')} customers. Narrow it down to export it.`,
  exportBusy: 'Two customer exports are already running. Please try again when one has finished.',
} as const;

/**
 * A phone number's search key: its digits, with '+' in front when it starts with '+'
 * ("+1 (202) 555-0143" -> "+12025550143"). The API matches it against the same normal form of the
 * stored numbers (migration 0037), exactly or as a prefix; undefined when the term is not a phone
 * number.
 */
export function phoneSearchKey(term: string): string | undefined {
  const t = term.trim();
  if (!/^\+?[\d\s().-]+$/.test(t)) return undefined;
  const digits = t.replace(/\D/g, '');
  if (digits === '') return undefined;
  return (t.startsWith('+') ? '+' : '') + digits;
}

const UID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const term = z.string().trim().max(320, 'The search term is too long.');

/** The criterion fields of a search, of its export and of a bulk selection of all it matches. */
export const searchCriterionShape = {
  customerName: term.optional(),
  emailid: term.optional(),
  apikey: term.optional(),
  sitename: term.optional(),
  apisecret: term.optional(),
  /** Exact match of the customer's UID. */
  uid: term.optional(),
  /** Digits with an optional leading '+' (separators ignored): exact or prefix. */
  phone: term.optional(),
};

/** The criterion fields and the list order (`sort`): a search's, and its export's (customer-export.ts). */
export const searchShape = {
  ...searchCriterionShape,
  /**
   * name, created or modified (Customer Name, Created Date, Modified Date), '-' first for
   * descending; ties by uid. Absent: the criterion's own order (a name search's rank).
   */
  sort: sortQueryField(CUSTOMER_SORT_KEYS),
};

/** Exactly one criterion filled, and a UID or phone number that is one. */
export function oneCriterion(q: { [K in SearchCriterion]?: string | undefined }, ctx: z.RefinementCtx) {
  const filled = SEARCH_CRITERIA.filter((c) => (q[c] ?? '') !== '');
  if (filled.length === 0) ctx.addIssue({ code: 'custom', message: SEARCH_MESSAGES.noCriterion, path: [] });
  if (filled.length > 1) ctx.addIssue({ code: 'custom', message: SEARCH_MESSAGES.oneCriterion, path: [] });
  if (q.uid && !UID_TEXT.test(q.uid))
    ctx.addIssue({ code: 'custom', message: SEARCH_MESSAGES.badUid, path: ['uid'] });
  if (q.phone && phoneSearchKey(q.phone) === undefined)
    ctx.addIssue({ code: 'custom', message: SEARCH_MESSAGES.badPhone, path: ['phone'] });
}

/** GET /admin/searchcustomer: exactly one criterion filled. */
export const searchCustomerQuery = z
  .object({
    ...searchShape,
    /** NextCursor of the previous answer (same criterion and sort); absent or '' for the first page. */
    cursor: z.string().max(2000, SEARCH_MESSAGES.badCursor).optional(),
  })
  .superRefine(oneCriterion);

/** The export's columns, in order: the list's, with the UID and email. */
export const CUSTOMER_EXPORT_COLUMNS = [
  'Uid',
  'Customer Name',
  'Email',
  'Status',
  'Role',
  'Created Date',
  'Modified Date',
] as const;

/** The one criterion of a valid search query, and its term. */
export function criterionOf(q: { [K in SearchCriterion]?: string | undefined }): {
  criterion: SearchCriterion;
  term: string;
} {
  const criterion = SEARCH_CRITERIA.find((c) => (q[c] ?? '') !== '')!;
  return { criterion, term: q[criterion]! };
}

/** LIKE metacharacters in user input match themselves. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const isoDate = z.string();
const uid = z.string().uuid('uid is not a valid customer id.');
const appId = decimalInteger(
  z
    .number({ error: 'appId must be a number.' })
    .int('appId must be a number.')
    .positive('appId must be a number.'),
);

const customerSummary = z.object({
  Uid: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  FullName: z.string(),
  Email: z.string(),
  Status: z.string(),
  Role: z.string(),
  CreatedDate: isoDate,
  ModifiedDate: isoDate,
});
export type CustomerSummary = z.infer<typeof customerSummary>;

export const searchCustomerResponse = z.object({
  /**
   * At most SEARCH_PAGE_SIZE customers. A name search ranks the exact name first, then names that
   * start with the term, then names that hold it elsewhere; within each, by name, then uid. Email
   * by address, phone by number, then uid. Under `sort`, every match by that key, then uid. The
   * same query answers the same pages every time.
   */
  Data: z.array(customerSummary),
  Criterion: z.enum(SEARCH_CRITERIA),
  /** True when more than Limit customers match: Total is then Limit, a floor ("more than"). */
  Capped: z.boolean(),
  /** How far Total is counted exactly: SEARCH_COUNT_LIMIT. */
  Limit: z.number().int(),
  /** How many customers match in all pages, exact up to Limit (counted at the first page). */
  Total: z.number().int(),
  /** Pass as `cursor` with the same criterion for the next customers; '' when there are none. */
  NextCursor: z.string(),
});

export const uidQuery = z.object({ uid });
export const activityLogsQuery = z.object({
  uid,
  cursor: decimalInteger(z.number({ error: 'cursor must be a number.' }).int().min(0)).default(0),
});
/** GET /admin/appbyid and /admin/appinfobyid: the spec's {uId, appId}. */
export const appByIdQuery = z.object({ uId: uid, appId });
/** GET /admin/site/datacenter and /admin/site/feature. */
export const siteByUserQuery = z.object({ userId: uid, appId });
/** GET /admin/site/basicsettings. */
export const siteBasicSettingsQuery = z.object({ uID: uid, appId });

export const PLANS = ['Free', 'Developer', 'Developer Premium'] as const;
const PLAN_STATUSES = ['Trial', 'Subscribed'] as const;

const site = z.object({
  appId: z.number().int(),
  AppName: z.string(),
  ApiKey: z.string(),
  /** The owner's uid. */
  uid: z.string(),
  Status: z.enum(['active', 'inactive']),
  Plan: z.enum(PLANS),
  /** The customer's role on the site: Owner for owned sites, the customer role for shared ones. */
  Role: z.string(),
  CreatedDate: isoDate,
});
export type Site = z.infer<typeof site>;
export const sitesResponse = z.object({ Data: z.array(site) });

const siteInfo = site.extend({
  PlanStatus: z.enum(PLAN_STATUSES),
  TrialEndsAt: isoDate.nullable(),
  Billing: z.string(),
  DataCenter: z.string().nullable(),
  /** The data center's name ("EU West (Ireland)"); null without a data center or for a code no longer listed. */
  DataCenterName: z.string().nullable(),
  GlobalServer: z.string().nullable(),
  Database: z.object({
    Name: z.string(),
    Custom: z.boolean(),
    /** A custom database's connection string with its credentials masked; never whole. */
    ConnectionString: z.string().nullable(),
  }),
  Features: z.array(z.string()),
  ProductionUrl: z.string(),
  StagingUrl: z.string(),
  ModifiedDate: isoDate,
  OwnerEmail: z.string(),
});
export type SiteInfo = z.infer<typeof siteInfo>;
export const siteResponse = z.object({ Data: site });
export const siteInfoResponse = z.object({ Data: siteInfo });

const customerProfile = z.object({
  Uid: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string(),
  Organization: z.string(),
  PhoneNumber: z.string(),
  AuthEmail: z.string(),
  ContactEmail: z.string(),
  TimeZone: z.string(),
  Status: z.string(),
  Role: z.string(),
  EmailVerified: z.boolean(),
  CreatedDate: isoDate,
  ModifiedDate: isoDate,
});
export type CustomerProfile = z.infer<typeof customerProfile>;
export const customerProfileResponse = z.object({ Data: customerProfile });

/** The account side of a customer: identity, creation (UTC), time zone and the last sign-in. */
const userProfile = z.object({
  Uid: z.string(),
  Email: z.string(),
  AuthEmail: z.string(),
  Status: z.string(),
  Role: z.string(),
  EmailVerified: z.boolean(),
  TimeZone: z.string(),
  CreatedDate: isoDate,
  LastLoginDate: isoDate.nullable(),
  OwnedSites: z.number().int(),
  SharedSites: z.number().int(),
});
export const userProfileResponse = z.object({ Data: userProfile });

const loginSession = z.object({
  AccessType: z.string(),
  Browser: z.string(),
  ClientAddress: z.string(),
  Location: z.string(),
  LoginDate: isoDate,
});
export const loginSessionsResponse = z.object({ Data: z.array(loginSession) });

const activityEntry = z.object({
  Id: z.number().int(),
  Action: z.string(),
  ActorEmail: z.string().nullable(),
  ClientAddress: z.string().nullable(),
  Date: isoDate,
  Details: z.record(z.string(), z.unknown()),
});
export const activityLogsResponse = z.object({
  Data: z.array(activityEntry),
  /** Pass as `cursor` for the next (older) page; 0 when there is none. */
  NextCursor: z.number().int(),
});

const featureItem = z.object({ Key: z.string(), Name: z.string(), Description: z.string() });
const featureSet = z.object({ Name: z.string(), Features: z.array(z.string()) });
export const featuresResponse = z.object({
  Data: z.object({ Features: z.array(featureItem), FeatureSets: z.array(featureSet) }),
});
export const siteFeaturesResponse = z.object({
  Data: z.object({ appId: z.number().int(), Features: z.array(z.string()) }),
});

const dataCenter = z.object({ Code: z.string(), Name: z.string(), Region: z.string() });
const globalServer = z.object({ Code: z.string(), Name: z.string(), DataCenter: z.string() });
export const siteDataCenterResponse = z.object({
  Data: z.object({
    DataCenters: z.array(dataCenter),
    GlobalServers: z.array(globalServer),
    Current: z.object({
      DataCenter: z.string().nullable(),
      GlobalServer: z.string().nullable(),
      DbName: z.string(),
      CustomDb: z.boolean(),
    }),
  }),
});

export const siteBasicSettingsResponse = z.object({
  Data: z.object({
    appId: z.number().int(),
    AppName: z.string(),
    ProductionUrl: z.string(),
    StagingUrl: z.string(),
    Plan: z.enum(PLANS),
    PlanStatus: z.enum(PLAN_STATUSES),
    TrialEndsAt: isoDate.nullable(),
    Billing: z.string(),
    Status: z.enum(['active', 'inactive']),
  }),
});

const customerRole = z.object({ Name: z.string(), Permissions: z.record(z.string(), z.boolean()) });
export const customerRolesResponse = z.object({ Data: z.array(customerRole) });

/** Plan display of spec section 3: 'Trial active till <date>', 'Trial expired on <date>' or 'Subscribed'. */
export function planStatusText(
  planStatus: 'Trial' | 'Subscribed',
  trialEndsAt: string | null,
  now: Date,
): string {
  if (planStatus === 'Subscribed' || !trialEndsAt) return 'Subscribed';
  const end = new Date(trialEndsAt);
  const d = `${String(end.getUTCMonth() + 1).padStart(2, '0')}-${String(end.getUTCDate()).padStart(2, '0')}-${end.getUTCFullYear()}`;
  return end > now ? `Trial active till ${d}` : `Trial expired on ${d}`;
}

export const customerCreatedResponse = z.object({
  Data: z.object({ Customer: customerProfile, Site: site, ApiSecret: z.string() }),
});
export const siteCreatedResponse = z.object({ Data: z.object({ Site: site, ApiSecret: z.string() }) });
