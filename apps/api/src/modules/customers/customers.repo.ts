import {
  escapeLike,
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
}

const CUSTOMER_COLUMNS = `c.uid, c.first_name, c.last_name, c.email, c.organization, c.phone, c.auth_email,
  c.contact_email, c.time_zone, c.status, c.role, c.email_verified, c.created_at, c.modified_at`;

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

/** The expression the name indexes are built on; queries must use it verbatim to hit them. */
const NAME_EXPR = "lower(c.first_name || ' ' || c.last_name)";
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A LIKE pattern: substring from SUBSTRING_MIN_LENGTH characters, prefix below. */
function namePattern(term: string): string {
  const t = escapeLike(term.toLowerCase());
  return term.length >= SUBSTRING_MIN_LENGTH ? `%${t}%` : `${t}%`;
}

/**
 * One criterion, one index: trigram GIN for name substrings, pattern btree for prefixes, unique
 * btree for keys; LIMIT cap + 1 so a term matching 200,000 rows stops after 201, and `capped` says
 * so. Substring scans have no ORDER BY (the planner may then stop a scan early for common terms);
 * prefix scans are ordered `USING ~<~`, the order of their text_pattern_ops index, so they walk
 * the index and stop (measured in bench/search.bench.ts). The kept rows are sorted by name.
 */
const collator = new Intl.Collator();

export async function searchCustomers(
  db: Queryable,
  criterion: SearchCriterion,
  term: string,
  cap = SEARCH_RESULT_CAP,
): Promise<{ rows: SearchRow[]; capped: boolean }> {
  const limit = cap + 1;
  const prefix = term.length < SUBSTRING_MIN_LENGTH;
  let sql: string;
  let params: unknown[];
  switch (criterion) {
    case 'customerName':
      sql = `SELECT ${SEARCH_COLUMNS} FROM customers c WHERE ${NAME_EXPR} LIKE $1
             ${prefix ? `ORDER BY ${NAME_EXPR} USING ~<~` : ''} LIMIT $2`;
      params = [namePattern(term), limit];
      break;
    case 'emailid':
      // prefix covers exact: 'ann@example.com' is a prefix of itself
      sql = `SELECT ${SEARCH_COLUMNS} FROM customers c WHERE lower(c.email) LIKE $1
             ORDER BY lower(c.email) USING ~<~ LIMIT $2`;
      params = [`${escapeLike(term.toLowerCase())}%`, limit];
      break;
    case 'apikey':
      if (!UUID_PATTERN.test(term)) return { rows: [], capped: false };
      sql = `SELECT ${SEARCH_COLUMNS} FROM sites s JOIN customers c ON c.uid = s.owner_uid WHERE s.api_key = $1 LIMIT $2`;
      params = [term.toLowerCase(), limit];
      break;
    case 'apisecret':
      sql = `SELECT ${SEARCH_COLUMNS} FROM sites s JOIN customers c ON c.uid = s.owner_uid WHERE s.secret_hash = $1 LIMIT $2`;
      params = [hashSecret(term), limit];
      break;
    case 'sitename':
      // Owners of the first matching sites. A few sites share an owner, so look at twice as many
      // sites as answers, and call the answer capped when that many sites matched.
      sql = `WITH m AS (SELECT s.owner_uid FROM sites s WHERE lower(s.app_name) LIKE $1
               ${prefix ? 'ORDER BY lower(s.app_name) USING ~<~' : ''} LIMIT $3)
             SELECT ${SEARCH_COLUMNS}, (SELECT count(*) FROM m)::int AS matched
             FROM customers c WHERE c.uid IN (SELECT owner_uid FROM m) LIMIT $2`;
      params = [namePattern(term), limit, limit * 2];
      break;
  }
  const r = await db.query<SearchRow & { matched?: number }>(sql, params);
  const capped = r.rows.length > cap || (r.rows[0]?.matched ?? 0) >= limit * 2;
  const rows: SearchRow[] = r.rows.slice(0, cap).map(({ matched: _m, ...row }) => row);
  // Names compared once each through one collator: localeCompare per comparison was most of the
  // time a 200-row answer spent in JavaScript.
  const names = new Map(rows.map((r) => [r, `${r.first_name} ${r.last_name}`]));
  rows.sort((a, b) => collator.compare(names.get(a)!, names.get(b)!) || collator.compare(a.email, b.email));
  return { rows, capped };
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
}

const SITE_COLUMNS = `s.app_id, s.app_name, s.api_key::text AS api_key, s.owner_uid, o.email AS owner_email, s.plan,
  s.plan_status, s.trial_ends_at, s.billing, s.data_center, s.global_server, s.db_name, s.custom_db_conn, s.features,
  s.status, s.production_url, s.staging_url, s.created_at, s.modified_at`;

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
