import { toQueryString } from './api-client.ts';

/**
 * Every address the console links to, built in one place: a screen links with these builders,
 * never with a path written by hand, so a moved route is changed here once.
 */
export const paths = {
  login: '/login',
  forgotPassword: '/forgotpassword',
  logout: '/logout',
  dashboard: '/dashboard',
  notifications: '/manage-notifications',
  composeNotice: '/manage-notifications/compose',
  notice: (id: number) => `/manage-notifications/notice${toQueryString({ id })}`,
  changePassword: '/account/change-password',
  mySessions: '/account/sessions',
  security: '/account/security',
  notificationSettings: '/account/notifications',
  customerSearch: '/manage-customer/search-customer',
  createCustomer: '/manage-customer/create-customer',
  customerView: (uid: string) => `/manage-customer/view-customer${toQueryString({ uid })}`,
  addSite: (uid: string) => `/manage-customer/add-site${toQueryString({ uid })}`,
  editSite: (uid: string, appId: number) => `/manage-customer/edit-site${toQueryString({ uid, appId })}`,
  siteConfiguration: (uid: string, appId: number) =>
    `/manage-customer/site-configuration${toQueryString({ uid, appId })}`,
  /** Every site's custom domains, filtered by status (pending, failing, verified) or all. */
  customDomains: (status?: string) => `/manage-customer/custom-domains${toQueryString({ status })}`,
  /** A site's configuration opened at one section (custom-domains, …). */
  siteConfigurationSection: (uid: string, appId: number, section: string) =>
    `/manage-customer/site-configuration${toQueryString({ uid, appId, section })}`,
  impersonate: (uid: string, appId: number) => `/manage-customer/impersonate${toQueryString({ uid, appId })}`,
  /** The site seen through the tab's impersonation session. */
  impersonatedSite: (uid: string, appId: number) => `/impersonation/site${toQueryString({ uid, appId })}`,
  impersonationRequests: '/manage-superuser/impersonation/assigned-requests',
  /** The requests screen filtered by a display status (Pending, Approved, …). */
  impersonationRequestsWith: (status: string) =>
    `/manage-superuser/impersonation/assigned-requests${toQueryString({ status })}`,
  /** The requests screen with one request's popup open. */
  impersonationRequest: (id: number) =>
    `/manage-superuser/impersonation/assigned-requests${toQueryString({ request: id })}`,
  superusers: '/manage-superuser/manage-superuser',
  createSuperuser: '/manage-superuser/create-superuser',
  superuserProfile: (uid: string) => `/manage-superuser/profile/${encodeURIComponent(uid)}`,
  permissions: '/manage-superuser/permissions',
  /** The staff audit trail filtered by action over a preset range (24h, 7d, …). */
  auditTrail: (filters: { action?: string; range?: string }) =>
    `/manage-superuser/audit-trail${toQueryString(filters)}`,
  roles: '/manage-superuser/roles',
} as const;
