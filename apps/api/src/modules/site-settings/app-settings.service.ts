import { SETTINGS_SAVED } from '@sac/contract/site-settings';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { Versioned } from '../../lib/record-version.ts';
import type { SiteRow } from '../customers/sites.service.ts';
import { changeSiteWebApps, ownedSite, type SiteInput, siteWrite } from '../customers/sites.service.ts';

/** App settings: the site's plan information and its web apps. */

const appSettingsOut = (r: SiteRow) => ({
  AppName: r.app_name,
  Plan: r.plan,
  PlanStatus: r.plan_status,
  TrialEndsAt: isoOrNull(r.trial_ends_at),
  Billing: r.billing,
  ProductionUrl: r.production_url,
  StagingUrl: r.staging_url,
});

export async function getAppSettings(ctx: AppContext, uid: string, appId: number) {
  const site = await ownedSite(ctx.db, uid, appId);
  return new Versioned({ Data: appSettingsOut(site) }, site.version);
}

/** The web apps; the site row carries its own version (If-Match of the form). */
export async function updateAppSettings(
  ctx: AppContext,
  call: StaffCall,
  input: SiteInput & { data: { ProductionUrl: string; StagingUrl: string } },
) {
  const site = await siteWrite(ctx, call, input, {
    action: 'site.appsettings',
    change: async (tx) => {
      const { ProductionUrl, StagingUrl } = input.data;
      const at = ctx.clock.now();
      const web = { productionUrl: ProductionUrl, stagingUrl: StagingUrl };
      if (!(await changeSiteWebApps(tx, input.uid, input.appId, web, at, call.expectedVersion)))
        throw new AppError('conflict');
      return ownedSite(tx, input.uid, input.appId);
    },
    details: () => ({}),
  });
  return new Versioned({ Data: appSettingsOut(site), Message: SETTINGS_SAVED }, site.version);
}
