import {
  escapeLike,
  phoneSearchKey,
  SEARCH_COUNT_LIMIT,
  SEARCH_PAGE_SIZE,
  type SearchCriterion,
} from '@sac/contract/customers';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type RawBuilder, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, isoText, qb, rows } from '../../db/sql.ts';
import { emailPrefixPage, phonePrefixPage } from './key-prefix-search.repo.ts';
import { countMatches, nameStartCounted } from './search-counts.repo.ts';
import {
  afterKey,
  andCustomerInScope,
  type CustomerSort,
  isPrefixTerm,
  joinedTrigramTerm,
  type KeyedRow,
  NAME_KEYS_TRGM_EXPR,
  NAME_TIERS,
  namePattern,
  namePrefixExpr,
  pageAsJson,
  phoneKeyExpr,
  planOnce,
  SEARCH_COLUMNS,
  type SearchCount,
  type SearchOptions,
  type SearchPosition,
  type SearchRow,
  sortSql,
  startWalk,
  statement,
  uniqueKeyRows,
  WALK_WINDOW,
} from './search-sql.ts';
import { siteOwners } from './site-owner-search.repo.ts';

export interface SearchPage {
  rows: SearchRow[];
  /** Where the next page starts; undefined on the last page. */
  next: SearchPosition | undefined;
}

/** The most index entries a walk reads, in windows: this many first windows' worth. */
const WALK_MAX_WINDOWS = 3;

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
    case 'emailid': {
      if (sort) {
        rows = await sortedPage(db, criterion, term, sort, after, pageSize + 1, opts);
        break;
      }
      rows = await emailPrefixPage(db, term, after, pageSize + 1, opts.scope);
      break;
    }
    case 'phone': {
      const key = phoneSearchKey(term);
      if (key === undefined) return { rows: [], next: undefined };
      if (sort) {
        rows = await sortedPage(db, criterion, term, sort, after, pageSize + 1, opts);
        break;
      }
      rows = await phonePrefixPage(db, key, after, pageSize + 1, opts.scope);
      break;
    }
    case 'uid':
    case 'apikey':
    case 'apisecret':
      // Unique keys: one customer at most, so a single page and nothing to sort.
      if (after) return { rows: [], next: undefined };
      rows = await uniqueKeyRows(db, criterion, term, opts.scope);
      break;
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

/** A site-name search's own order: its owners by name, then uid. */
const BY_NAME: CustomerSort = { key: 'name', descending: false };

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
    // a later page's walk is planned once per connection (keyRange): the first is in the count's statement
    out.push(
      ...(opts.start ??
        (await pageAsJson(db, startWalk(term, after, need, opts.scope), planOnce(opts.scope)))),
    );
  if (out.length >= need || isPrefixTerm(term)) return out;
  const from = after?.tier === NAME_TIERS.substring ? after : undefined;
  for (const row of await substringTier(db, term, from, need - out.length, opts))
    out.push({ ...row, tier: NAME_TIERS.substring });
  return out;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** The start of the name btree ('' and the nil uuid), for a walk from the first entry. */
const INDEX_START = { key: '', uid: NIL_UUID };

/** Up to `limit` names holding the term (lowercased) past their start, after `after`, in order. */
async function substringTier(
  db: Queryable,
  term: string,
  after: SearchPosition | undefined,
  limit: number,
  opts: SearchOptions,
): Promise<KeyedRow[]> {
  const K = namePrefixExpr();
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
        sql`SELECT w.uid::text AS uid, w.first_name, w.last_name, w.email, w.status, w.role,
           ${isoText('w.created_at')} AS created_at, ${isoText('w.modified_at')} AS modified_at, w.k
         FROM (SELECT ${K} AS k, c.uid, c.first_name, c.last_name, c.email, c.status, c.role, c.created_at,
             c.modified_at
           FROM customers c WHERE ${afterKey(K, from ?? INDEX_START)} ORDER BY ${K} USING ~<~, c.uid LIMIT ${window}) w
         WHERE w.k LIKE ${substring} AND w.k NOT LIKE ${prefix} ${andCustomerInScope(opts.scope, 'w.uid')}
         LIMIT ${limit - found.length}`,
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
  return found.concat(
    await pageAsJson(
      db,
      sql`SELECT ${SEARCH_COLUMNS}, m.k FROM (SELECT n.k, n.uid FROM customer_name_keys n
         WHERE ${NAME_KEYS_TRGM_EXPR} LIKE ${joinedTrigramTerm(substring)} AND n.k LIKE ${substring}
         AND n.k NOT LIKE ${prefix} ${andCustomerInScope(opts.scope, 'n.uid')}
         ${from ? sql`AND (n.k COLLATE "C" > ${from.key} OR (n.k = ${from.key} AND n.uid > ${from.uid}::uuid))` : sql``}
         ORDER BY n.k COLLATE "C", n.uid LIMIT ${limit - found.length}) m
       JOIN customers c ON c.uid = m.uid`,
    ),
  );
}

