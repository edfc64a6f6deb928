import { escapeLike, SUBSTRING_MIN_LENGTH } from '@sac/contract/customers';
import type { CUSTOMER_SORT_KEYS, ListSort } from '@sac/contract/list-sort';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Queryable } from '../../db/db.ts';
import { firstRow, isoText, isoTextOf, qb, rows, statement } from '../../db/sql.ts';
import { hashSecret } from '../../lib/secrets.ts';
import { andInScope, customerInScope, siteRowInScope, whereInScope } from '../../lib/site-scope.ts';

/**
 * The search planner's SQL pieces: the expressions its indexes are built on, its sort orders and
 * keyset conditions, and the page-as-JSON runner its walks share. Values always go in as
 * parameters; sql.raw holds fixed text only (expressions and aliases written here).
 */

type Fragment = RawBuilder<unknown>;

/**
 * The planner's page statements are written whole in `sql` (ordered index walks with `USING ~<~`,
 * byte-order collations, a JSON aggregate over a dynamic inner statement); the rest use the builder.
 */
export { statement };

/**
 * What a search answer shows, as text: moving fewer, simpler columns is what 200 rows cost on
 * PGlite (bench/search.bench.ts).
 */
export const SEARCH_COLUMNS =
  sql.raw(`c.uid::text AS uid, c.first_name, c.last_name, c.email, c.status, c.role,
  ${isoTextOf('c.created_at')} AS created_at, ${isoTextOf('c.modified_at')} AS modified_at`);

/** A row as the search queries answer it: with its sort key, and its tier in a name search. */
const keyedRow = z.object({
  uid: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  status: z.string(),
  role: z.string(),
  created_at: z.string(),
  modified_at: z.string(),
  k: z.string(),
  tier: z.number().optional(),
});
export type KeyedRow = z.infer<typeof keyedRow>;
/** A row of a search answer. */
export type SearchRow = Omit<KeyedRow, 'k' | 'tier'>;
const keyedPage = z.array(keyedRow);

/** The lowercased full name, as answers and site-name searches key rows by it. */
const NAME_EXPR = sql.raw("lower(c.first_name || ' ' || c.last_name)");
/**
 * The expression the name trigram index is built on (customer_name_keys n, migration 0048): the
 * lowercased name with space, '-', "'" and '.' read as '0', so a term's trigrams span them; queries
 * use it verbatim with the term translated by joinedTrigramTerm, and a LIKE on the name decides.
 * The table holds each customer's name key (namePrefixExpr) and list times, narrow, so the
 * matches of a frequent term are tested and sorted without reading their customers rows.
 */
