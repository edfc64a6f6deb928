import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { runWrite } from '../../lib/write-path.ts';
import { type ActivityAction, writeCustomerActivity } from '../activity/activity.service.ts';
import { ownedSite, type SiteRow } from '../customers/sites.service.ts';

/** Which site a settings call is about: its owner and its appId, from the query. */
export interface SiteInput {
  uid: string;
  appId: number;
}

/**
 * A change of one site's settings through the write path (lib/write-path.ts): the site's row
 * locked, its ownership checked under that lock (404 for a site the customer does not own), the
 * version of `record` claimed against the caller's If-Match, the change, and the staff-trail row
 * naming the site, in one transaction.
 */
export function siteWrite<Done>(
  ctx: AppContext,
  call: StaffCall,
  site: SiteInput,
  w: {
    action: ActivityAction;
    /** The record_versions record that guards this part of the settings, if it is versioned. */
    record?: string;
    /** A refusal that must come before the version check (the record is not there: 404, not 412). */
    check?(tx: Queryable, row: SiteRow): Promise<void>;
    change(tx: Queryable, row: SiteRow, version: number | undefined): Promise<Done>;
    /** What the trail row says of the change, besides the appId. */
    details(done: Done): Record<string, unknown>;
  },
): Promise<Done> {
  return runWrite(ctx.db, {
    lock: async (tx) => {
      const row = await ownedSite(tx, site.uid, site.appId, true);
      await w.check?.(tx, row);
      return row;
    },
    ...(w.record ? { version: { record: w.record, expected: call.expectedVersion } } : {}),
    change: w.change,
    trail: (tx, done) =>
      writeCustomerActivity(tx, ctx, call, call.session, site.uid, w.action, {
        appId: site.appId,
        ...w.details(done),
      }),
  });
}
