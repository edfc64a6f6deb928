import { toQueryString } from '../../../lib/api-client.ts';

/**
 * Where a site's actions lead. Edit and Add Site are the customer feature's own (shared) site
 * form; Configuration is filled by the site-settings issue, Impersonate by the impersonation feature.
 * `uid` is the site owner's.
 */
export const siteLinks = {
  edit: (uid: string, appId: number) => `/manage-customer/edit-site${toQueryString({ uid, appId })}`,
  add: (uid: string) => `/manage-customer/add-site${toQueryString({ uid })}`,
  configuration: (uid: string, appId: number) =>
    `/manage-customer/site-configuration${toQueryString({ uid, appId })}`,
  impersonate: (uid: string, appId: number) => `/manage-customer/impersonate${toQueryString({ uid, appId })}`,
};
