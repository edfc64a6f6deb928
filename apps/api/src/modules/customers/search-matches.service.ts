import { criterionOf, type SearchCriterion } from '@sac/contract/customers';
import type { SiteScope } from '@sac/contract/role-scopes';
import type { Queryable } from '../../db/db.ts';
import { matchesInOrder, searchCustomers } from './customer-search.repo.ts';

/**
 * The uids of the customers a search matches, at most `limit`: the criterion's own match, as GET
 * /admin/searchcustomer answers it (either address of an email, a phone number's digits, a name's
 * three tiers, a site name's owners, a unique key), within the caller's scope, in one statement. A
 * bulk selection of "all matching" (modules/bulk) resolves by it: the set is the list's (the order
 * a name search's, or a unique key's or site name's own list order).
 */
export async function customersMatching(
  db: Queryable,
  search: { [K in SearchCriterion]?: string | undefined },
  scope: readonly SiteScope[] | undefined,
  limit: number,
): Promise<string[]> {
  const { criterion, term } = criterionOf(search);
  if (criterion === 'customerName' || criterion === 'emailid' || criterion === 'phone')
    return matchesInOrder(db, criterion, term, undefined, limit, scope);
  // A unique key (one customer at most), or a site name's owners: one page that holds them all.
  const page = await searchCustomers(db, criterion, term, undefined, {
    pageSize: limit,
    ...(scope ? { scope } : {}),
  });
  return page.rows.map((r) => r.uid);
}
