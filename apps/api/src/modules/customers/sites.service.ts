import type { WriteTx } from '../../lib/write-path.ts';
import { setSiteBasicSettings } from './customer-writes.repo.ts';

/**
 * What other modules may use of customers' sites: the ownership check every site call makes, the
 * site row, the write of a site's settings (siteWrite), the web-app addresses, the catalogue of
 * customer roles, and sites found by site or owner name for a picker (sitesByNameOrOwner). The customers module owns the tables `customers`, `sites`, `site_members`,
 * `customer_logins`; another module writes them only through the acts below.
 */
export { customerRoleCatalogue, type SiteRow } from './customers.repo.ts';
export { ownedSite } from './owned-site.ts';
export { sitesByNameOrOwner } from './site-picker.repo.ts';
export { changeSiteStatus } from './site-status.service.ts';
export { type SiteInput, siteWrite } from './site-write.ts';

/**
 * A site's production and staging addresses change, if it is still at `expectedVersion` (when
 * given). Answers false when the site moved on (or is not the owner's). Inside the caller's write.
 */
export function changeSiteWebApps(
  tx: WriteTx,
  uid: string,
  appId: number,
  urls: { productionUrl: string; stagingUrl: string },
  at: Date,
  expectedVersion?: number,
): Promise<boolean> {
  return setSiteBasicSettings(tx, uid, appId, urls, at, expectedVersion);
}