export const NAME_KEYS_TRGM_EXPR = sql.raw("translate(n.k, ' -''.', '0000')");
export const joinedTrigramTerm = (pattern: string) => pattern.replace(/[ \-'.]/g, '0');
/**
 * The same text as NAME_EXPR on the row `alias`, as the name prefix index (migration 0024) is built
 * on: an expression of its own, so prefix searches are planned with that index's small statistics.
 */
export const namePrefixExpr = (alias = 'c') =>
  sql.raw(`(lower(${alias}.first_name) || ' ' || lower(${alias}.last_name))`);
/**
 * The expression of the site-name trigram index (site_owner_keys t, migration 0051): the
 * lowercased site name with '-' read as a letter, so a term's trigrams span dashes; queries use it
 * verbatim with the term translated by siteTrigramTerm, and a LIKE on the name decides.
 */
const SITE_TRGM_EXPR = sql.raw("translate(t.n, '-', 'q')");
const siteTrigramTerm = (pattern: string) => pattern.replaceAll('-', 'q');
/** The sites of site_owner_keys t whose name matches the LIKE pattern (its trigram term beside it). */
export const siteMatch = (pattern: string) =>
  sql`${SITE_TRGM_EXPR} LIKE ${siteTrigramTerm(pattern)} AND t.n LIKE ${pattern}`;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The normal form of a stored phone number on the row `alias`, as migration 0037's index is built
 * on it: its digits, '+' in front when it starts with '+'. phoneSearchKey (contract) puts a term in
 * the same form.
 */
export const phoneKeyExpr = (alias = 'c') =>
  sql.raw(
    `(CASE WHEN ltrim(${alias}.phone) LIKE '+%' THEN '+' ELSE '' END || regexp_replace(${alias}.phone, '[^0-9]', '', 'g'))`,
  );

/**
 * The first text past every text that starts with `prefix`, in byte order (which is code point
 * order in UTF-8): the prefix with its last character one code point on, as PostgreSQL bounds a
 * LIKE prefix; a last character at the top code point moves the one before it instead. Undefined
 * when every character is at the top: then every text from the prefix on starts with it.
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

/**
 * Whether a search statement whose plan does not depend on its term (keyRange's) runs prepared:
 * when unscoped. A scope's conditions grow the text with its entries, so a scoped statement stays
 * unnamed rather than add a prepared statement per scope shape to every connection.
 */
export const planOnce = (scope: readonly SiteScope[] | undefined) => ({ prepared: scope === undefined });

/**
 * The texts of `key` that start with `prefix`, as the byte range they span in the pattern
 * operators (a text_pattern_ops btree answers it): unlike a LIKE, its plan does not depend on the
 * prefix, so a statement of it may run prepared, planned once per connection.
 */
export const keyRange = (key: RawBuilder<unknown>, prefix: string) => {
  const end = prefixEnd(prefix);
  return end === undefined
    ? sql<boolean>`${key} ~>=~ ${prefix}`
    : sql<boolean>`(${key} ~>=~ ${prefix} AND ${key} ~<~ ${end})`;
};

/** Name and site-name terms shorter than SUBSTRING_MIN_LENGTH match as a prefix. */
export const isPrefixTerm = (term: string) => term.length < SUBSTRING_MIN_LENGTH;

/** A LIKE pattern: substring from SUBSTRING_MIN_LENGTH characters, prefix below. */
export function namePattern(term: string): string {
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

/** How many customers a search matches: exact up to the limit; `capped` when more match. */
export interface SearchCount {
  total: number;
  capped: boolean;
}

/** A count read up to limit + 1: exact up to `limit`, else capped. */
export const capped = (n: number, limit: number): SearchCount => ({
  total: Math.min(n, limit),
  capped: n > limit,
});

/** A list order of the search (sort=name|created|modified, '-' descending); ties by uid. */
export type CustomerSort = ListSort<(typeof CUSTOMER_SORT_KEYS)[number]>;

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
  /** The caller's scope (role-scopes.ts): only customers in it match; absent: every customer. */
  scope?: readonly SiteScope[];
}

/**
 * `AND` the customer whose uid `uidColumn` holds is in the caller's scope; nothing for an unscoped
 * call. A scoped search tests it on each match its index walk or count reads, so what it reads
 * stays within the term's matches (and each walk's window), as the unscoped search's does.
 */
export const andCustomerInScope = (scope: readonly SiteScope[] | undefined, uidColumn: string) =>
  andInScope(customerInScope(scope, sql.ref(uidColumn)));

/**
 * How far an ordered walk of the name index looks for substring matches before it gives way to
 * the trigram index and a sort. A term held by many names (over SEARCH_COUNT_LIMIT) is usually
 * spread over the alphabet, so a page is found within a few thousand entries; one held only by
 * the first names of a few letters ('atric') would have the walk cross most of the index.
 */
export const WALK_WINDOW = 20_000;

/** The keyset condition of an ordered walk after (key, uid) on a (key, uid) index of customers c. */
export const afterKey = (key: Fragment, after: { key: string; uid: string }) =>
  sql`${key} ~>=~ ${after.key} AND (${key} ~>~ ${after.key} OR c.uid > ${after.uid}::uuid)`;

/** A timestamp as a sort key text: UTC, microseconds, fixed width, so byte order is time order. */
export const microText = (col: string) =>
  sql.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
/** What a sort key of a cursor must look like (microText): anything else would be a 500. */
export const SORT_TIME_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The column of a time sort; the name sort keys on namePrefixExpr (its btree, byte order). */
export const TIME_COLUMN = { created: 'created_at', modified: 'modified_at' } as const;

/**
 * The sort key of a row (as text, k), its ORDER BY and the keyset condition after (key, uid); the
 * name key is namePrefixExpr on the row `alias`, or the column `nameKey` that holds it.
 */
export function sortSql(sort: CustomerSort, alias = 'c', nameKey?: string) {
  const d = sort.descending;
  const uid = sql.raw(`${alias}.uid`);
  if (sort.key === 'name') {
    const K = nameKey ? sql.raw(nameKey) : namePrefixExpr(alias);
    return {
      key: K,
      order: sql`${K} USING ${sql.raw(d ? '~>~' : '~<~')}, ${uid}${sql.raw(d ? ' DESC' : '')}`,
      after: (k: string, u: string) =>
        d
          ? sql`${K} ~<=~ ${k} AND (${K} ~<~ ${k} OR ${uid} < ${u}::uuid)`
          : sql`${K} ~>=~ ${k} AND (${K} ~>~ ${k} OR ${uid} > ${u}::uuid)`,
    };
  }
  const col = sql.raw(`${alias}.${TIME_COLUMN[sort.key]}`);
  const dir = sql.raw(d ? ' DESC' : '');
  return {
    key: microText(`${alias}.${TIME_COLUMN[sort.key]}`),
    order: sql`${col}${dir}, ${uid}${dir}`,
    after: (k: string, u: string) =>
      sql`(${col}, ${uid}) ${sql.raw(d ? '<' : '>')} (${k}::timestamptz, ${u}::uuid)`,
  };
}

/**
 * The exact and prefix tiers of a name search as one walk of the name's text_pattern_ops btree
 * (key, uid) from the cursor: the exact name sorts first among the names it starts (byte order),
 * its rows by uid, which is the order of both tiers.
 */
export function startWalk(
  term: string,
  after: SearchPosition | undefined,
  limit: number,
  scope?: readonly SiteScope[],
): Fragment {
  const K = namePrefixExpr();
  return sql`SELECT ${SEARCH_COLUMNS}, ${K} AS k,
      CASE WHEN ${K} = ${term} THEN ${sql.lit(NAME_TIERS.exact)} ELSE ${sql.lit(NAME_TIERS.prefix)} END AS tier
    FROM customers c WHERE ${keyRange(K, term)} ${after ? sql`AND ${afterKey(K, after)}` : sql``}
    ${andCustomerInScope(scope, 'c.uid')} ORDER BY ${K} USING ~<~, c.uid LIMIT ${limit}`;
}

/** A query's rows as one JSON text in the page's order (the sort key, then uid, in byte order). */
export const pageJsonSql = (inner: Fragment, descending = false) => {
  const d = sql.raw(descending ? ' DESC' : '');
  return sql<{
    page: string | null;
  }>`SELECT json_agg(x ORDER BY x.k COLLATE "C"${d}, x.uid COLLATE "C"${d})::text AS page FROM (${inner}) x`;
};

/** The page of pageJsonSql, parsed (none: no rows). */
export const parsePage = (page: string | null | undefined): KeyedRow[] =>
  page ? keyedPage.parse(JSON.parse(page)) : [];

/**
 * The rows of an ordered page query, answered as one JSON text. On PGlite, parsing nine fields a
 * row in JavaScript cost more than the index walk itself (a 51-row page: p50 0.9 -> 0.7 ms, p95
 * 2.7 -> 1.2 ms); the aggregate keeps the page's order (the sort key, then uid, in byte order).
 */
export async function pageAsJson(
  db: Queryable,
  inner: Fragment,
  opts: { descending?: boolean; prepared?: boolean } = {},
): Promise<KeyedRow[]> {
  const r = await firstRow(db, statement(pageJsonSql(inner, opts.descending)), { prepared: opts.prepared });
  return parsePage(r?.page);
}

/** The columns of a search answer (SEARCH_COLUMNS) for the builder, keyed by the full name. */
const SEARCH_SELECT = [
  sql<string>`c.uid::text`.as('uid'),
  'c.first_name',
  'c.last_name',
  'c.email',
  'c.status',
  'c.role',
  sql<string>`${isoText('c.created_at')}`.as('created_at'),
  sql<string>`${isoText('c.modified_at')}`.as('modified_at'),
  sql<string>`${NAME_EXPR}`.as('k'),
] as const;

/**
 * The customer a unique key names (uid, a site's API key or secret): one at most, so a single
 * page and nothing to sort. A term that cannot be a uuid matches nothing without a query.
 */
export async function uniqueKeyRows(
  db: Queryable,
  criterion: 'uid' | 'apikey' | 'apisecret',
  term: string,
  scope?: readonly SiteScope[],
): Promise<KeyedRow[]> {
  if (criterion !== 'apisecret' && !UUID_PATTERN.test(term)) return [];
  if (criterion === 'uid') {
    const inScope = customerInScope(scope, sql.ref('c.uid'));
    return rows(
      db,
      qb
        .selectFrom('customers as c')
        .select(SEARCH_SELECT)
        .where('c.uid', '=', term.toLowerCase())
        .$call(whereInScope(inScope)),
    );
  }
  // A key names a site: a scoped caller finds its owner only through a site in scope.
  const siteInScope = siteRowInScope(scope, 's');
  const sites = qb
    .selectFrom('sites as s')
    .innerJoin('customers as c', 'c.uid', 's.owner_uid')
    .select(SEARCH_SELECT)
    .$call(whereInScope(siteInScope));
  return rows(
    db,
    criterion === 'apikey'
      ? sites.where('s.api_key', '=', term.toLowerCase())
      : sites.where('s.secret_hash', '=', hashSecret(term)),
  );
}
