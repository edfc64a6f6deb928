import {
  APPLICATION_SECURITY_DEFAULTS,
  type ApplicationSecurity,
  SECURITY_981_TEXT,
  SETTINGS_SAVED,
} from '@sac/contract/site-settings';
import type { AppContext } from '../../app-context.ts';
import { recordVersion } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { Versioned } from '../../lib/record-version.ts';
import { ownedSite, type SiteInput, siteWrite } from '../customers/sites.service.ts';
import { findSecurity, saveSecurity } from './security.repo.ts';

/** Application level security: lockout and the other sign-in rules of a site. */

/** The record whose version guards a site's security settings (0 until first saved). */
const securityRecord = (appId: number) => `site:${appId}:security`;

export async function getSecurity(ctx: AppContext, uid: string, appId: number) {
  await ownedSite(ctx.db, uid, appId);
  const row = await findSecurity(ctx.db, appId);
  // Never saved: 927, and the console shows the defaults as version 0.
  if (!row) throw new AppError('notFound', 'This site has no application level security settings yet.');
  return new Versioned(
    {
      Data: { ...APPLICATION_SECURITY_DEFAULTS, ...row.settings },
      ModifiedDate: isoOrNull(row.modified_at)!,
    },
    await recordVersion(ctx.db, securityRecord(appId)),
  );
}

/** The version the form was read at is 0 when it showed the defaults of a site never saved. */
export async function updateSecurity(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & { data: ApplicationSecurity },
) {
  const { data } = input;
  if (data.MaxFailedLogins > 0 && data.LockoutMinutes === 0)
    throw new AppError('securityConflict', SECURITY_981_TEXT);
  const now = ctx.clock.now();
  const version = await siteWrite(ctx, call, input, {
    action: 'site.security',
    record: securityRecord(input.appId),
    change: async (tx, _site, v) => {
      await saveSecurity(tx, input.appId, data, now);
      return v!;
    },
    details: () => ({ settings: data }),
  });
  return new Versioned({ Data: data, ModifiedDate: now.toISOString(), Message: SETTINGS_SAVED }, version);
}
