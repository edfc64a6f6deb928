import type { SiteScope } from '@sac/contract/role-scopes';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { qb, rows } from '../../db/sql.ts';
import { siteRowInScope, whereInScope } from '../../lib/site-scope.ts';
import { searchCustomers } from './customer-search.repo.ts';
import { namePattern, siteMatch } from './search-sql.ts';

/** A site as a picker lists it: its id and name, and whose it is. */
export interface PickedSite {
  AppId: number;
  AppName: string;
  OwnerName: string;
  OwnerEmail: string;
}

const siteColumns = ['s.app_id', 's.app_name', 'c.first_name', 'c.last_name', 'c.email'] as const;

/**
 * Sites found by a term, for a picker (a notice's chosen sites): those whose name matches, in name
 * order, then the sites of the customers whose name matches, in the customer search's order. The
 * same matching as the customer search (its site-name trigram index and its name search), each
 * part bounded by `limit`, so a short or common term costs no more than one search page.
 */
export async function sitesByNameOrOwner(
  db: Queryable,
  term: string,
  limit: number,
  scope?: readonly SiteScope[],
): Promise<PickedSite[]> {
  const pattern = namePattern(term);
  // a scoped caller's picker lists only sites in their scope (role-scopes.ts)
  const inScope = siteRowInScope(scope, 's');
  const [bySite, owners] = await Promise.all([
    rows(
      db,
      qb
        .selectFrom('site_owner_keys as t')
        .innerJoin('sites as s', 's.app_id', 't.app_id')
        .innerJoin('customers as c', 'c.uid', 's.owner_uid')
        .select(siteColumns)
        .where(sql<boolean>`${siteMatch(pattern)}`)
        .$call(whereInScope(inScope))
        .orderBy('t.n')
        .orderBy('s.app_id')
        .limit(limit),
    ),
    searchCustomers(db, 'customerName', term, undefined, { pageSize: limit }),
  ]);
  const uids = owners.rows.map((r) => r.uid);
  const byOwner =
    uids.length === 0
      ? []
      : await rows(
          db,
          qb
            .selectFrom('sites as s')
            .innerJoin('customers as c', 'c.uid', 's.owner_uid')
            .select(siteColumns)
            .where('s.owner_uid', 'in', uids)
            .$call(whereInScope(inScope))
            // the search's order of owners (the best name match first) before the cut
            .orderBy(sql`array_position(${sql.val(uids)}::uuid[], s.owner_uid)`)
            .orderBy('s.app_name')
            .limit(limit),
        );
  const seen = new Set<number>();
  const out: PickedSite[] = [];
  for (const r of [...bySite, ...byOwner]) {
    const id = Number(r.app_id);
    if (seen.has(id) || out.length >= limit) continue;
    seen.add(id);
    out.push({
      AppId: id,
      AppName: r.app_name,
      OwnerName: `${r.first_name} ${r.last_name}`.trim(),
      OwnerEmail: r.email,
    });
  }
  return out;
}
