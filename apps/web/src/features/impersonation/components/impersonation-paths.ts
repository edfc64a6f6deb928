import { toQueryString } from '../../../lib/api-client.ts';

/** Where impersonation mode leads: the impersonated site, the customer view to go back to. */
export const IMPERSONATED_SITE_PATH = '/impersonation/site';
export const impersonatedSitePath = (uid: string, appId: number) =>
  `${IMPERSONATED_SITE_PATH}${toQueryString({ uid, appId })}`;
export const customerViewPath = (uid: string) => `/manage-customer/view-customer${toQueryString({ uid })}`;
export const impersonatePath = (uid: string, appId: number) =>
  `/manage-customer/impersonate${toQueryString({ uid, appId })}`;
