import { fitsSiteName } from '@sac/contract/customer-writes';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type RawBuilder, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, qb } from '../../db/sql.ts';
import { andInScope, siteIdInScope } from '../../lib/site-scope.ts';
import {
  type CustomerSort,
  capped,
  type KeyedRow,
  microText,
  namePattern,
  pageAsJson,
  SEARCH_COLUMNS,
  type SearchCount,
  type SearchOptions,
  type SearchPosition,
  siteMatch,
  sortSql,
  TIME_COLUMN,
  WALK_WINDOW,
} from './search-sql.ts';

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
export async function siteOwners(
  db: Queryable,
  term: string,
  sort: CustomerSort,
  after: SearchPosition | undefined,
  limit: number,
  opts: SearchOptions,
): Promise<KeyedRow[]> {
  if (!fitsSiteName(term.toLowerCase())) return [];
  const pattern = namePattern(term);
  const cursorAt = (alias: string) =>
    after ? sortSql(sort, alias, `${alias}.k`).after(after.key, after.uid) : sql`true`;
  // The owners' sort key as site_owner_keys holds it, the same on each of an owner's sites.
  const col = sort.key === 'name' ? 'k' : TIME_COLUMN[sort.key];
  // Each owner once, in the list's order, and the page's customers rows read for them alone. The
  // rows are keyed as the table holds them, the key the next page's cursor is compared with: were
  // an owner's sites ever to hold different keys, the owner would be listed twice, but the pages
  // would still move on. (Grouped by uid and key, the walk's groups come in its index order and
  // the LIMIT stops it early; grouped by uid alone, the whole window was sorted first.)
  const page = (alias: string, from: RawBuilder<unknown>) => {
    const key = sort.key === 'name' ? sql.raw(`${alias}.k`) : microText(`${alias}.${col}`);
    return sql`SELECT ${SEARCH_COLUMNS}, p.k FROM (
       SELECT ${sql.raw(`${alias}.uid`)}, ${key} AS k ${from} GROUP BY ${sql.raw(`${alias}.uid, ${alias}.${col}`)}
       ORDER BY ${sortSql(sort, alias, `${alias}.k`).order} LIMIT ${limit}) p
     JOIN customers c ON c.uid = p.uid`;
  };
  if (opts.many) {
    const rows = await pageAsJson(
      db,
      page(
        'w',
        sql`FROM (SELECT t.uid, t.n, ${sql.raw(`t.${col}`)}${opts.scope ? sql`, t.app_id` : sql``} FROM site_owner_keys t WHERE ${cursorAt('t')}
           ORDER BY ${sortSql(sort, 't', 't.k').order} LIMIT ${opts.walkWindow ?? WALK_WINDOW}) w
         WHERE w.n LIKE ${pattern} ${andInScope(siteIdInScope(opts.scope, sql.ref('w.app_id')))}`,
      ),
      { descending: sort.descending },
    );
    if (rows.length >= limit) return rows;
  }
  return pageAsJson(
    db,
    sql`WITH m AS MATERIALIZED (SELECT t.uid, ${sql.raw(`t.${col}`)} FROM site_owner_keys t WHERE ${siteMatch(pattern)}
       ${andInScope(siteIdInScope(opts.scope, sql.ref('t.app_id')))})
     ${page('m', sql`FROM m WHERE ${cursorAt('m')}`)}`,
    { descending: sort.descending },
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
export async function countSiteOwners(
  db: Queryable,
  term: string,
  limit: number,
  scope?: readonly SiteScope[],
): Promise<SearchCount> {
  if (!fitsSiteName(term.toLowerCase())) return { total: 0, capped: false };
  // A scoped caller counts the owners of the matching sites in scope only.
  const match = sql<boolean>`${siteMatch(namePattern(term))} ${andInScope(siteIdInScope(scope, sql.ref('t.app_id')))}`;
  const read = SITES_READ_PER_OWNER * (limit + 1);
  const r = await firstRow(
    db,
    qb
      .selectFrom(qb.selectFrom('site_owner_keys as t').select('t.uid').where(match).limit(read).as('x'))
      .select((eb) => [eb.fn.count<number>('x.uid').distinct().as('n'), eb.fn.countAll<number>().as('a')]),
  );
  let n = Number(r?.n ?? 0);
  if (Number(r?.a ?? 0) >= read && n <= limit) {
    const all = await firstRow(
      db,
      qb
        .selectFrom('site_owner_keys as t')
        .select((eb) => eb.fn.count<number>('t.uid').distinct().as('n'))
        .where(match),
    );
    n = Number(all?.n ?? 0);
  }
  return capped(n, limit);
}
