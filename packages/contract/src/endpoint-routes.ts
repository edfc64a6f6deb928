import type { Permission } from './permissions.ts';

/*
 * The endpoint table without schemas: id, method, path and access of every endpoint, and nothing
 * that needs zod. The console's client calls endpoints from it, so the sign-in screen does not
 * load every schema of the contract. endpoints.ts adds summary, tag and the zod schemas per id
 * (the API registers its routes from that full table; OpenAPI derives from it); a test keeps the
 * two tables on the same ids.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint: anyone ('public'), anyone signed in ('session'), or a holder of one
 * permission of the matrix.
 */
export type Access = 'public' | 'session' | Permission;

export interface EndpointRoute {
  /** Stable name, used by the console client and the authorization-matrix test. */
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: Access;
  /**
   * Open to an impersonation session (account/switchapp) of the site named by the query's appId,
   * when the approved customer roles and additional permissions include this customer permission.
   * Calls without it are refused to impersonation sessions. The console reads it too, to show an
   * impersonator which sections the grant reaches.
   */
  readonly impersonation?: string;
}

/** Method, path and access of every endpoint, keyed by id. */
export const ENDPOINT_ROUTES = {
  login: { id: 'login', method: 'POST', path: '/admin/login', access: 'public' },
  loginSecondStep: {
    id: 'loginSecondStep',
    method: 'POST',
    path: '/admin/login/second-step',
    access: 'public',
  },
  loginPasskeyOptions: {
    id: 'loginPasskeyOptions',
    method: 'POST',
    path: '/admin/login/passkey-options',
    access: 'public',
  },
  loginEnrolTotp: { id: 'loginEnrolTotp', method: 'POST', path: '/admin/login/enrol/totp', access: 'public' },
  loginEnrolTotpConfirm: {
    id: 'loginEnrolTotpConfirm',
    method: 'PUT',
    path: '/admin/login/enrol/totp',
    access: 'public',
  },
  loginEnrolPasskeyOptions: {
    id: 'loginEnrolPasskeyOptions',
    method: 'POST',
    path: '/admin/login/enrol/passkey-options',
    access: 'public',
  },
  loginEnrolPasskey: {
    id: 'loginEnrolPasskey',
    method: 'POST',
    path: '/admin/login/enrol/passkey',
    access: 'public',
  },
  logout: { id: 'logout', method: 'POST', path: '/admin/logout', access: 'session' },
  session: { id: 'session', method: 'GET', path: '/admin/session', access: 'session' },
  forgotPassword: { id: 'forgotPassword', method: 'POST', path: '/admin/forgotpassword', access: 'public' },
  resetPassword: { id: 'resetPassword', method: 'PUT', path: '/admin/resetpassword', access: 'public' },
  changePassword: { id: 'changePassword', method: 'PUT', path: '/admin/changepassword', access: 'session' },
  teamList: { id: 'teamList', method: 'GET', path: '/admin/team', access: 'team.read' },
  teamCreate: { id: 'teamCreate', method: 'POST', path: '/admin/team', access: 'team.write' },
  teamUpdateRoles: { id: 'teamUpdateRoles', method: 'PUT', path: '/admin/team/roles', access: 'team.write' },
  teamDelete: { id: 'teamDelete', method: 'DELETE', path: '/admin/team', access: 'team.write' },
  teamRoles: { id: 'teamRoles', method: 'GET', path: '/admin/team/roles', access: 'session' },
  teamProfile: { id: 'teamProfile', method: 'GET', path: '/admin/team/profile', access: 'session' },
  mySessions: { id: 'mySessions', method: 'GET', path: '/admin/account/sessions', access: 'session' },
  endMySessions: {
    id: 'endMySessions',
    method: 'DELETE',
    path: '/admin/account/sessions',
    access: 'session',
  },
  myFactors: { id: 'myFactors', method: 'GET', path: '/admin/account/mfa', access: 'session' },
  totpEnrolStart: {
    id: 'totpEnrolStart',
    method: 'POST',
    path: '/admin/account/mfa/totp',
    access: 'session',
  },
  totpEnrolConfirm: {
    id: 'totpEnrolConfirm',
    method: 'PUT',
    path: '/admin/account/mfa/totp',
    access: 'session',
  },
  totpRemove: { id: 'totpRemove', method: 'DELETE', path: '/admin/account/mfa/totp', access: 'session' },
  passkeyOptions: {
    id: 'passkeyOptions',
    method: 'POST',
    path: '/admin/account/mfa/passkey-options',
    access: 'session',
  },
  passkeyAdd: { id: 'passkeyAdd', method: 'POST', path: '/admin/account/mfa/passkeys', access: 'session' },
  passkeyRename: {
    id: 'passkeyRename',
    method: 'PUT',
    path: '/admin/account/mfa/passkeys',
    access: 'session',
  },
  passkeyRemove: {
    id: 'passkeyRemove',
    method: 'DELETE',
    path: '/admin/account/mfa/passkeys',
    access: 'session',
  },
  recoveryCodesRenew: {
    id: 'recoveryCodesRenew',
    method: 'POST',
    path: '/admin/account/mfa/recovery-codes',
    access: 'session',
  },
  // SuperAdmins only: the service checks the role (team.write alone is not enough).
  staffFactorsReset: {
    id: 'staffFactorsReset',
    method: 'DELETE',
    path: '/admin/team/mfa',
    access: 'team.write',
  },
  // SuperAdmins only: the service checks the role (team.write alone is not enough).
  staffSessions: { id: 'staffSessions', method: 'GET', path: '/admin/team/sessions', access: 'team.write' },
  endStaffSessions: {
    id: 'endStaffSessions',
    method: 'DELETE',
    path: '/admin/team/sessions',
    access: 'team.write',
  },
  searchCustomer: {
    id: 'searchCustomer',
    method: 'GET',
    path: '/admin/searchcustomer',
    access: 'customers.read',
  },
  searchCustomerExport: {
    id: 'searchCustomerExport',
    method: 'GET',
    path: '/admin/searchcustomer/export',
    access: 'customers.read',
  },
  customerProfile: {
    id: 'customerProfile',
    method: 'GET',
    path: '/admin/customerprofilebyuid',
    access: 'customers.read',
  },
  userProfile: {
    id: 'userProfile',
    method: 'GET',
    path: '/admin/userprofilebyuid',
    access: 'customers.read',
  },
  loginSessions: {
    id: 'loginSessions',
    method: 'GET',
    path: '/admin/loginsessionbyuid',
    access: 'customers.read',
  },
  activityLogs: { id: 'activityLogs', method: 'GET', path: '/admin/activitylogs', access: 'activity.read' },
  customerApps: { id: 'customerApps', method: 'GET', path: '/admin/apps', access: 'sites.read' },
  customerAllApps: { id: 'customerAllApps', method: 'GET', path: '/admin/allapps', access: 'sites.read' },
  sharedApps: { id: 'sharedApps', method: 'GET', path: '/admin/sharedapps', access: 'sites.read' },
  appById: {
    id: 'appById',
    method: 'GET',
    path: '/admin/appbyid',
    access: 'sites.read',
    impersonation: 'ViewData',
  },
  appInfoById: {
    id: 'appInfoById',
    method: 'GET',
    path: '/admin/appinfobyid',
    access: 'sites.read',
    impersonation: 'ViewData',
  },
  features: { id: 'features', method: 'GET', path: '/admin/features', access: 'sites.read' },
  siteDataCenter: {
    id: 'siteDataCenter',
    method: 'GET',
    path: '/admin/site/datacenter',
    access: 'sites.read',
    impersonation: 'ViewData',
  },
  siteFeature: {
    id: 'siteFeature',
    method: 'GET',
    path: '/admin/site/feature',
    access: 'sites.read',
    impersonation: 'ViewData',
  },
  siteBasicSettings: {
    id: 'siteBasicSettings',
    method: 'GET',
    path: '/admin/site/basicsettings',
    access: 'sites.read',
    impersonation: 'ViewData',
  },
  customerRoles: { id: 'customerRoles', method: 'GET', path: '/admin/customer/roles', access: 'session' },
  createCustomer: {
    id: 'createCustomer',
    method: 'POST',
    path: '/admin/customer',
    access: 'customers.write',
  },
  updateCustomerProfile: {
    id: 'updateCustomerProfile',
    method: 'PUT',
    path: '/admin/customerprofile',
    access: 'customers.write',
  },
  setCustomerPassword: {
    id: 'setCustomerPassword',
    method: 'PUT',
    path: '/admin/customer/password',
    access: 'customers.write',
  },
  verifyEmail: { id: 'verifyEmail', method: 'POST', path: '/admin/verifyemail', access: 'customers.write' },
  addSite: { id: 'addSite', method: 'POST', path: '/admin/site', access: 'sites.write' },
  updateSiteBasicSettings: {
    id: 'updateSiteBasicSettings',
    method: 'PUT',
    path: '/admin/site/basicsettings',
    access: 'sites.write',
    impersonation: 'ManageSettings',
  },
  updateSiteFeatures: {
    id: 'updateSiteFeatures',
    method: 'PUT',
    path: '/admin/site/feature',
    access: 'sites.write',
    impersonation: 'ManageSettings',
  },
  updateSiteDataCenter: {
    id: 'updateSiteDataCenter',
    method: 'PUT',
    path: '/admin/site/datacenter',
    access: 'sites.write',
    impersonation: 'ManageSettings',
  },
  rotateSiteSecret: {
    id: 'rotateSiteSecret',
    method: 'POST',
    path: '/admin/site/secret',
    access: 'sites.write',
  },
  setSiteStatus: {
    id: 'setSiteStatus',
    method: 'PUT',
    path: '/admin/site/status',
    access: 'sites.write',
    impersonation: 'ManageSite',
  },
  impersonationCreate: {
    id: 'impersonationCreate',
    method: 'POST',
    path: '/admin/impersonation/requests',
    access: 'impersonation.request',
  },
  impersonationList: {
    id: 'impersonationList',
    method: 'GET',
    path: '/admin/impersonation/requests',
    access: 'impersonation.request',
  },
  impersonationRequestsExport: {
    id: 'impersonationRequestsExport',
    method: 'GET',
    path: '/admin/impersonation/requests/export',
    access: 'impersonation.request',
  },
  impersonationTakenRoles: {
    id: 'impersonationTakenRoles',
    method: 'GET',
    path: '/admin/impersonation/taken-roles',
    access: 'impersonation.request',
  },
  impersonationEdit: {
    id: 'impersonationEdit',
    method: 'PUT',
    path: '/admin/impersonation/request',
    access: 'impersonation.request',
  },
  impersonationDelete: {
    id: 'impersonationDelete',
    method: 'DELETE',
    path: '/admin/impersonation/request',
    access: 'impersonation.request',
  },
  impersonationAction: {
    id: 'impersonationAction',
    method: 'POST',
    path: '/admin/impersonation/request/action',
    access: 'impersonation.approve',
  },
  impersonationApprovers: {
    id: 'impersonationApprovers',
    method: 'GET',
    path: '/admin/impersonation/approvers',
    access: 'impersonation.request',
  },
  impersonationLogs: {
    id: 'impersonationLogs',
    method: 'GET',
    path: '/admin/impersonation/logs',
    access: 'impersonation.logs.read',
  },
  impersonationLogsExport: {
    id: 'impersonationLogsExport',
    method: 'GET',
    path: '/admin/impersonation/logs/export',
    access: 'impersonation.logs.read',
  },
  dashboard: { id: 'dashboard', method: 'GET', path: '/admin/dashboard', access: 'session' },
  noticeList: { id: 'noticeList', method: 'GET', path: '/admin/notices', access: 'notices.send' },
  noticeCreate: { id: 'noticeCreate', method: 'POST', path: '/admin/notices', access: 'notices.send' },
  noticeRecipients: {
    id: 'noticeRecipients',
    method: 'POST',
    path: '/admin/notices/recipients',
    access: 'notices.send',
  },
  noticeAudienceOptions: {
    id: 'noticeAudienceOptions',
    method: 'GET',
    path: '/admin/notices/audience-options',
    access: 'notices.send',
  },
  noticeOne: { id: 'noticeOne', method: 'GET', path: '/admin/notices/one', access: 'notices.send' },
  noticeDeliveries: {
    id: 'noticeDeliveries',
    method: 'GET',
    path: '/admin/notices/deliveries',
    access: 'notices.send',
  },
  noticeCancel: { id: 'noticeCancel', method: 'POST', path: '/admin/notices/cancel', access: 'notices.send' },
  noticeUnsubscribeDetails: {
    id: 'noticeUnsubscribeDetails',
    method: 'GET',
    path: '/admin/notices/unsubscribe',
    access: 'public',
  },
  noticeUnsubscribe: {
    id: 'noticeUnsubscribe',
    method: 'POST',
    path: '/admin/notices/unsubscribe',
    access: 'public',
  },
  staffNotifications: {
    id: 'staffNotifications',
    method: 'GET',
    path: '/admin/notifications',
    access: 'session',
  },
  staffNotificationsRead: {
    id: 'staffNotificationsRead',
    method: 'POST',
    path: '/admin/notifications/read',
    access: 'session',
  },
  staffNotificationPreferences: {
    id: 'staffNotificationPreferences',
    method: 'GET',
    path: '/admin/notifications/preferences',
    access: 'session',
  },
  staffNotificationPreferencesSave: {
    id: 'staffNotificationPreferencesSave',
    method: 'PUT',
    path: '/admin/notifications/preferences',
    access: 'session',
  },
  staffNotificationStream: {
    id: 'staffNotificationStream',
    method: 'GET',
    path: '/admin/notifications/stream',
    access: 'session',
  },
  auditEvents: { id: 'auditEvents', method: 'GET', path: '/admin/audit/events', access: 'audit.read' },
  auditExport: { id: 'auditExport', method: 'GET', path: '/admin/audit/export', access: 'audit.read' },
  auditSigningKey: {
    id: 'auditSigningKey',
    method: 'GET',
    path: '/admin/audit/signing-key',
    access: 'audit.read',
  },
  customerRequestsList: {
    id: 'customerRequestsList',
    method: 'GET',
    path: '/admin/impersonation/customer/requests',
    access: 'impersonation.request',
  },
  customerRequestsCreate: {
    id: 'customerRequestsCreate',
    method: 'POST',
    path: '/admin/impersonation/customer/requests',
    access: 'public',
  },
  siteAccess: { id: 'siteAccess', method: 'GET', path: '/admin/impersonation/site-access', access: 'public' },
  consentDetails: {
    id: 'consentDetails',
    method: 'GET',
    path: '/admin/impersonation/consent',
    access: 'public',
  },
  consentAnswer: {
    id: 'consentAnswer',
    method: 'POST',
    path: '/admin/impersonation/consent',
    access: 'public',
  },
  updateAccess: {
    id: 'updateAccess',
    method: 'GET',
    path: '/admin/updateaccess',
    access: 'impersonation.request',
  },
  switchApp: { id: 'switchApp', method: 'GET', path: '/account/switchapp', access: 'impersonation.request' },
  customObjectList: {
    id: 'customObjectList',
    method: 'GET',
    path: '/admin/customobject',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  customObjectCreate: {
    id: 'customObjectCreate',
    method: 'POST',
    path: '/admin/customobject',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  customObjectDelete: {
    id: 'customObjectDelete',
    method: 'DELETE',
    path: '/admin/customobject',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  customObjectSchema: {
    id: 'customObjectSchema',
    method: 'PUT',
    path: '/admin/customobject/schema',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  customObjectValidate: {
    id: 'customObjectValidate',
    method: 'POST',
    path: '/admin/customobject/validate',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  hubDomain: { id: 'hubDomain', method: 'GET', path: '/admin/hubdomain', access: 'site-settings.read' },
  customDomainList: {
    id: 'customDomainList',
    method: 'GET',
    path: '/admin/customdomain/bindingrequest',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  customDomainsAll: {
    id: 'customDomainsAll',
    method: 'GET',
    path: '/admin/customdomains',
    access: 'site-settings.read',
  },
  customDomainCreate: {
    id: 'customDomainCreate',
    method: 'POST',
    path: '/admin/customdomain/bindingrequest',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  customDomainDelete: {
    id: 'customDomainDelete',
    method: 'DELETE',
    path: '/admin/customdomain/bindingrequest',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  customDomainVerify: {
    id: 'customDomainVerify',
    method: 'POST',
    path: '/admin/customdomain/verify',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  appSettings: {
    id: 'appSettings',
    method: 'GET',
    path: '/admin/appsettings',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  updateAppSettings: {
    id: 'updateAppSettings',
    method: 'PUT',
    path: '/admin/appsettings',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  applicationSecurity: {
    id: 'applicationSecurity',
    method: 'GET',
    path: '/admin/applicationlevelsecurity',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  updateApplicationSecurity: {
    id: 'updateApplicationSecurity',
    method: 'PUT',
    path: '/admin/applicationlevelsecurity',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  passwordSettings: {
    id: 'passwordSettings',
    method: 'GET',
    path: '/admin/password-settings',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  previousPasswordSettings: {
    id: 'previousPasswordSettings',
    method: 'GET',
    path: '/admin/previous-password-settings',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  securityQuestionSettings: {
    id: 'securityQuestionSettings',
    method: 'GET',
    path: '/admin/security-question-settings',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  saveEncryptionSettings: {
    id: 'saveEncryptionSettings',
    method: 'POST',
    path: '/admin/save-encryption-settings',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  encryptionPreview: {
    id: 'encryptionPreview',
    method: 'POST',
    path: '/admin/encryption-settings/preview',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  activeCustomFields: {
    id: 'activeCustomFields',
    method: 'GET',
    path: '/admin/active-custom-fields',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  customRegistrationDataList: {
    id: 'customRegistrationDataList',
    method: 'GET',
    path: '/admin/custom-registration-data-list',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
  addDataSource: {
    id: 'addDataSource',
    method: 'POST',
    path: '/admin/custom-registration-data',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  addCustomField: {
    id: 'addCustomField',
    method: 'POST',
    path: '/admin/custom-field',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  saveDefaultFields: {
    id: 'saveDefaultFields',
    method: 'POST',
    path: '/admin/default-fields',
    access: 'site-settings.write',
    impersonation: 'ManageSettings',
  },
  integrations: {
    id: 'integrations',
    method: 'GET',
    path: '/admin/integrations',
    access: 'site-settings.read',
    impersonation: 'ViewData',
  },
} as const satisfies Record<string, EndpointRoute>;

export type EndpointId = keyof typeof ENDPOINT_ROUTES;
