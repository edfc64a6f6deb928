import type { BulkCustomersDryRunBody } from '@sac/contract/bulk';
import { criterionOf } from '@sac/contract/customers';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { customersMatching } from '../customers/search-matches.service.ts';
import { type NewItem, sitesOfCustomers } from './bulk.repo.ts';
import type { BulkKind } from './bulk-kinds.ts';
import { plannedSite, runSiteItem, siteRefusal, undoSiteItems } from './site-items.ts';

/**
 * The customers a selection names: the rows picked, or every customer the search matches (its
 * criterion as GET /admin/searchcustomer reads it, in the actor's scope), at most `limit` − 1: a
 * search matching more is refused naming the bound, as its sites would be cut short.
 */
async function customersOf(ctx: AppContext, call: StaffCall, body: BulkCustomersDryRunBody, limit: number) {
  const sel = body.Selection;
  if (sel.Kind === 'rows') return [...new Set(sel.Uids.map((u) => u.toLowerCase()))];
  const uids = await customersMatching(ctx.db, sel.Search, call.session.scope, limit);
  if (uids.length >= limit)
    throw new AppError(
      'bulkTooLarge',
      `The search matches more than ${limit - 1} customers; a bulk action takes at most ${limit - 1} (BULK_MAX_ITEMS). Narrow the search.`,
    );
  return uids;
}

/**
 * The items of a plan: the owned sites of each customer selected, in the actor's scope (what the
 * customer's sites list shows them), by customer in the selection's order then by appId, each
 * judged by the site items' own rule (site-items.ts) and labelled with its owner's address.
 */
async function planCustomerSites(
  ctx: AppContext,
  call: StaffCall,
  body: BulkCustomersDryRunBody,
  limit: number,
): Promise<NewItem[]> {
  const uids = await customersOf(ctx, call, body, limit);
  const place = new Map(uids.map((u, i) => [u, i]));
  const sites = await sitesOfCustomers(ctx.db, uids, call.session.scope, limit);
  sites.sort(
    (a, b) => place.get(a.owner_uid)! - place.get(b.owner_uid)! || Number(a.app_id) - Number(b.app_id),
  );
  return sites.map((s) =>
    plannedSite(
      s,
      `${s.app_name} (${s.email})`,
      siteRefusal(body.Action, s, call.session.scope),
      s.owner_uid,
    ),
  );
}

/**
 * The customer search: the owned sites of the customers selected, deactivated or activated, each
 * the other's undo. An item is a site, with its owner as its key; it is judged, run and undone as
 * an item of a customer's sites is (site-items.ts: the same rule, the single status change under
 * the site's lock, its trail row about its owner naming the job).
 */
export const customerKind: BulkKind<BulkCustomersDryRunBody> = {
  list: 'customers',
  permission: 'sites.write',
  noun: 'sites',
  none: 'None of the selected customers owns a site you may change.',
  kept: (body) =>
    body.Selection.Kind === 'all'
      ? { Kind: 'all', Criterion: criterionOf(body.Selection.Search).criterion }
      : body.Selection,
  plan: planCustomerSites,
  run: runSiteItem,
  undoItems: undoSiteItems,
};
