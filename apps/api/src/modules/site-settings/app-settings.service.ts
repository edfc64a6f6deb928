import { SETTINGS_SAVED } from '@sac/contract/site-settings';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { writeCustomerActivity } from '../activity/activity.service.ts';
import type { SiteRow } from '../customers/sites.service.ts';
import { ownedSite, setSiteWebApps } from '../customers/sites.service.ts';

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
  return { body: { Data: appSettingsOut(site) }, version: site.version };
}

export async function updateAppSettings(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  appId: number,
  data: { ProductionUrl: string; StagingUrl: string },
  /** The site version the form was read at (If-Match); a newer stored one refuses the write (930). */
  expectedVersion?: number,
) {
  await ownedSite(ctx.db, uid, appId);
  const written = await setSiteWebApps(
    ctx.db,
    uid,
    appId,
    { productionUrl: data.ProductionUrl, stagingUrl: data.StagingUrl },
    ctx.clock.now(),
    expectedVersion,
  );
  if (!written) throw new AppError('conflict');
  await writeCustomerActivity(ctx.db, ctx, caller, actor, uid, 'site.appsettings', { appId });
  const site = await ownedSite(ctx.db, uid, appId);
  return { body: { Data: appSettingsOut(site), Message: SETTINGS_SAVED }, version: site.version };
}
