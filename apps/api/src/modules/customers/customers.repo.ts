import {
  escapeLike,
  SEARCH_PAGE_SIZE,
  SEARCH_RESULT_CAP,
  type SearchCriterion,
  SUBSTRING_MIN_LENGTH,
} from '@sac/contract/customers';
import { prepared, type Queryable } from '../../db/db.ts';
import { hashSecret } from '../../lib/secrets.ts';

export interface CustomerRow {
  uid: string;
  first_name: string;
  last_name: string;
  email: string;
  organization: string;
  phone: string;
  auth_email: string;
  contact_email: string;
  time_zone: string;
  status: string;
  role: string;
  email_verified: boolean;
  created_at: Date;
  modified_at: Date;
  /** Raised by each profile write (If-Match / ETag). */
  version: number;
}

const CUSTOMER_COLUMNS = `c.uid, c.first_name, c.last_name, c.email, c.organization, c.phone, c.auth_email,
  c.contact_email, c.time_zone, c.status, c.role, c.email_verified, c.created_at, c.modified_at,
  c.version::int AS version`;

/** An ISO-8601 UTC text of a timestamp, made by the database: cheaper than Date objects per row. */
const isoText = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * What a search answer shows, as text: moving fewer, simpler columns is what 200 rows cost on
 * PGlite (bench/search.bench.ts).
 */
export interface SearchRow {
  uid: string;
  first_name: string;
  last_name: string;
  email: string;
  status: string;
  role: string;
  created_at: string;
  modified_at: string;
}
const SEARCH_COLUMNS = `c.uid::text AS uid, c.first_name, c.last_name, c.email, c.status, c.role,
  ${isoText('c.created_at')} AS created_at, ${isoText('c.modified_at')} AS modified_at`;

/** The expression the name trigram index is built on; queries must use it verbatim to hit it. */
const NAME_EXPR = "lower(c.first_name || ' ' || c.last_name)";
/**
 * The same text as NAME_EXPR, as the name prefix index (migration 0024) is built on: an
 * expression of its own, so prefix searches are planned with that index's small statistics.
 */
const NAME_PREFIX_EXPR = "(lower(c.first_name) || ' ' || lower(c.last_name))";
/** The expression of the site-name trigram index (migration 0022): '-' read as a letter. */
const SITE_TRGM_EXPR = "translate(lower(s.app_name), '-', 'q')";
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Name and site-name terms shorter than SUBSTRING_MIN_LENGTH match as a prefix. */
const isPrefixTerm = (term: string) => term.length < SUBSTRING_MIN_LENGTH;

/** A LIKE pattern: substring from SUBSTRING_MIN_LENGTH characters, prefix below. */
function namePattern(term: string): string {
  const t = escapeLike(term.toLowerCase());
  return isPrefixTerm(term) ? `${t}%` : `%${t}%`;
}

/** Where the previous page of a search ended: its last row's sort key and uid. */
export interface SearchPosition {
  key: string;
  uid: string;
}

export interface SearchPage {
  rows: SearchRow[];
  /** A substring search matched more customers than it lists. */
  capped: boolean;
  /** Where the next page starts; undefined on the last page. */
  next: SearchPosition | undefined;
}

/** A row as the search queries answer it: with its sort key, and the candidate count if capped. */
type KeyedRow = SearchRow & { k: string; matched?: number; sites?: number };

/**
 * One criterion, one index: trigram GIN for name substrings, pattern btree for prefixes, unique
 * btree for keys. Every answer is ordered by a sort key (the lowercased name, or the lowercased
 * email for an email search) in byte order, then uid, and pages by keyset from `after`.
 *
 * Prefix criteria walk their text_pattern_ops index in its own order (`USING ~<~`) from `after`,
 * so a page costs the same at any depth and there is no cap. The keys are unique: one owner at
 * most. Substrings have no ordered index: they take up to cap + 1 candidates in scan order (so a
 * term matching 200,000 rows stops after 201, and `capped` says when it did), then order and page
 * those. Timings and plans: bench/search.bench.ts.
 */
