import type { BulkAction } from '@sac/contract/bulk';
import type { SiteScope } from '@sac/contract/role-scopes';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { fitsScope } from '../../lib/site-scope.ts';
import { changeSiteStatus } from '../customers/sites.service.ts';

/** The status each site action leaves a site in. */
const TARGET_STATUS: Record<BulkAction, 'active' | 'inactive'> = {
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

/** Why an item is refused (its state, its version, the actor's scope, gone), and the sentence shown. */
export interface Refusal {
  code: 'state' | 'version' | 'scope' | 'gone';
  reason: string;
}

/** An item refused under its lock: the run records it and goes on to the next. */
class ItemRefused extends Error {
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.reason);
    this.refusal = refusal;
  }
}

export const GONE: Refusal = { code: 'gone', reason: 'Not a site of this customer (any more).' };

/**
 * The rule of a site item, the same for the dry run (`seen` absent: the site as read now) and for
 * the run (under the site's lock, `seen` what the dry run read): refused when the site moved on
 * since (another edit raised its version, or its status changed), when it is outside the actor's
 * scope, or when it already is in the status the action sets.
 */
export function refusalOf(
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
export async function runSiteItem(
  ctx: AppContext,
  call: StaffCall,
  job: { id: number; action: BulkAction; uid: string },
  item: { appId: number; seen: { status: string; version: number } },
): Promise<Refusal | undefined> {
  try {
    await changeSiteStatus(
      ctx,
      call,
      { uid: job.uid, appId: item.appId, Status: TARGET_STATUS[job.action] },
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
