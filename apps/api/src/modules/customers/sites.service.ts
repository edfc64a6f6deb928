/**
 * What other modules may use of customers' sites: the ownership check every site call makes, the
 * site row, the web-app addresses, and the catalogue of customer roles.
 */
export { setSiteWebApps } from './customer-writes.repo.ts';
export { customerRoleCatalogue, type SiteRow } from './customers.repo.ts';
export { ownedSite } from './owned-site.ts';
export { type SiteInput, siteWrite } from './site-write.ts';
