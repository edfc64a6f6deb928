import {
  APPLICATION_SECURITY_DEFAULTS,
  type ApplicationSecurity,
  SECURITY_981_TEXT,
  SETTINGS_SAVED,
} from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { recordVersion } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { claimVersionOrRefuse } from '../../lib/record-version.ts';
import { writeCustomerActivity } from '../activity/activity.service.ts';
import { ownedSite } from '../customers/sites.service.ts';
import { findSecurity, saveSecurity } from './security.repo.ts';

/** Application level security: lockout and the other sign-in rules of a site. */

/** The record whose version guards a site's security settings (0 until first saved). */
const securityRecord = (appId: number) => `site:${appId}:security`;

export async function getSecurity(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx.db, uid, appId);
  const row = await findSecurity(ctx.db, appId);
  // Never saved: 927, and the console shows the defaults as version 0.
  if (!row) throw new AppError('notFound', 'This site has no application level security settings yet.');
  return {
    body: {
      Data: { ...APPLICATION_SECURITY_DEFAULTS, ...row.settings },
      ModifiedDate: isoOrNull(row.modified_at)!,
    },
    version: await recordVersion(ctx.db, securityRecord(appId)),
  };
}

export async function updateSecurity(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  data: ApplicationSecurity,
  /** The version the form was read at (If-Match; 0 when it showed the defaults of a site never saved). */
  expectedVersion?: number,
) {
  await ownedSite(ctx.db, uid, appId);
  if (data.MaxFailedLogins > 0 && data.LockoutMinutes === 0)
    throw new AppError('securityConflict', SECURITY_981_TEXT);
  const now = ctx.clock.now();
  const version = await ctx.db.transaction(async (tx) => {
    const v = await claimVersionOrRefuse(tx, securityRecord(appId), expectedVersion);
    await saveSecurity(tx, appId, data, now);
    await writeCustomerActivity(tx, ctx, caller, actor, uid, 'site.security', { appId, settings: data });
    return v;
  });
  return { body: { Data: data, ModifiedDate: now.toISOString(), Message: SETTINGS_SAVED }, version };
}