export async function searchCustomers(
  db: Queryable,
  criterion: SearchCriterion,
  term: string,
  after?: SearchPosition,
  pageSize = SEARCH_PAGE_SIZE,
  cap = SEARCH_RESULT_CAP,
): Promise<SearchPage> {
  let rows: KeyedRow[];
  let capped = false;
  if (criterion === 'emailid') {
    // Either address (email or sign-in email), each a unique key; prefix covers exact. A customer
    // both of whose addresses match is listed once, at the first of them in the walk's order.
    rows = await pageAsJson(
      db,
      `SELECT ${SEARCH_COLUMNS}, a.address AS k FROM customer_addresses a JOIN customers c ON c.uid = a.uid
       WHERE a.address LIKE $1 ${after ? 'AND a.address ~>~ $3' : ''}
         AND NOT EXISTS (SELECT 1 FROM customer_addresses b
                         WHERE b.uid = a.uid AND b.address LIKE $1 AND b.address ~<~ a.address)
       ORDER BY a.address USING ~<~ LIMIT $2`,
      [`${escapeLike(term.toLowerCase())}%`, pageSize + 1, ...(after ? [after.key] : [])],
    );
  } else if (criterion === 'customerName' && isPrefixTerm(term)) {
    // The lower bound is an index condition; rows of the cursor's own name are then sifted by uid.
    rows = await pageAsJson(
      db,
      `SELECT ${SEARCH_COLUMNS}, ${NAME_PREFIX_EXPR} AS k FROM customers c WHERE ${NAME_PREFIX_EXPR} LIKE $1
       ${after ? `AND ${NAME_PREFIX_EXPR} ~>=~ $3 AND (${NAME_PREFIX_EXPR} ~>~ $3 OR c.uid > $4::uuid)` : ''}
       ORDER BY ${NAME_PREFIX_EXPR} USING ~<~, c.uid LIMIT $2`,
      [namePattern(term), pageSize + 1, ...(after ? [after.key, after.uid] : [])],
    );
  } else if (criterion === 'apikey' || criterion === 'apisecret') {
    // Both keys are unique: at most one site, so one owner, and nothing to cap or sort.
    if (criterion === 'apikey' && !UUID_PATTERN.test(term))
      return { rows: [], capped: false, next: undefined };
    const r = await db.query<KeyedRow>(
      `SELECT ${SEARCH_COLUMNS}, ${NAME_EXPR} AS k FROM sites s JOIN customers c ON c.uid = s.owner_uid
       WHERE ${criterion === 'apikey' ? 's.api_key = $1' : 's.secret_hash = $1'}
       ${after ? `AND (${NAME_EXPR} COLLATE "C", c.uid::text COLLATE "C") > ($2::text, $3::text)` : ''}`,
      [
        criterion === 'apikey' ? term.toLowerCase() : hashSecret(term),
        ...(after ? [after.key, after.uid] : []),
      ],
    );
    rows = r.rows;
  } else {
    const found = await cappedCandidates(db, criterion, term, after, pageSize, cap);
    rows = found.rows;
    capped = found.capped;
  }
  const more = rows.length > pageSize;
  const page = more ? rows.slice(0, pageSize) : rows;
  const last = page[page.length - 1];
  return {
    rows: page.map(({ k: _k, matched: _m, sites: _s, ...row }) => row),
    capped,
    next: more && last ? { key: last.k, uid: last.uid } : undefined,
  };
}

/**
 * The rows of an ordered page query, answered as one JSON text. On PGlite, parsing nine fields a
 * row in JavaScript cost more than the index walk itself (a 51-row page: p50 0.9 -> 0.7 ms, p95
 * 2.7 -> 1.2 ms); the aggregate keeps the page's order (the sort key, then uid, in byte order).
 */
async function pageAsJson(db: Queryable, sql: string, params: unknown[]): Promise<KeyedRow[]> {
  const r = await db.query<{ page: string | null }>(
    `SELECT json_agg(x ORDER BY x.k COLLATE "C", x.uid COLLATE "C")::text AS page FROM (${sql}) x`,
    params,
  );
  const page = r.rows[0]?.page;
  return page ? (JSON.parse(page) as KeyedRow[]) : [];
}

/**
 * Up to cap customers matching a substring (a name or a site name), the page of them after
 * `after` in (name, uid) order, and whether more than cap matched. The counts ride on a row that
 * is there even when the page is empty.
 */
