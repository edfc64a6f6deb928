import type { siteStatusBody } from '@sac/contract/customer-writes';
import type { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { saveSiteStatus } from './customer-writes.repo.ts';
import type { SiteRow } from './customers.repo.ts';
import * as read from './customers.service.ts';
import { type SiteInput, siteWrite } from './site-write.ts';

/**
 * What a bulk job's item adds to the single status change (modules/bulk): the job it belongs to,
 * named in the item's trail row, and its own check of the locked site (the state and version the
 * dry run saw), which refuses the item by throwing.
 */
export interface StatusChangeOfJob {
  bulkJob: number;
  check(row: SiteRow): void;
}

/**
 * A site activated or deactivated: the one write of a site's status, whether one site's switch or
 * an item of a bulk job (`job`), through the site's write path (lock, checks, change, trail row).
 */
export async function changeSiteStatus(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & z.output<typeof siteStatusBody>,
  job?: StatusChangeOfJob,
): Promise<void> {
  const { uid, appId, Status: status } = input;
  await siteWrite(ctx, call, input, {
    action: status === 'active' ? 'site.activate' : 'site.deactivate',
    check: async (_tx, row) => job?.check(row),
    change: (tx) => saveSiteStatus(tx, uid, appId, status, ctx.clock.now()),
    details: () => (job ? { bulkJob: job.bulkJob } : {}),
  });
}

/** PUT /admin/site/status: one site's status changed, answered as the site now reads. */
export async function setSiteStatus(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & z.output<typeof siteStatusBody>,
) {
  await changeSiteStatus(ctx, call, input);
  return read.appById(ctx, input.uid, input.appId);
}