/**
 * The last entry of a walk's window: the `window`th entry of the name btree after `from`, or
 * undefined when the index ends before it. Read apart from the walk, and only when the walk goes
 * on: a row number on every walked entry cost as much as the walk itself (20,000 entries on
 * PGlite: 14 ms with it, 7 ms without, 4.5 ms for this read).
 */
function windowEnd(db: Queryable, from: SearchPosition | undefined, window: number) {
  const K = namePrefixExpr();
  return firstRow(
    db,
    qb
      .selectFrom('customers as c')
      .select([sql<string>`${K}`.as('k'), sql<string>`c.uid::text`.as('uid')])
      .where(sql<boolean>`${afterKey(K, from ?? INDEX_START)}`)
      .orderBy(sql`${K} USING ~<~`)
      .orderBy('c.uid')
      .offset(window - 1)
      .limit(1),
  );
}

export type ListedCriterion = 'customerName' | 'emailid' | 'phone';

/**
 * Whether a customer matches a name, email or phone term (its LIKE pattern), on the customer's
 * row `alias`. A name substring's matches are found in the name-key table instead (sortedPage).
 */
function matchSql(criterion: ListedCriterion, alias: string, pattern: string): RawBuilder<unknown> {
  switch (criterion) {
    case 'customerName':
      return sql`${namePrefixExpr(alias)} LIKE ${pattern}`;
    case 'emailid':
      return sql`EXISTS (SELECT 1 FROM customer_addresses a WHERE a.uid = ${sql.raw(alias)}.uid AND a.address LIKE ${pattern})`;
    case 'phone':
      return sql`${sql.raw(alias)}.phone <> '' AND ${phoneKeyExpr(alias)} LIKE ${pattern}`;
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
  criterion: ListedCriterion,
  term: string,
  sort: CustomerSort,
  after: SearchPosition | undefined,
  limit: number,
  opts: SearchOptions,
): Promise<KeyedRow[]> {
  const pattern = listedPattern(criterion, term);
  const cursorAt = (alias: string, nameKey?: string) =>
    after ? sql`AND ${sortSql(sort, alias, nameKey).after(after.key, after.uid)}` : sql``;
  const o = sortSql(sort);
  if (criterion === 'customerName' && isPrefixTerm(term) && sort.key === 'name') {
    return pageAsJson(
      db,
      sql`SELECT ${SEARCH_COLUMNS}, ${o.key} AS k FROM customers c
       WHERE ${matchSql(criterion, 'c', pattern)} ${cursorAt('c')} ${andCustomerInScope(opts.scope, 'c.uid')}
       ORDER BY ${o.order} LIMIT ${limit}`,
      { descending: sort.descending },
    );
  }
  if (opts.many && (await walkPays(db, criterion, term, opts.walkMin ?? SORTED_WALK_MIN, opts.scope))) {
    // The walk reads the sort key's covering index only, from the cursor, and tests each entry.
    // A page it does not fill within the window (or at the end of the table) is sorted instead:
    // no row count over the window (a window function cost a fifth of the walk). An email is
    // tested on the entry itself under a time sort (its addresses are its email and sign-in
    // email, both in the time indexes, migration 0049). Under the name sort (the name index has no
    // sign-in email) the test asks the address table, kept from becoming a semi-join (IS TRUE), so
    // the planner hashes the matching addresses once instead of probing the address table for
    // each of 20,000 entries (200 ms at 1M); that hash is what a short prefix's page costs
    // (61,784 addresses for 'ma', 25 ms).
    const rowTest = criterion === 'emailid' && sort.key !== 'name';
    const test = rowTest
      ? sql`(lower(w.email) LIKE ${pattern} OR lower(w.auth_email) LIKE ${pattern})`
      : criterion === 'emailid'
        ? sql`(${matchSql(criterion, 'w', pattern)}) IS TRUE`
        : matchSql(criterion, 'w', pattern);
    const extra = sql.raw(`${criterion === 'phone' ? ', c.phone' : ''}${rowTest ? ', c.auth_email' : ''}`);
    const rows = await pageAsJson(
      db,
      sql`SELECT w.uid::text AS uid, w.first_name, w.last_name, w.email, w.status, w.role,
         ${isoText('w.created_at')} AS created_at, ${isoText('w.modified_at')} AS modified_at, w.k
       FROM (SELECT ${o.key} AS k, c.uid, c.first_name, c.last_name, c.email, c.status, c.role, c.created_at,
           c.modified_at${extra}
         FROM customers c WHERE true ${cursorAt('c')} ORDER BY ${o.order} LIMIT ${opts.walkWindow ?? WALK_WINDOW}) w
       WHERE ${test} ${andCustomerInScope(opts.scope, 'w.uid')} LIMIT ${limit}`,
      { descending: sort.descending },
    );
    if (rows.length >= limit) return rows;
  }
  // The matches' uids and sort keys, sorted; the page's customers rows are read and formatted
  // after the sort, for them alone.
  return pageAsJson(
    db,
    sql`WITH m AS MATERIALIZED (${sortKeysOfMatches(criterion, term, pattern)})
     SELECT ${SEARCH_COLUMNS}, ${o.key} AS k FROM (
       SELECT m.uid FROM m WHERE true ${cursorAt('m', 'm.k')} ${andCustomerInScope(opts.scope, 'm.uid')} ORDER BY ${sortSql(sort, 'm', 'm.k').order}
       LIMIT ${limit}) p
     JOIN customers c ON c.uid = p.uid`,
    { descending: sort.descending },
  );
}

/** A name, email or phone term's LIKE pattern, as its sorted pages match it. */
function listedPattern(criterion: ListedCriterion, term: string): string {
  return criterion === 'customerName'
    ? namePattern(term)
    : `${escapeLike(criterion === 'phone' ? (phoneSearchKey(term) ?? '') : term.toLowerCase())}%`;
}

/**
 * Every customer a name, email or phone search matches, in its list's order (under `sort`; a name
 * unsorted: the exact and prefix tiers, then the substring tier, each by the lowercased name in
 * byte order, then uid), up to `limit`: their uids alone, from one sort of the matches. An export
 * reads its rows in batches of these (rowsOfUids), in time linear in the rows; pages after a
 * cursor would sort the matches past it again for every batch. At most `limit` uids (the export's
 * row limit) are held, not the rows. With `only` (an export's selection), those of them alone.
 */
export async function matchesInOrder(
  db: Queryable,
  criterion: ListedCriterion,
  term: string,
  sort: CustomerSort | undefined,
  limit: number,
  scope?: readonly SiteScope[],
  only?: readonly string[],
): Promise<string[]> {
  if (criterion === 'phone' && phoneSearchKey(term) === undefined) return [];
  const t = criterion === 'customerName' ? term.toLowerCase() : term;
  const order = sort
    ? sortSql(sort, 'm', 'm.k').order
    : sql`NOT (m.k LIKE ${`${escapeLike(t)}%`}), m.k COLLATE "C", m.uid`;
  const found = await rows(
    db,
    statement(
      sql<{ uid: string }>`SELECT m.uid::text AS uid
        FROM (${sortKeysOfMatches(criterion, t, listedPattern(criterion, t), only)}) m
        WHERE true ${andCustomerInScope(scope, 'm.uid')} ORDER BY ${order} LIMIT ${limit}`,
    ),
  );
  return found.map((r) => r.uid);
}

/**
 * The customers of `uids` as search rows, in the order given (a customer since removed is left
 * out), each looked up by its primary key: OFFSET 0 keeps the lookup a nested loop, where a join
 * was hashed against every customer (a read of the whole table for each batch, on PGlite).
 */
export async function rowsOfUids(db: Queryable, uids: readonly string[]): Promise<SearchRow[]> {
  const r = await firstRow(
    db,
    statement(
      sql<{ page: string | null }>`SELECT json_agg(x ORDER BY x.i)::text AS page FROM (
        SELECT ${SEARCH_COLUMNS}, u.i FROM unnest(${uids}::uuid[]) WITH ORDINALITY AS u(uid, i)
        CROSS JOIN LATERAL (SELECT * FROM customers c WHERE c.uid = u.uid OFFSET 0) c) x`,
    ),
  );
  return r?.page ? (JSON.parse(r.page) as SearchRow[]) : [];
}

/**
 * Every match of a sorted list's term with its sort keys (uid, k, created_at, modified_at; the
 * LIKE pattern given). A name substring's come from the narrow name-key table's trigram index, a
 * name prefix's from the covering name btree. An email's or a phone's uids come from their own
 * index, and their keys from the name-key table one uid at a time (OFFSET 0 keeps the lookup a
 * nested loop: as a join, PostgreSQL hashed 'elijah''s 2,223 addresses and scanned every customer
 * against them, 180 ms). With `only`, those among these uids: each source narrowed by its uid index.
 */
function sortKeysOfMatches(
  criterion: ListedCriterion,
  term: string,
  pattern: string,
  only?: readonly string[],
): RawBuilder<unknown> {
  const among = (uid: string) => (only ? sql`AND ${sql.ref(uid)} = ANY(${only}::uuid[])` : sql``);
  if (criterion === 'customerName' && isPrefixTerm(term))
    return sql`SELECT c.uid, ${namePrefixExpr()} AS k, c.created_at, c.modified_at FROM customers c
      WHERE ${matchSql(criterion, 'c', pattern)} ${among('c.uid')}`;
  if (criterion === 'customerName')
    return sql`SELECT n.uid, n.k, n.created_at, n.modified_at FROM customer_name_keys n
      WHERE ${NAME_KEYS_TRGM_EXPR} LIKE ${joinedTrigramTerm(pattern)} AND n.k LIKE ${pattern} ${among('n.uid')}`;
  const uids =
    criterion === 'emailid'
      ? sql`SELECT DISTINCT a.uid FROM customer_addresses a WHERE a.address LIKE ${pattern} ${among('a.uid')}`
      : sql`SELECT c.uid FROM customers c WHERE ${matchSql(criterion, 'c', pattern)} ${among('c.uid')}`;
  return sql`SELECT n.uid, n.k, n.created_at, n.modified_at FROM (${uids}) u
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
  criterion: ListedCriterion,
  term: string,
  min: number,
  scope: readonly SiteScope[] | undefined,
): Promise<boolean> {
  if (min === 0 || (criterion === 'customerName' && !isPrefixTerm(term))) return true;
  return (await countMatches(db, criterion, term, min, scope)).capped;
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
  opts: Pick<SearchOptions, 'sort' | 'pageSize' | 'scope'> = {},
): Promise<SearchPage & { count: SearchCount }> {
  let count = from?.count;
  if (!count && criterion === 'customerName' && !opts.sort) {
    // A first page of a name: the count and the walk of the first two tiers in one statement.
    const pageSize = opts.pageSize ?? SEARCH_PAGE_SIZE;
    const first = await nameStartCounted(db, term.toLowerCase(), pageSize + 1, limit, opts.scope);
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
    count = await countMatches(db, criterion, term, limit, opts.scope);
    if (count.total === 0) return { rows: [], next: undefined, count };
  }
  const page = await searchCustomers(db, criterion, term, from?.at, {
    ...opts,
    many: count?.capped ?? false,
  });
  if (!count)
    count = page.next
      ? await countMatches(db, criterion, term, limit, opts.scope)
      : { total: page.rows.length, capped: false };
  return { ...page, count };
}
