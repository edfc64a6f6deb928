import { phoneSearchKey, type SearchCriterion } from '@sac/contract/customers';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, qb } from '../../db/sql.ts';
import { customerInScope } from '../../lib/site-scope.ts';
import {
  capped,
  isPrefixTerm,
  joinedTrigramTerm,
  type KeyedRow,
  keyRange,
  NAME_KEYS_TRGM_EXPR,
  namePattern,
  namePrefixExpr,
  pageJsonSql,
  parsePage,
  phoneKeyExpr,
  planOnce,
  type SearchCount,
  startWalk,
  uniqueKeyRows,
} from './search-sql.ts';
import { countSiteOwners } from './site-owner-search.repo.ts';

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
  scope?: readonly SiteScope[],
): Promise<SearchCount> {
  let matches: ReturnType<typeof nameMatch>;
  let run: { prepared?: boolean } = {};
  switch (criterion) {
    case 'customerName':
      matches = nameMatch(term, limit + 1, scope);
      break;
    case 'emailid': {
      // A customer has at most two addresses: of any 2 (limit + 1) matching addresses, the
      // distinct customers are the exact count, or there are more than `limit` of them: an
      // index-only scan of the covering pattern index (migration 0046). The prefix is written as
      // the byte range it spans, in the pattern operators only that index has: as a LIKE, PGlite
      // read it through the primary key, a plain btree that reads the heap for each uid (2,027
      // pages for 'ric'), and an ORDER BY did not hold it. (Probing each address for a sibling,
      // as the page does, cost 60 ms for 'mar' at 1M.)
      const r = await firstRow(
        db,
        qb
          .selectFrom(
            qb
              .selectFrom('customer_addresses as a')
              .select('a.uid')
              .where(keyRange(sql`a.address`, term.toLowerCase()))
              .$call(inScope(scope, 'a.uid'))
              .limit(2 * (limit + 1))
              .as('x'),
          )
          .select((eb) => [
            eb.fn.count<number>('x.uid').distinct().as('n'),
            eb.fn.countAll<number>().as('a'),
          ]),
        // its plan does not depend on the term: planned once per connection (as the page)
        planOnce(scope),
      );
      const n = Number(r?.n ?? 0);
      const a = Number(r?.a ?? 0);
      return { total: Math.min(n, limit), capped: n > limit || a >= 2 * (limit + 1) };
    }
    case 'sitename':
      return countSiteOwners(db, term, limit, scope);
    case 'phone':
      matches = qb
        .selectFrom('customers as c')
        .select(sql.lit(1).as('one'))
        // a literal, not a parameter: a prepared statement's generic plan must see the phone
        // index's own condition to use it (a bound '' read all customers: 163 ms at 1M)
        .where(sql<boolean>`c.phone <> ''`)
        .where(keyRange(phoneKeyExpr(), phoneSearchKey(term) ?? ''))
        .$call(inScope(scope, 'c.uid'))
        .limit(limit + 1)
        .as('x');
      run = planOnce(scope);
      break;
    default: {
      // unique keys: the page itself is the count
      const found = await uniqueKeyRows(db, criterion, term, scope);
      return { total: found.length, capped: false };
    }
  }
  const r = await firstRow(
    db,
    qb.selectFrom(matches).select((eb) => eb.fn.countAll<number>().as('n')),
    run,
  );
  return capped(Number(r?.n ?? 0), limit);
}

/**
 * What a name search matches, every tier holding the term: a prefix below SUBSTRING_MIN_LENGTH
 * characters (the prefix btree of customers), else a substring (the name-key table's trigram
 * index, then the name key itself decides). A statement of a row per match, up to `limit`.
 */
function nameMatch(term: string, limit: number, scope: readonly SiteScope[] | undefined) {
  const pattern = namePattern(term);
  if (isPrefixTerm(term))
    return qb
      .selectFrom('customers as c')
      .select(sql.lit(1).as('one'))
      .where(sql<boolean>`${namePrefixExpr()} LIKE ${pattern}`)
      .$call(inScope(scope, 'c.uid'))
      .limit(limit)
      .as('x');
  return qb
    .selectFrom('customer_name_keys as n')
    .select(sql.lit(1).as('one'))
    .where(sql<boolean>`${NAME_KEYS_TRGM_EXPR} LIKE ${joinedTrigramTerm(pattern)}`)
    .where('n.k', 'like', pattern)
    .$call(inScope(scope, 'n.uid'))
    .limit(limit)
    .as('x');
}

/**
 * The count of a name search (as countMatches) and the walk of its exact and prefix tiers, as one
 * statement: a first page of a short name term is then one round trip, not three.
 */
export async function nameStartCounted(
  db: Queryable,
  term: string,
  need: number,
  limit: number,
  scope?: readonly SiteScope[],
): Promise<{ rows: KeyedRow[]; count: SearchCount }> {
  const r = await firstRow(
    db,
    qb.selectNoFrom((eb) => [
      eb
        .selectFrom(nameMatch(term, limit + 1, scope))
        .select(eb.fn.countAll<number>().as('n'))
        .as('n'),
      sql<string | null>`(${pageJsonSql(startWalk(term, undefined, need, scope))})`.as('page'),
    ]),
  );
  return { rows: parsePage(r?.page), count: capped(Number(r?.n ?? 0), limit) };
}

/**
 * A count's match statement kept to the caller's scope: the customer whose uid `uidColumn` holds
 * is in it, tested on each match before the count's LIMIT; unchanged for an unscoped call.
 */
function inScope(scope: readonly SiteScope[] | undefined, uidColumn: string) {
  const condition: Expression<SqlBool> | undefined = customerInScope(scope, sql.ref(uidColumn));
  return <Q extends { where(c: Expression<SqlBool>): Q }>(q: Q): Q => (condition ? q.where(condition) : q);
}
