import type { BulkAction, BulkSitesDryRunBody } from '@sac/contract/bulk';
import type { SiteScope } from '@sac/contract/role-scopes';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { fitsScope } from '../../lib/site-scope.ts';
import { changeSiteStatus } from '../customers/sites.service.ts';
import { changedItems, type NewItem, sitesOfSelection } from './bulk.repo.ts';
import { type BulkKind, ItemRefused, type ItemToRun, type JobOfItem, type Refusal } from './bulk-kinds.ts';

/** The status each site action leaves a site in. */
const TARGET_STATUS: Partial<Record<BulkAction, 'active' | 'inactive'>> = {
  'site.deactivate': 'inactive',
  'site.activate': 'active',
};

/** A site as an item's rule reads it (the plan's read, or the row the write locked). */
interface SiteState {
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
function refusalOf(
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
 * lock. Answers the refusal, or undefined when the site changed.
 */
async function runSiteItem(
  ctx: AppContext,
  call: StaffCall,
  job: JobOfItem,
  item: ItemToRun,
): Promise<Refusal | undefined> {
  try {
    await changeSiteStatus(
      ctx,
      call,
      { uid: job.uid!, appId: item.target, Status: TARGET_STATUS[job.action]! },
      {
        bulkJob: job.id,
        check: (row) => {
          const refused = refusalOf(job.action, row, call.session.scope, item.seen);
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
    const refused = s ? refusalOf(action, s, call.session.scope) : GONE;
    return {
      target: appId,
      label: s?.app_name ?? `#${appId}`,
      seenStatus: s?.status ?? '',
      seenVersion: Number(s?.version ?? 0),
      planned: refused ? 'refuse' : 'change',
      reason: refused?.reason ?? null,
    };
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
  // Each site the job changed, judged for the inverse as it is now against what the job left.
  async undoItems(tx, jobId, inverse, call) {
    return (await changedItems(tx, jobId)).map((i) => {
      const seen = { status: i.status, version: Number(i.seen_version) };
      const refused = refusalOf(inverse, { ...i, version: Number(i.version) }, call.session.scope, seen);
      return {
        target: Number(i.target),
        label: i.label,
        seenStatus: i.status,
        seenVersion: Number(i.version),
        planned: refused ? 'refuse' : 'change',
        reason: refused?.reason ?? null,
      };
    });
  },
};
