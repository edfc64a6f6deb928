import type { BulkAction, BulkSitesDryRunBody } from '@sac/contract/bulk';
import type { SiteScope } from '@sac/contract/role-scopes';
import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { fitsScope } from '../../lib/site-scope.ts';
import { changeSiteStatus } from '../customers/sites.service.ts';
import { changedItems, type NewItem, sitesOfSelection } from './bulk.repo.ts';
import { type BulkKind, ItemRefused, type ItemToRun, type JobOfItem, type Refusal } from './bulk-kinds.ts';

/**
 * The status each site action leaves a site in: a customer's sites' own, and the customer search's
 * (the sites of the customers picked), whose items are sites judged and run as these.
 */
const TARGET_STATUS: Partial<Record<BulkAction, 'active' | 'inactive'>> = {
  'site.deactivate': 'inactive',
  'site.activate': 'active',
  'customer.deactivate-sites': 'inactive',
  'customer.activate-sites': 'active',
};

/** A site as an item's rule reads it (the plan's read, or the row the write locked). */
export interface SiteState {
  status: string;
  version: number;
  data_center: string | null;
  plan: string;
}

const GONE: Refusal = { code: 'gone', reason: 'Not a site of this customer (any more).' };

/**
 * The rule of a site item, the same for the dry run (`seen` absent: the site as read now) and for
 * the run (under the site's lock, `seen` what the dry run read): refused when the site moved on
 * since (another edit raised its version, or its status changed), when it is outside the actor's
 * scope, or when it already is in the status the action sets.
 */
export function siteRefusal(
  action: BulkAction,
  site: SiteState,
  scope: readonly SiteScope[] | undefined,
  seen?: { status: string; version: number },
): Refusal | undefined {
  if (seen && Number(site.version) !== Number(seen.version))
    return {
      code: 'version',
      reason: `Changed by someone else since the dry run (version ${seen.version}, now ${site.version}).`,
    };
  if (seen && site.status !== seen.status)
    return {
      code: 'state',
      reason: `Its status changed since the dry run (it was ${seen.status}, it is ${site.status}).`,
    };
  if (!fitsScope(scope, { dataCenter: site.data_center, plan: site.plan }))
    return { code: 'scope', reason: "Outside your role's scope (data center or plan)." };
  const target = TARGET_STATUS[action];
  if (site.status === target) return { code: 'state', reason: `Already ${target}.` };
  return undefined;
}

/**
 * One item run: the single action's own service call (changeSiteStatus: the site's lock, its
 * checks, the change and its trail row naming the job), with the item's rule checked under that
 * lock. Answers the refusal, or undefined when the site changed. The site's owner is the job's
 * customer, or the item's own key (the customer search's items: sites of several customers).
 */
export async function runSiteItem(
  ctx: AppContext,
  call: StaffCall,
  job: JobOfItem,
  item: ItemToRun,
): Promise<Refusal | undefined> {
  try {
    await changeSiteStatus(
      ctx,
      call,
      { uid: item.key ?? job.uid!, appId: item.target, Status: TARGET_STATUS[job.action]! },
      {
        bulkJob: job.id,
        check: (row) => {
          const refused = siteRefusal(job.action, row, call.session.scope, item.seen);
          if (refused) throw new ItemRefused(refused);
        },
      },
    );
    return undefined;
  } catch (e) {
    if (e instanceof ItemRefused) return e.refusal;
    if (e instanceof AppError && e.status === 404) return GONE;
    throw e;
  }
}

/**
 * A site as an item of a plan: its appId (and its owner, `key`, where the job's items name theirs),
 * what the plan saw of it, and whether it would change or be refused and why.
 */
export const plannedSite = (
  site: { app_id: number | string; status: string; version: number | string },
  label: string,
  refused: Refusal | undefined,
  key?: string | null,
): NewItem => ({
  target: Number(site.app_id),
  ...(key ? { key } : {}),
  label,
  seenStatus: site.status,
  seenVersion: Number(site.version),
  planned: refused ? 'refuse' : 'change',
  reason: refused?.reason ?? null,
});

/** The items of a plan: each site the selection names, would it change or be refused and why. */
async function planSites(
  ctx: AppContext,
  call: StaffCall,
  body: BulkSitesDryRunBody,
  limit: number,
): Promise<NewItem[]> {
  const { Selection: selection, Action: action } = body;
  const sites = await sitesOfSelection(ctx.db, body.Uid, selection, call.session.scope, limit);
  const byId = new Map(sites.map((s) => [Number(s.app_id), s]));
  const ids = selection.Kind === 'rows' ? [...new Set(selection.AppIds)] : [...byId.keys()];
  return ids.map((appId) => {
    const s = byId.get(appId);
    return s
      ? plannedSite(s, s.app_name, siteRefusal(action, s, call.session.scope))
      : plannedSite({ app_id: appId, status: '', version: 0 }, `#${appId}`, GONE);
  });
}

/**
 * The items of a site job's undo: each site the job changed (with its owner, the item's key, when
 * the job's items name theirs), judged for the inverse as it is now against what the job left.
 */
export async function undoSiteItems(
  tx: Queryable,
  jobId: number,
  inverse: BulkAction,
  call: StaffCall,
): Promise<NewItem[]> {
  return (await changedItems(tx, jobId)).map((i) => {
    const seen = { status: i.status, version: Number(i.seen_version) };
    const refused = siteRefusal(inverse, { ...i, version: Number(i.version) }, call.session.scope, seen);
    return plannedSite(
      { app_id: i.target, status: i.status, version: i.version },
      i.label,
      refused,
      i.target_key,
    );
  });
}

/** A customer's sites: deactivate and reactivate, each the other's undo. */
export const siteKind: BulkKind<BulkSitesDryRunBody> = {
  list: 'customer-sites',
  permission: 'sites.write',
  noun: 'sites',
  none: 'No site of this customer matches the selection.',
  customerOf: (body) => body.Uid,
  plan: planSites,
  run: runSiteItem,
  undoItems: undoSiteItems,
};
