import { fitsSiteName } from '@sac/contract/customer-writes';
import {
  escapeLike,
  phoneSearchKey,
  SEARCH_COUNT_LIMIT,
  SEARCH_PAGE_SIZE,
  type SearchCriterion,
  SUBSTRING_MIN_LENGTH,
} from '@sac/contract/customers';
import type { CUSTOMER_SORT_KEYS, ListSort } from '@sac/contract/list-sort';
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

/** The lowercased full name, as answers and site-name searches key rows by it. */
const NAME_EXPR = "lower(c.first_name || ' ' || c.last_name)";
/**
 * The expression the name trigram index is built on (customer_name_keys n, migration 0048): the
 * lowercased name with space, '-', "'" and '.' read as '0', so a term's trigrams span them; queries
 * use it verbatim with the term translated by joinedTrigramTerm, and a LIKE on the name decides.
 * The table holds each customer's name key (NAME_PREFIX_EXPR) and list times, narrow, so the
 * matches of a frequent term are tested and sorted without reading their customers rows.
 */
const NAME_KEYS_TRGM_EXPR = "translate(n.k, ' -''.', '0000')";
const joinedTrigramTerm = (pattern: string) => pattern.replace(/[ \-'.]/g, '0');
/**
 * The same text as NAME_EXPR, as the name prefix index (migration 0024) is built on: an
 * expression of its own, so prefix searches are planned with that index's small statistics.
 */
const NAME_PREFIX_EXPR = "(lower(c.first_name) || ' ' || lower(c.last_name))";
/**
 * The expression of the site-name trigram index (site_owner_keys t, migration 0051): the
 * lowercased site name with '-' read as a letter, so a term's trigrams span dashes; queries use it
 * verbatim with the term translated by siteTrigramTerm, and a LIKE on the name decides.
 */
const SITE_TRGM_EXPR = "translate(t.n, '-', 'q')";
const siteTrigramTerm = (pattern: string) => pattern.replaceAll('-', 'q');
/** The sites of site_owner_keys t whose name matches: the LIKE pattern at $1, its trigram term at `trigram`. */
const siteMatch = (trigram: string) => `${SITE_TRGM_EXPR} LIKE ${trigram} AND t.n LIKE $1`;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The normal form of a stored phone number, as migration 0037's index is built on it: its digits,
 * '+' in front when it starts with '+'. phoneSearchKey (contract) puts a term in the same form.
 */
const PHONE_KEY_EXPR =
  "(CASE WHEN ltrim(c.phone) LIKE '+%' THEN '+' ELSE '' END || regexp_replace(c.phone, '[^0-9]', '', 'g'))";

/** Name and site-name terms shorter than SUBSTRING_MIN_LENGTH match as a prefix. */
const isPrefixTerm = (term: string) => term.length < SUBSTRING_MIN_LENGTH;

/** A LIKE pattern: substring from SUBSTRING_MIN_LENGTH characters, prefix below. */
function namePattern(term: string): string {
  const t = escapeLike(term.toLowerCase());
  return isPrefixTerm(term) ? `${t}%` : `%${t}%`;
}

/**
 * The rank tiers of a name search: the whole name is the term, the name starts with it, the name
 * holds it elsewhere (from SUBSTRING_MIN_LENGTH characters). Other criteria have one tier.
 */
export const NAME_TIERS = { exact: 0, prefix: 1, substring: 2 } as const;

/** Where the previous page of a search ended: its last row's tier, sort key and uid. */
export interface SearchPosition {
  tier: number;
  key: string;
  uid: string;
}

export interface SearchPage {
  rows: SearchRow[];
  /** Where the next page starts; undefined on the last page. */
  next: SearchPosition | undefined;
}

/** How many customers a search matches: exact up to the limit; `capped` when more match. */
export interface SearchCount {
  total: number;
  capped: boolean;
}

export interface SearchOptions {
  pageSize?: number;
  /**
   * More than SEARCH_COUNT_LIMIT customers match (the count of the first page): a name's
   * substring tier then walks the name index in order instead of sorting every match.
   */
  many?: boolean;
  /** Index entries a walk reads before it gives way to the trigram index (tests lower it). */
  walkWindow?: number;
  /**
   * A sorted list walks when more than this many customers match (SORTED_WALK_MIN; 0: always,
   * without counting; tests lower it).
   */
  walkMin?: number;
  /** A list order instead of the criterion's own (relevance for a name). */
  sort?: CustomerSort;
  /** A name's exact and prefix tiers of the first page, already read (with the count). */
  start?: KeyedRow[];
}

/** A row as the search queries answer it: with its sort key, and the candidate count if capped. */
type KeyedRow = SearchRow & {
  k: string;
  tier?: number;
};

/**
 * How far an ordered walk of the name index looks for substring matches before it gives way to
 * the trigram index and a sort. A term held by many names (over SEARCH_COUNT_LIMIT) is usually
 * spread over the alphabet, so a page is found within a few thousand entries; one held only by
 * the first names of a few letters ('atric') would have the walk cross most of the index.
 */
const WALK_WINDOW = 20_000;
/** The most index entries a walk reads, in windows: this many first windows' worth. */
const WALK_MAX_WINDOWS = 3;

/** The keyset condition of an ordered walk after `after` on a (key, uid) index. */
const afterKey = (key: string, keyParam: number, uidParam: number) =>
  `${key} ~>=~ $${keyParam} AND (${key} ~>~ $${keyParam} OR c.uid > $${uidParam}::uuid)`;

/**
 * One page of a search, in a stable order: the same query answers the same pages every time, and
 * the pages together list every match once.
 *
 * - Name: the exact name, then names starting with the term, then names holding it elsewhere; in
 *   each tier by the lowercased name in byte order, then uid. The first two tiers walk the name's
 *   text_pattern_ops btree (key, uid) from the cursor; the third either sorts the trigram index's
 *   matches (when at most SEARCH_COUNT_LIMIT customers match, so the sort is small) or walks the
 *   same btree in order and tests each name (when many match, a page is near). A window of
 *   WALK_WINDOW entries that falls short walks on when the matches it found say the rest is
 *   near (up to WALK_MAX_WINDOWS windows' worth), else the matches after it are sorted.
 * - Email and phone: their pattern btrees from the cursor (prefix covers exact, which sorts first).
 * - UID, API key and secret: unique keys, one customer at most.
 * - Site name: the owners of the matching sites, by name then uid (siteOwners).
 * Timings and plans: bench/search.bench.ts.
 */
export async function searchCustomers(
  db: Queryable,
  criterion: SearchCriterion,
  term: string,
  after?: SearchPosition,
  opts: SearchOptions = {},
): Promise<SearchPage> {
  const pageSize = opts.pageSize ?? SEARCH_PAGE_SIZE;
  let rows: KeyedRow[];
  const sort = opts.sort;
  switch (criterion) {
    case 'customerName':
      rows = sort
        ? await sortedPage(db, criterion, term.toLowerCase(), sort, after, pageSize + 1, opts)
        : await namePage(db, term.toLowerCase(), after, pageSize + 1, opts);
      break;
    case 'emailid':
      if (sort) {
        rows = await sortedPage(db, criterion, term, sort, after, pageSize + 1, opts);
        break;
      }
      // Either address (email or sign-in email), each a unique key; prefix covers exact. A customer
      // both of whose addresses match is listed once, at the first of them in the walk's order.
      rows = await pageAsJson(
        db,
        `SELECT ${SEARCH_COLUMNS}, a.address AS k FROM customer_addresses a JOIN customers c ON c.uid = a.uid
         WHERE a.address LIKE $1 ${after ? 'AND a.address ~>~ $3' : ''} AND ${FIRST_ADDRESS}
         ORDER BY a.address USING ~<~ LIMIT $2`,
        [`${escapeLike(term.toLowerCase())}%`, pageSize + 1, ...(after ? [after.key] : [])],
      );
      break;
    case 'phone': {
      const key = phoneSearchKey(term);
      if (key === undefined) return { rows: [], next: undefined };
      if (sort) {
        rows = await sortedPage(db, criterion, term, sort, after, pageSize + 1, opts);
        break;
      }
      rows = await pageAsJson(
        db,
        `SELECT ${SEARCH_COLUMNS}, ${PHONE_KEY_EXPR} AS k FROM customers c
         WHERE c.phone <> '' AND ${PHONE_KEY_EXPR} LIKE $1 ${after ? `AND ${afterKey(PHONE_KEY_EXPR, 3, 4)}` : ''}
         ORDER BY ${PHONE_KEY_EXPR} USING ~<~, c.uid LIMIT $2`,
        [`${escapeLike(key)}%`, pageSize + 1, ...(after ? [after.key, after.uid] : [])],
      );
      break;
    }
    case 'uid':
    case 'apikey':
    case 'apisecret': {
      // Unique keys: one customer at most, so a single page and nothing to sort.
      if (after || (criterion !== 'apisecret' && !UUID_PATTERN.test(term)))
        return { rows: [], next: undefined };
      const where = { uid: 'c.uid = $1::uuid', apikey: 's.api_key = $1', apisecret: 's.secret_hash = $1' }[
        criterion
      ];
      const from = criterion === 'uid' ? 'customers c' : 'sites s JOIN customers c ON c.uid = s.owner_uid';
      const r = await db.query<KeyedRow>(
        `SELECT ${SEARCH_COLUMNS}, ${NAME_EXPR} AS k FROM ${from} WHERE ${where}`,
        [criterion === 'apisecret' ? hashSecret(term) : term.toLowerCase()],
      );
      rows = r.rows;
      break;
    }
    case 'sitename':
      rows = await siteOwners(db, term, sort ?? BY_NAME, after, pageSize + 1, opts);
      break;
  }
  const more = rows.length > pageSize;
  const page = more ? rows.slice(0, pageSize) : rows;
  const last = page[page.length - 1];
  return {
    rows: page.map(({ k: _k, tier: _t, ...row }) => row),
    next: more && last ? { tier: last.tier ?? 0, key: last.k, uid: last.uid } : undefined,
  };
}

/**
 * The email walk lists a customer at the first of their matching addresses only. A customer's
 * addresses are their email and sign-in email, lowercased (migration 0029's trigger), so the test
 * reads the customer's row the page joins anyway: probing the address table instead was planned
 * as a join over every matching address (87,000 comparisons, 30 ms for 'zuza' at 1M on PGlite).
 */
const FIRST_ADDRESS = `NOT (lower(c.email) LIKE $1 AND lower(c.email) ~<~ a.address)
  AND NOT (lower(c.auth_email) LIKE $1 AND lower(c.auth_email) ~<~ a.address)`;

/** Up to `need` rows of a name search from `after`, tier by tier. */
async function namePage(
  db: Queryable,
  term: string,
  after: SearchPosition | undefined,
  need: number,
  opts: SearchOptions,
): Promise<KeyedRow[]> {
  const out: KeyedRow[] = [];
  if (!after || after.tier < NAME_TIERS.substring)
    out.push(...(opts.start ?? (await pageAsJson(db, ...startWalk(term, after, need)))));
  if (out.length >= need || isPrefixTerm(term)) return out;
  const from = after?.tier === NAME_TIERS.substring ? after : undefined;
  for (const row of await substringTier(db, term, from, need - out.length, opts))
    out.push({ ...row, tier: NAME_TIERS.substring });
  return out;
}

/**
 * The exact and prefix tiers of a name search as one walk of the name's text_pattern_ops btree
 * (key, uid) from the cursor: the exact name sorts first among the names it starts (byte order),
 * its rows by uid, which is the order of both tiers. Parameters $1 to $5 (with the cursor).
 */
function startWalk(term: string, after: SearchPosition | undefined, limit: number): [string, unknown[]] {
  const K = NAME_PREFIX_EXPR;
  return [
    `SELECT ${SEARCH_COLUMNS}, ${K} AS k, CASE WHEN ${K} = $3 THEN ${NAME_TIERS.exact} ELSE ${NAME_TIERS.prefix} END AS tier
     FROM customers c WHERE ${K} LIKE $1 ${after ? `AND ${afterKey(K, 4, 5)}` : ''}
     ORDER BY ${K} USING ~<~, c.uid LIMIT $2`,
    [`${escapeLike(term)}%`, limit, term, ...(after ? [after.key, after.uid] : [])],
  ];
}

/** Up to `limit` names holding the term (lowercased) past their start, after `after`, in order. */
async function substringTier(
  db: Queryable,
  term: string,
  after: SearchPosition | undefined,
  limit: number,
  opts: SearchOptions,
): Promise<KeyedRow[]> {
  const K = NAME_PREFIX_EXPR;
  const prefix = `${escapeLike(term)}%`;
  const substring = `%${escapeLike(term)}%`;
  let from = after;
  const found: KeyedRow[] = [];
  if (opts.many) {
    const first = opts.walkWindow ?? WALK_WINDOW;
    let window = first;
    let walked = 0;
    for (;;) {
      // The walk reads the covering index only (the columns raw; formatted for the page's rows),
      // from the start of the index ('' and the nil uuid) or the cursor.
      const start = from;
      const rows = await pageAsJson(
        db,
        `SELECT w.uid::text AS uid, w.first_name, w.last_name, w.email, w.status, w.role,
           ${isoText('w.created_at')} AS created_at, ${isoText('w.modified_at')} AS modified_at, w.k
         FROM (SELECT ${K} AS k, c.uid, c.first_name, c.last_name, c.email, c.status, c.role, c.created_at,
             c.modified_at
           FROM customers c WHERE ${afterKey(K, 4, 5)} ORDER BY ${K} USING ~<~, c.uid LIMIT $6) w
         WHERE w.k LIKE $1 AND w.k NOT LIKE $2 LIMIT $3`,
        [substring, prefix, limit - found.length, from?.key ?? '', from?.uid ?? NIL_UUID, window],
      );
      found.push(...rows);
      if (found.length >= limit) return found;
      // Every match of the window is found. Walk on when the matches seen so far say the page is
      // near ('ame': 40 of 51 in the first 20,000 names, the rest in the next 5,000), from the
      // window's last entry; else sort the matches after the last one found ('ria', 2: Maria is
      // far down the index), as no other is between it and the window's end.
      walked += window;
      const more =
        found.length > 0 ? Math.ceil((1.5 * (limit - found.length) * walked) / found.length) : Infinity;
      if (walked + more > WALK_MAX_WINDOWS * first) {
        const last = found.at(-1);
        if (last) from = { tier: NAME_TIERS.substring, key: last.k, uid: last.uid };
        break;
      }
      const end = await windowEnd(db, start, window);
      if (!end) return found; // the index ended within the window
      from = { tier: NAME_TIERS.substring, key: end.k, uid: end.uid };
      window = more;
    }
  }
  // Every match of the trigram index, sorted: few when at most SEARCH_COUNT_LIMIT match. The
  // matches' name keys are sorted in the narrow name-key table; the page's customers rows are
  // read and formatted for its rows alone (formatting every match was 40 % of 'ria''s sort).
  const cursor = from ? [from.key, from.uid] : [];
  return found.concat(
    await pageAsJson(
      db,
      `SELECT ${SEARCH_COLUMNS}, m.k FROM (SELECT n.k, n.uid FROM customer_name_keys n
         WHERE ${NAME_KEYS_TRGM_EXPR} LIKE $4 AND n.k LIKE $1 AND n.k NOT LIKE $2
         ${from ? `AND (n.k COLLATE "C" > $5 OR (n.k = $5 AND n.uid > $6::uuid))` : ''}
         ORDER BY n.k COLLATE "C", n.uid LIMIT $3) m
       JOIN customers c ON c.uid = m.uid`,
      [substring, prefix, limit - found.length, joinedTrigramTerm(substring), ...cursor],
    ),
  );
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * The last entry of a walk's window: the `window`th entry of the name btree after `from`, or
 * undefined when the index ends before it. Read apart from the walk, and only when the walk goes
 * on: a row number on every walked entry cost as much as the walk itself (20,000 entries on
 * PGlite: 14 ms with it, 7 ms without, 4.5 ms for this read).
 */
async function windowEnd(
  db: Queryable,
  from: SearchPosition | undefined,
  window: number,
): Promise<{ k: string; uid: string } | undefined> {
  const K = NAME_PREFIX_EXPR;
  const r = await db.query<{ k: string; uid: string }>(
    `SELECT ${K} AS k, c.uid::text AS uid FROM customers c WHERE ${afterKey(K, 1, 2)}
     ORDER BY ${K} USING ~<~, c.uid OFFSET $3 LIMIT 1`,
    [from?.key ?? '', from?.uid ?? NIL_UUID, window - 1],
  );
  return r.rows[0];
}

/** A list order of the search (sort=name|created|modified, '-' descending); ties by uid. */
export type CustomerSort = ListSort<(typeof CUSTOMER_SORT_KEYS)[number]>;

/** A timestamp as a sort key text: UTC, microseconds, fixed width, so byte order is time order. */
const microText = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** What a sort key of a cursor must look like (microText): anything else would be a 500. */
export const SORT_TIME_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The column of a time sort; the name sort keys on NAME_PREFIX_EXPR (its btree, byte order). */
const TIME_COLUMN = { created: 'created_at', modified: 'modified_at' } as const;
/** A site-name search's own order: its owners by name, then uid. */
const BY_NAME: CustomerSort = { key: 'name', descending: false };

/**
 * The sort key of a row (as text, k), its ORDER BY and the keyset condition after (key, uid); the
 * name key is NAME_PREFIX_EXPR on the row `alias`, or the column `nameKey` that holds it.
 */
function sortSql(sort: CustomerSort, alias = 'c', nameKey?: string) {
  const d = sort.descending;
  if (sort.key === 'name') {
    const K = nameKey ?? NAME_PREFIX_EXPR.replaceAll('c.', `${alias}.`);
    return {
      key: K,
      order: `${K} USING ${d ? '~>~' : '~<~'}, ${alias}.uid${d ? ' DESC' : ''}`,
      after: (k: string, u: string) =>
        d
          ? `${K} ~<=~ ${k} AND (${K} ~<~ ${k} OR ${alias}.uid < ${u}::uuid)`
          : `${K} ~>=~ ${k} AND (${K} ~>~ ${k} OR ${alias}.uid > ${u}::uuid)`,
    };
  }
  const col = `${alias}.${TIME_COLUMN[sort.key]}`;
  return {
    key: microText(col),
    order: `${col}${d ? ' DESC' : ''}, ${alias}.uid${d ? ' DESC' : ''}`,
    after: (k: string, u: string) =>
      `(${col}, ${alias}.uid) ${d ? '<' : '>'} (${k}::timestamptz, ${u}::uuid)`,
  };
}

/**
 * Whether a customer matches a name, email or phone term, on the customer's row `alias` ($1 the
 * LIKE pattern). A name substring's matches are found in the name-key table instead (sortedPage).
 */
function matchSql(criterion: 'customerName' | 'emailid' | 'phone', alias: string): string {
  switch (criterion) {
    case 'customerName':
      return `${NAME_PREFIX_EXPR.replaceAll('c.', `${alias}.`)} LIKE $1`;
    case 'emailid':
      return `EXISTS (SELECT 1 FROM customer_addresses a WHERE a.uid = ${alias}.uid AND a.address LIKE $1)`;
    case 'phone':
      return `${alias}.phone <> '' AND ${PHONE_KEY_EXPR.replaceAll('c.', `${alias}.`)} LIKE $1`;
  }
}

/**
 * One page of a name, email or phone search in a list order (`sort`), after `after`: the matches
 * in (key, uid) order, ascending or descending, every match once over the pages.
 *
 * - A name prefix (under SUBSTRING_MIN_LENGTH characters) sorted by name is a range of the name
 *   btree, read in order (backwards when descending).
 * - At most SEARCH_COUNT_LIMIT matches (`many` false): the criterion's index finds them all
 *   (the name keys' trigram index, name or address btree; a materialized set, so the planner
 *   cannot trade it for a walk of the sort index that a rare term would take through the whole
 *   table) and they are sorted.
 * - More: walk the sort key's covering btree in order from the cursor (the name btree, or
 *   migration 0040's (created_at, uid) and (modified_at, uid)) and test each entry, up to
 *   `walkWindow` entries; when the page is not full by then, sort the matches after all.
 */
async function sortedPage(
  db: Queryable,
  criterion: 'customerName' | 'emailid' | 'phone',
  term: string,
  sort: CustomerSort,
  after: SearchPosition | undefined,
  limit: number,
  opts: SearchOptions,
): Promise<KeyedRow[]> {
  const pattern =
    criterion === 'customerName'
      ? namePattern(term)
      : `${escapeLike(criterion === 'phone' ? (phoneSearchKey(term) ?? '') : term.toLowerCase())}%`;
  // $1 the pattern, $2 the limit, then the cursor's key and uid when there is one.
  const params: unknown[] = [pattern, limit];
  const param = (v: unknown) => `$${params.push(v)}`;
  const cursorAt = (alias: string, nameKey?: string) =>
    after ? `AND ${sortSql(sort, alias, nameKey).after(param(after.key), param(after.uid))}` : '';
  const o = sortSql(sort);
  if (criterion === 'customerName' && isPrefixTerm(term) && sort.key === 'name') {
    return pageAsJson(
      db,
      `SELECT ${SEARCH_COLUMNS}, ${o.key} AS k FROM customers c WHERE ${matchSql(criterion, 'c')} ${cursorAt('c')}
       ORDER BY ${o.order} LIMIT $2`,
      params,
      sort.descending,
    );
  }
  if (opts.many && (await walkPays(db, criterion, term, opts.walkMin ?? SORTED_WALK_MIN))) {
    // The walk reads the sort key's covering index only, from the cursor, and tests each entry.
    // A page it does not fill within the window (or at the end of the table) is sorted instead:
    // no row count over the window (a window function cost a fifth of the walk). An email is
    // tested on the entry itself under a time sort (its addresses are its email and sign-in
    // email, both in the time indexes, migration 0049). Under the name sort (the name index has no
    // sign-in email) the test asks the address table, kept from becoming a semi-join (IS TRUE), so
    // the planner hashes the matching addresses once instead of probing the address table for
    // each of 20,000 entries (200 ms at 1M); that hash is what a short prefix's page costs
    // (61,784 addresses for 'ma', 25 ms).
    const from = cursorAt('c');
    const w = param(opts.walkWindow ?? WALK_WINDOW);
    const rowTest = criterion === 'emailid' && sort.key !== 'name';
    const test = rowTest
      ? `(lower(w.email) LIKE $1 OR lower(w.auth_email) LIKE $1)`
      : criterion === 'emailid'
        ? `(${matchSql(criterion, 'w')}) IS TRUE`
        : matchSql(criterion, 'w');
    const rows = await pageAsJson(
      db,
      `SELECT w.uid::text AS uid, w.first_name, w.last_name, w.email, w.status, w.role,
         ${isoText('w.created_at')} AS created_at, ${isoText('w.modified_at')} AS modified_at, w.k
       FROM (SELECT ${o.key} AS k, c.uid, c.first_name, c.last_name, c.email, c.status, c.role, c.created_at,
           c.modified_at${criterion === 'phone' ? ', c.phone' : ''}${rowTest ? ', c.auth_email' : ''}
         FROM customers c WHERE true ${from} ORDER BY ${o.order} LIMIT ${w}) w
       WHERE ${test} LIMIT $2`,
      params,
      sort.descending,
    );
    if (rows.length >= limit) return rows;
    params.length = 2;
  }
  // The matches' uids and sort keys, sorted; the page's customers rows are read and formatted
  // after the sort, for them alone.
  const matches = sortKeysOfMatches(criterion, term, () => param(joinedTrigramTerm(pattern)));
  return pageAsJson(
    db,
    `WITH m AS MATERIALIZED (${matches})
     SELECT ${SEARCH_COLUMNS}, ${o.key} AS k FROM (
       SELECT m.uid FROM m WHERE true ${cursorAt('m', 'm.k')} ORDER BY ${sortSql(sort, 'm', 'm.k').order} LIMIT $2) p
     JOIN customers c ON c.uid = p.uid`,
    params,
    sort.descending,
  );
}

/**
 * Every match of a sorted list's term with its sort keys (uid, k, created_at, modified_at; $1 the
 * LIKE pattern). A name substring's come from the narrow name-key table's trigram index (its term
 * at the parameter `trigramParam` adds), a name prefix's from the covering name btree. An email's
 * or a phone's uids come from their own index, and their keys from the name-key table one uid at a
 * time (OFFSET 0 keeps the lookup a nested loop: as a join, PostgreSQL hashed 'elijah''s 2,223
 * addresses and scanned every customer against them, 180 ms).
 */
function sortKeysOfMatches(
  criterion: 'customerName' | 'emailid' | 'phone',
  term: string,
  trigramParam: () => string,
): string {
  if (criterion === 'customerName' && isPrefixTerm(term))
    return `SELECT c.uid, ${NAME_PREFIX_EXPR} AS k, c.created_at, c.modified_at FROM customers c
      WHERE ${matchSql(criterion, 'c')}`;
  if (criterion === 'customerName')
    return `SELECT n.uid, n.k, n.created_at, n.modified_at FROM customer_name_keys n
      WHERE ${NAME_KEYS_TRGM_EXPR} LIKE ${trigramParam()} AND n.k LIKE $1`;
  const uids =
    criterion === 'emailid'
      ? 'SELECT DISTINCT a.uid FROM customer_addresses a WHERE a.address LIKE $1'
      : `SELECT c.uid FROM customers c WHERE ${matchSql(criterion, 'c')}`;
  return `SELECT n.uid, n.k, n.created_at, n.modified_at FROM (${uids}) u
    CROSS JOIN LATERAL (SELECT n.* FROM customer_name_keys n WHERE n.uid = u.uid OFFSET 0) n`;
}

/**
 * Whether a sorted list's walk in time or name order should find its page: more than
 * SORTED_WALK_MIN customers match. A window of WALK_WINDOW entries fills a page only when about 1
 * customer in 400 matches; with fewer matches it is read for nothing before the sort ('zuza', 1,713
 * addresses at 1M: about half of a 60 ms page on PGlite). The count reads the criterion's index up
 * to that bound; a name substring has no such cheap count (its trigram index rechecks every
 * match), so it walks.
 */
const SORTED_WALK_MIN = 4_000;
async function walkPays(
  db: Queryable,
  criterion: 'customerName' | 'emailid' | 'phone',
  term: string,
  min: number,
): Promise<boolean> {
  if (min === 0 || (criterion === 'customerName' && !isPrefixTerm(term))) return true;
  return (await countMatches(db, criterion, term, min)).capped;
}

/**
 * How many customers a search matches, counted up to `limit` (then `capped`): a LIMIT limit + 1
 * count over the criterion's index, so a term matching 300,000 customers stops at limit + 1.
 * Name: the trigram index from SUBSTRING_MIN_LENGTH characters (every tier holds the term), the
 * prefix btree below. A site name counts the owners of its matching sites (countSiteOwners).
 */
export async function countMatches(
  db: Queryable,
  criterion: SearchCriterion,
  term: string,
  limit: number,
): Promise<SearchCount> {
  let sql: string;
  let param: string;
  const extra: string[] = [];
  switch (criterion) {
    case 'customerName': {
      const m = nameMatch(term, 1, 3);
      sql = m.rows;
      param = m.pattern;
      if (m.trigram) extra.push(m.trigram);
      break;
    }
    case 'emailid': {
      // A customer has at most two addresses: of any 2 (limit + 1) matching addresses, the
      // distinct customers are the exact count, or there are more than `limit` of them: an
      // index-only scan of the covering pattern index (migration 0046). The prefix is written as
      // the byte range it spans, in the pattern operators only that index has: as a LIKE, PGlite
      // read it through the primary key, a plain btree that reads the heap for each uid (2,027
      // pages for 'ric'), and an ORDER BY did not hold it. (Probing each address for a sibling,
      // as the page does, cost 60 ms for 'mar' at 1M.)
      const prefix = term.toLowerCase();
      const end = prefixEnd(prefix);
      const r = await db.query<{ n: number; a: number }>(
        `SELECT count(DISTINCT x.uid)::int AS n, count(*)::int AS a FROM (SELECT a.uid FROM customer_addresses a
         WHERE a.address ~>=~ $1 AND ${end === undefined ? 'a.address LIKE $3' : 'a.address ~<~ $3'} LIMIT $2) x`,
        [prefix, 2 * (limit + 1), end ?? `${escapeLike(prefix)}%`],
      );
      const { n = 0, a = 0 } = r.rows[0] ?? {};
      return { total: Math.min(n, limit), capped: n > limit || a >= 2 * (limit + 1) };
    }
    case 'sitename':
      return countSiteOwners(db, term, limit);
    case 'phone':
      sql = `SELECT 1 FROM customers c WHERE c.phone <> '' AND ${PHONE_KEY_EXPR} LIKE $1`;
      param = `${escapeLike(phoneSearchKey(term) ?? '')}%`;
      break;
    default: {
      // unique keys: the page itself is the count
      const page = await searchCustomers(db, criterion, term);
      return { total: page.rows.length, capped: false };
    }
  }
  const r = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${sql} LIMIT $2) x`, [
    param,
    limit + 1,
    ...extra,
  ]);
  return capped(r.rows[0]?.n ?? 0, limit);
}

/**
 * The first text past every text that starts with `prefix`, in byte order (which is code point
 * order in UTF-8): the prefix with its last character one code point on, as PostgreSQL bounds a
 * LIKE prefix; a last character at the top code point moves the one before it instead. Undefined
 * when every character is at the top.
 */
export function prefixEnd(prefix: string): string | undefined {
  const chars = [...prefix];
  while (chars.length > 0) {
    const last = chars.pop()!.codePointAt(0)!;
    if (last < 0x10ffff)
      return chars.join('') + String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1);
  }
  return undefined;
}

/** A count read up to limit + 1: exact up to `limit`, else capped. */
const capped = (n: number, limit: number): SearchCount => ({ total: Math.min(n, limit), capped: n > limit });

/**
 * What a name search matches, every tier holding the term: a prefix below SUBSTRING_MIN_LENGTH
 * characters (the prefix btree of customers), else a substring (the name-key table's trigram
 * index, then the name key itself decides). A query of a row per match, with the LIKE pattern at
 * $patternAt and the trigram term at $trigramAt.
 */
function nameMatch(
  term: string,
  patternAt: number,
  trigramAt: number,
): { rows: string; pattern: string; trigram?: string } {
  const pattern = namePattern(term);
  if (isPrefixTerm(term))
    return { rows: `SELECT 1 FROM customers c WHERE ${NAME_PREFIX_EXPR} LIKE $${patternAt}`, pattern };
  return {
    rows: `SELECT 1 FROM customer_name_keys n WHERE ${NAME_KEYS_TRGM_EXPR} LIKE $${trigramAt} AND n.k LIKE $${patternAt}`,
    pattern,
    trigram: joinedTrigramTerm(pattern),
  };
}

/**
 * A page with the count of all matches, as the API answers it. The first page counts up to
 * `limit`: before the page for a name (the substring tier's plan depends on it), after it for the
 * others and only when the page is full (else the page is the count). Later pages carry the first
 * page's count in their cursor (`from.count`), so every page answers the same Total.
 */
export async function searchCounted(
  db: Queryable,
  criterion: SearchCriterion,
  term: string,
  from?: { at: SearchPosition; count: SearchCount },
  limit = SEARCH_COUNT_LIMIT,
  opts: Pick<SearchOptions, 'sort' | 'pageSize'> = {},
): Promise<SearchPage & { count: SearchCount }> {
  let count = from?.count;
  if (!count && criterion === 'customerName' && !opts.sort) {
    // A first page of a name: the count and the walk of the first two tiers in one statement.
    const pageSize = opts.pageSize ?? SEARCH_PAGE_SIZE;
    const first = await nameStartCounted(db, term.toLowerCase(), pageSize + 1, limit);
    if (first.count.total === 0) return { rows: [], next: undefined, count: first.count };
    const page = await searchCustomers(db, criterion, term, undefined, {
      ...opts,
      many: first.count.capped,
      start: first.rows,
    });
    return { ...page, count: first.count };
  }
  if (!count && (opts.sort || criterion === 'sitename')) {
    // A sorted page's plan depends on the count, as a name's substring tier does; a site name's
    // too (its pages are sorted by the owners' name by default).
    count = await countMatches(db, criterion, term, limit);
    if (count.total === 0) return { rows: [], next: undefined, count };
  }
  const page = await searchCustomers(db, criterion, term, from?.at, {
    ...opts,
    many: count?.capped ?? false,
  });
  if (!count)
    count = page.next
      ? await countMatches(db, criterion, term, limit)
      : { total: page.rows.length, capped: false };
  return { ...page, count };
}

/**
 * The count of a name search (as countMatches) and the walk of its exact and prefix tiers, as one
 * statement: a first page of a short name term is then one round trip, not three.
 */
async function nameStartCounted(
  db: Queryable,
  term: string,
  need: number,
  limit: number,
): Promise<{ rows: KeyedRow[]; count: SearchCount }> {
  // The walk's parameters are $1 to $3, the count's limit $4, the name condition's $5 and $6.
  const [walk, params] = startWalk(term, undefined, need);
  const m = nameMatch(term, 5, 6);
  const r = await db.query<{ n: number; page: string | null }>(
    `SELECT (SELECT count(*)::int FROM (${m.rows} LIMIT $4) x) AS n,
       (${pageJsonSql(walk)}) AS page`,
    [...params, limit + 1, m.pattern, ...(m.trigram ? [m.trigram] : [])],
  );
  return { rows: parsePage(r.rows[0]?.page), count: capped(r.rows[0]?.n ?? 0, limit) };
}

/** The page of pageJsonSql, parsed (none: no rows). */
const parsePage = (page: string | null | undefined): KeyedRow[] =>
  page ? (JSON.parse(page) as KeyedRow[]) : [];

/** A query's rows as one JSON text in the page's order (the sort key, then uid, in byte order). */
const pageJsonSql = (sql: string, descending = false) => {
  const d = descending ? ' DESC' : '';
  return `SELECT json_agg(x ORDER BY x.k COLLATE "C"${d}, x.uid COLLATE "C"${d})::text AS page FROM (${sql}) x`;
};

/**
 * The rows of an ordered page query, answered as one JSON text. On PGlite, parsing nine fields a
 * row in JavaScript cost more than the index walk itself (a 51-row page: p50 0.9 -> 0.7 ms, p95
 * 2.7 -> 1.2 ms); the aggregate keeps the page's order (the sort key, then uid, in byte order).
 */
async function pageAsJson(
  db: Queryable,
  sql: string,
  params: unknown[],
  descending = false,
): Promise<KeyedRow[]> {
  const r = await db.query<{ page: string | null }>(pageJsonSql(sql, descending), params);
  return parsePage(r.rows[0]?.page);
}

/**
 * One page of the owners of the sites whose name matches a site-name term, in the owners' list
 * order (`sort`; by name by default), every owner once over the pages however many of their sites
 * match. Read in site_owner_keys (migration 0051), which holds each site's name beside its
 * owner's sort keys:
 * - many owners (`many`: the count was capped): walk the sort key's btree from the cursor and test
 *   each entry's site name, up to `walkWindow` entries, as a name substring walks the name btree;
 * - else, or when the window falls short: every matching site from the trigram index (a set of
 *   its own, so the planner cannot trade it for a walk that a rare term would take through the
 *   whole table), its owners sorted.
 */
async function siteOwners(
  db: Queryable,
  term: string,
  sort: CustomerSort,
  after: SearchPosition | undefined,
  limit: number,
  opts: SearchOptions,
): Promise<KeyedRow[]> {
  if (!fitsSiteName(term.toLowerCase())) return [];
  // $1 the LIKE pattern, $2 the limit, then the cursor's key and uid when there is one.
  const params: unknown[] = [namePattern(term), limit];
  const param = (v: unknown) => `$${params.push(v)}`;
  const cursorAt = (alias: string) =>
    after ? sortSql(sort, alias, `${alias}.k`).after(param(after.key), param(after.uid)) : 'true';
  // The owners' sort key as site_owner_keys holds it, the same on each of an owner's sites.
  const col = sort.key === 'name' ? 'k' : TIME_COLUMN[sort.key];
  // Each owner once, in the list's order, and the page's customers rows read for them alone. The
  // rows are keyed as the table holds them, the key the next page's cursor is compared with: were
  // an owner's sites ever to hold different keys, the owner would be listed twice, but the pages
  // would still move on. (Grouped by uid and key, the walk's groups come in its index order and
  // the LIMIT stops it early; grouped by uid alone, the whole window was sorted first.)
  const page = (alias: string, from: string) => {
    const key = sort.key === 'name' ? `${alias}.k` : microText(`${alias}.${col}`);
    return `SELECT ${SEARCH_COLUMNS}, p.k FROM (
       SELECT ${alias}.uid, ${key} AS k ${from} GROUP BY ${alias}.uid, ${alias}.${col}
       ORDER BY ${sortSql(sort, alias, `${alias}.k`).order} LIMIT $2) p
     JOIN customers c ON c.uid = p.uid`;
  };
  if (opts.many) {
    const from = cursorAt('t');
    const w = param(opts.walkWindow ?? WALK_WINDOW);
    const rows = await pageAsJson(
      db,
      page(
        'w',
        `FROM (SELECT t.uid, t.n, t.${col} FROM site_owner_keys t WHERE ${from}
           ORDER BY ${sortSql(sort, 't', 't.k').order} LIMIT ${w}) w
         WHERE w.n LIKE $1`,
      ),
      params,
      sort.descending,
    );
    if (rows.length >= limit) return rows;
    params.length = 2;
  }
  const trigram = param(siteTrigramTerm(namePattern(term)));
  return pageAsJson(
    db,
    `WITH m AS MATERIALIZED (SELECT t.uid, t.${col} FROM site_owner_keys t WHERE ${siteMatch(trigram)})
     ${page('m', `FROM m WHERE ${cursorAt('m')}`)}`,
    params,
    sort.descending,
  );
}

/**
 * Matching sites a site-name count reads: most owners hold a site or two, so this many per owner
 * counted finds limit + 1 owners when that many match.
 */
const SITES_READ_PER_OWNER = 4;

/**
 * How many customers own a site matching the term, exact up to `limit`: the owners of the first
 * SITES_READ_PER_OWNER × (limit + 1) matching sites, or of every matching site when those were
 * that many and their owners fewer than limit + 1 (a few owners of many such sites).
 *
 * A term that no site name can hold (fitsSiteName) is answered without a query: one without a
 * letter or digit ('...') gives the trigram index nothing to go on, and the index read every
 * entry (138 ms on PGlite at 1.1M sites).
 */
async function countSiteOwners(db: Queryable, term: string, limit: number): Promise<SearchCount> {
  if (!fitsSiteName(term.toLowerCase())) return { total: 0, capped: false };
  const pattern = namePattern(term);
  const matches = [pattern, siteTrigramTerm(pattern)];
  const match = `FROM site_owner_keys t WHERE ${siteMatch('$2')}`;
  const read = SITES_READ_PER_OWNER * (limit + 1);
  const r = await db.query<{ n: number; a: number }>(
    `SELECT count(DISTINCT x.uid)::int AS n, count(*)::int AS a FROM (SELECT t.uid ${match} LIMIT $3) x`,
    [...matches, read],
  );
  let { n = 0, a = 0 } = r.rows[0] ?? {};
  if (a >= read && n <= limit) {
    const all = await db.query<{ n: number }>(`SELECT count(DISTINCT t.uid)::int AS n ${match}`, matches);
    n = all.rows[0]?.n ?? 0;
  }
  return capped(n, limit);
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