async function cappedCandidates(
  db: Queryable,
  criterion: 'customerName' | 'sitename',
  term: string,
  after: SearchPosition | undefined,
  pageSize: number,
  cap: number,
): Promise<{ rows: KeyedRow[]; capped: boolean }> {
  const key = `${NAME_EXPR} AS k`;
  let siteTrgmPattern: string | undefined;
  let candidates: string;
  let params: unknown[];
  switch (criterion) {
    case 'customerName':
      candidates = `m AS (SELECT ${SEARCH_COLUMNS}, ${key} FROM customers c WHERE ${NAME_EXPR} LIKE $1 LIMIT $2)`;
      params = [namePattern(term), cap + 1];
      break;
    case 'sitename':
      // Owners of the first matching sites. A few sites share an owner, so look at twice as many
      // sites as answers, and call the answer capped when that many sites matched.
      // A substring goes through the trigram index on the name with '-' read as 'q' (migration
      // 0022), so its trigrams span dashes; the LIKE on the name itself decides.
      candidates = `s AS (SELECT s.owner_uid FROM sites s WHERE lower(s.app_name) LIKE $1
                      ${isPrefixTerm(term) ? 'ORDER BY lower(s.app_name) USING ~<~' : `AND ${SITE_TRGM_EXPR} LIKE $7`}
                      LIMIT $2 * 2),
                    m AS (SELECT ${SEARCH_COLUMNS}, ${key} FROM customers c
                      WHERE c.uid IN (SELECT owner_uid FROM s) LIMIT $2)`;
      params = [namePattern(term), cap + 1];
      if (!isPrefixTerm(term)) siteTrgmPattern = namePattern(term).replaceAll('-', 'q');
      break;
  }
  const sites = criterion === 'sitename' ? '(SELECT count(*) FROM s)::int' : '0';
  const r = await db.query<KeyedRow>(
    `WITH ${candidates}
     SELECT p.*, n.matched, n.sites
     FROM (SELECT (SELECT count(*) FROM m)::int AS matched, ${sites} AS sites) n
     LEFT JOIN LATERAL (
       SELECT * FROM (SELECT * FROM m LIMIT $3) x
       WHERE $5::text IS NULL OR (x.k COLLATE "C", x.uid COLLATE "C") > ($5::text, $6::text)
       ORDER BY x.k COLLATE "C", x.uid COLLATE "C" LIMIT $4
     ) p ON true`,
    [
      ...params,
      cap,
      pageSize + 1,
      after?.key ?? null,
      after?.uid ?? null,
      ...(siteTrgmPattern ? [siteTrgmPattern] : []),
    ],
  );
  const first = r.rows[0];
  const capped = (first?.matched ?? 0) > cap || (first?.sites ?? 0) >= (cap + 1) * 2;
  return { rows: r.rows.filter((row) => row.uid !== null), capped };
}

const FIND_CUSTOMER = prepared(`SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.uid = $1`);

export async function findCustomer(db: Queryable, uid: string): Promise<CustomerRow | undefined> {
  const r = await db.query<CustomerRow>(FIND_CUSTOMER, [uid]);
  return r.rows[0];
}

export interface SiteRow {
  app_id: number;
  app_name: string;
  api_key: string;
  owner_uid: string;
  owner_email: string;
  plan: 'Free' | 'Developer' | 'Developer Premium';
  plan_status: 'Trial' | 'Subscribed';
  trial_ends_at: Date | null;
  billing: string;
  data_center: string | null;
  global_server: string | null;
  db_name: string;
  custom_db_conn: Uint8Array | null;
  features: string[];
  status: 'active' | 'inactive';
  production_url: string;
  staging_url: string;
  created_at: Date;
  modified_at: Date;
  /** Owner, or the customer role on a shared site. */
  member_role: string;
  /** Raised by each write of web apps or plan (If-Match / ETag). */
  version: number;
}

const SITE_COLUMNS = `s.app_id, s.app_name, s.api_key::text AS api_key, s.owner_uid, o.email AS owner_email, s.plan,
  s.plan_status, s.trial_ends_at, s.billing, s.data_center, s.global_server, s.db_name, s.custom_db_conn, s.features,
  s.status, s.production_url, s.staging_url, s.created_at, s.modified_at, s.version::int AS version`;

export async function ownedSites(db: Queryable, uid: string): Promise<SiteRow[]> {
  const r = await db.query<SiteRow>(
    `SELECT ${SITE_COLUMNS}, 'Owner' AS member_role FROM sites s JOIN customers o ON o.uid = s.owner_uid
     WHERE s.owner_uid = $1 ORDER BY s.app_id`,
    [uid],
  );
  return r.rows;
}

export async function sharedSites(db: Queryable, uid: string): Promise<SiteRow[]> {
  const r = await db.query<SiteRow>(
    `SELECT ${SITE_COLUMNS}, m.role AS member_role FROM site_members m
     JOIN sites s ON s.app_id = m.app_id JOIN customers o ON o.uid = s.owner_uid
     WHERE m.customer_uid = $1 ORDER BY s.app_id`,
    [uid],
  );
  return r.rows;
}

