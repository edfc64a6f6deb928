import type { AppContext } from '../../app-context.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { type ActivityAction, writeCustomerActivity } from '../activity/activity.service.ts';
import type { SiteRow } from './customers.repo.ts';
import { customersOwnSite } from './owned-site.ts';

/** Which site of which customer a write is about (its query, whatever the endpoint names them). */
export interface SiteInput {
  uid: string;
  appId: number;
}

/**
 * A change of one customer's own site (its basic settings, features, storage, status, and every
 * site-settings page) through the write path (lib/write-path.ts): the site's row locked, 404 for
 * an unknown customer and then for a site they do not own, the checks that decide the change made
 * under that lock, the version of `record` claimed against the caller's If-Match, the change, and
 * the staff-trail row naming the site, in one transaction.
 */
export function siteWrite<Checked = void, Done = void>(
  ctx: AppContext,
  call: StaffCall,
  site: SiteInput,
  w: {
    action: ActivityAction;
    /** The record_versions record that guards this part of the settings, if it is versioned. */
    record?: string;
    /**
     * The checks made under the site's lock, before the version claim (a record that is not
     * there is 404, not 412); answers what the change and the trail row need of them.
     */
    check?(tx: WriteTx, row: SiteRow): Promise<Checked>;
    change(tx: WriteTx, checked: Checked, version: number | undefined): Promise<Done>;
    /** What the trail row says of the change, besides the appId. */
    details(done: Done, checked: Checked): Record<string, unknown>;
  },
): Promise<Done> {
  return runWrite(ctx.db, {
    lock: async (tx) => {
      const row = await customersOwnSite(tx, site.uid, site.appId);
      return (w.check ? await w.check(tx, row) : undefined) as Checked;
    },
    ...(w.record ? { version: { record: w.record, expected: call.expectedVersion } } : {}),
    change: w.change,
    trail: (tx, done, checked) =>
      writeCustomerActivity(tx, ctx, call, call.session, site.uid, w.action, {
        appId: site.appId,
        ...w.details(done, checked),
      }),
  });
}
