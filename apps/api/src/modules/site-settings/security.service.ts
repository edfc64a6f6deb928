import {
  APPLICATION_SECURITY_DEFAULTS,
  type ApplicationSecurity,
  SECURITY_981_TEXT,
  SETTINGS_SAVED,
} from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { writeCustomerActivity } from '../activity/activity.service.ts';
import { ownedSite } from '../customers/sites.service.ts';
import { findSecurity, saveSecurity } from './security.repo.ts';

/** Application level security: lockout and the other sign-in rules of a site. */

export async function getSecurity(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx.db, uid, appId);
  const row = await findSecurity(ctx.db, appId);
  if (!row) throw new AppError('notFound', 'This site has no application level security settings yet.');
  return {
    Data: { ...APPLICATION_SECURITY_DEFAULTS, ...row.settings },
    ModifiedDate: isoOrNull(row.modified_at)!,
  };
}

export async function updateSecurity(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  data: ApplicationSecurity,
) {
  await ownedSite(ctx.db, uid, appId);
  if (data.MaxFailedLogins > 0 && data.LockoutMinutes === 0)
    throw new AppError('securityConflict', SECURITY_981_TEXT);
  const now = ctx.clock.now();
  await saveSecurity(ctx.db, appId, data, now);
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.security', { appId, settings: data });
  return { Data: data, ModifiedDate: now.toISOString(), Message: SETTINGS_SAVED };
}