/** A site the customer owns or shares; undefined otherwise. */
export async function siteOfCustomer(
  db: Queryable,
  uid: string,
  appId: number,
): Promise<SiteRow | undefined> {
  const r = await db.query<SiteRow>(
    `SELECT ${SITE_COLUMNS},
       CASE WHEN s.owner_uid = $1 THEN 'Owner' ELSE m.role END AS member_role
     FROM sites s JOIN customers o ON o.uid = s.owner_uid
     LEFT JOIN site_members m ON m.app_id = s.app_id AND m.customer_uid = $1
     WHERE s.app_id = $2 AND (s.owner_uid = $1 OR m.customer_uid IS NOT NULL)`,
    [uid, appId],
  );
  return r.rows[0];
}

/** The site if this customer owns it; `lock` takes the site's row lock. */
export async function findOwnedSite(
  db: Queryable,
  uid: string,
  appId: number,
  lock = false,
): Promise<SiteRow | undefined> {
  const r = await db.query<SiteRow>(
    `SELECT ${SITE_COLUMNS}, 'Owner' AS member_role FROM sites s JOIN customers o ON o.uid = s.owner_uid
     WHERE s.app_id = $2 AND s.owner_uid = $1${lock ? ' FOR UPDATE OF s' : ''}`,
    [uid, appId],
  );
  return r.rows[0];
}

export async function siteCounts(db: Queryable, uid: string): Promise<{ owned: number; shared: number }> {
  const r = await db.query<{ owned: number; shared: number }>(
    `SELECT (SELECT count(*)::int FROM sites WHERE owner_uid = $1) AS owned,
            (SELECT count(*)::int FROM site_members WHERE customer_uid = $1) AS shared`,
    [uid],
  );
  return r.rows[0] ?? { owned: 0, shared: 0 };
}

export interface LoginRow {
  at: Date;
  access_type: string;
  browser: string;
  client_address: string;
  location: string;
}

export async function recentLogins(db: Queryable, uid: string, limit: number): Promise<LoginRow[]> {
  const r = await db.query<LoginRow>(
    `SELECT at, access_type, browser, client_address, location FROM customer_logins
     WHERE customer_uid = $1 ORDER BY at DESC LIMIT $2`,
    [uid, limit],
  );
  return r.rows;
}

export interface ActivityRow {
  id: number;
  action: string;
  actor_email: string | null;
  client_address: string | null;
  at: Date;
  details: Record<string, unknown>;
}

/** Keyset page of a customer's activity, newest first: rows older than `cursor` (0 = newest). */
export async function customerActivity(db: Queryable, uid: string, cursor: number, pageSize: number) {
  const r = await db.query<ActivityRow>(
    `SELECT id, action, actor_email, client_address, at, details FROM activity_log
     WHERE target_type = 'customer' AND target_id = $1 AND ($2::bigint = 0 OR id < $2)
     ORDER BY id DESC LIMIT $3`,
    [uid, cursor, pageSize + 1],
  );
  const more = r.rows.length > pageSize;
  const rows = r.rows.slice(0, pageSize);
  return { rows, nextCursor: more ? Number(rows.at(-1)!.id) : 0 };
}

/** The feature catalogue: each call reads only the tables it answers from. */
export async function featureCatalogue(db: Queryable) {
  const [features, sets] = await Promise.all([
    db.query<{ key: string; name: string; description: string }>(
      'SELECT key, name, description FROM features ORDER BY name',
    ),
    db.query<{ name: string; features: string[] }>(
      'SELECT name, features FROM feature_sets ORDER BY cardinality(features), name',
    ),
  ]);
  return { features: features.rows, sets: sets.rows };
}

export async function dataCenterCatalogue(db: Queryable) {
  const [centers, servers] = await Promise.all([
    db.query<{ code: string; name: string; region: string }>(
      'SELECT code, name, region FROM data_centers ORDER BY region, name',
    ),
    db.query<{ code: string; name: string; data_center: string }>(
      'SELECT code, name, data_center FROM global_servers ORDER BY code',
    ),
  ]);
  return { centers: centers.rows, servers: servers.rows };
}

/** The customer roles and their permissions (a permission is granted where its value is true). */
export async function customerRoleCatalogue(db: Queryable) {
  const r = await db.query<{ name: string; permissions: Record<string, boolean> }>(
    'SELECT name, permissions FROM customer_roles ORDER BY name',
  );
  return r.rows;
}
