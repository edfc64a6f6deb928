import type { EndpointId } from './endpoint-routes.ts';

/**
 * The most statements, and write commits, that one valid call of an endpoint may run
 * (authentication included; BEGIN, COMMIT and ROLLBACK are not statements; a commit is a
 * transaction that wrote, or a write run alone). Held by apps/api/test/statement-budgets.test.ts,
 * which also fails a budget far above what the call runs.
 */
export interface StatementBudget {
  readonly statements: number;
  readonly commits: number;
}

/**
 * Every endpoint's budget, keyed by the ids of ENDPOINT_ROUTES: the type refuses a missing or an
 * unknown id. Kept apart from the routes because only the API's tests read it: the console loads
 * the route table before its sign-in screen, and budgets are no part of calling an endpoint.
 */
export const ENDPOINT_BUDGETS = {
  // endpoint-routes-sign-in.ts
  // the single sign-on settings (is password sign-in off?), the sign-in's own 3, and the staff
  // address allowlist's read when something that ends sessions was written since it was last
  // read (kept per auth generation: api-tokens.repo.ts currentAllowlist).
  login: { statements: 5, commits: 2 },
  loginSecondStep: { statements: 3, commits: 2 },
  loginPasskeyOptions: { statements: 1, commits: 0 },
  loginEnrolTotp: { statements: 1, commits: 0 },
  loginEnrolTotpConfirm: { statements: 1, commits: 0 },
  loginEnrolPasskeyOptions: { statements: 1, commits: 0 },
  loginEnrolPasskey: { statements: 1, commits: 0 },
  ssoSignInOptions: { statements: 1, commits: 0 },
  // the address's count (SSO_CALLS_PER_MINUTE), then off in the matrix (404); on, its one
  // write (the state) follows its read of the settings
  ssoStart: { statements: 2, commits: 1 },
  // the address's count, then off in the matrix (404): the budget of the refusal; a sign-in
  // runs a password sign-in's statements and more
  ssoFinish: { statements: 2, commits: 1 },
  ssoSettings: { statements: 4, commits: 0 },
  ssoSettingsUpdate: { statements: 13, commits: 1 },
  ssoTest: { statements: 1, commits: 0 },
  logout: { statements: 3, commits: 1 },
  session: { statements: 2, commits: 0 },
  forgotPassword: { statements: 3, commits: 2 },
  resetPassword: { statements: 6, commits: 2 },
  changePassword: { statements: 7, commits: 3 },
  teamList: { statements: 3, commits: 0 },
  teamCreate: { statements: 11, commits: 1 },
  // 14: a SuperAdmin's change also records the access review's confirmation
  teamUpdateRoles: { statements: 14, commits: 1 },
  // 8: with the check that the account is not the break-glass one while password sign-in is off
  teamDelete: { statements: 8, commits: 1 },
  // 10: an invitee who would become a SuperAdmin also reads the actor's cool-down
  teamResendInvitation: { statements: 10, commits: 1 },
  // the session, the roles with their holder counts, the data centers' names
  teamRoles: { statements: 3, commits: 0 },
  customRoleCreate: { statements: 8, commits: 1 },
  customRoleUpdate: { statements: 8, commits: 1 },
  customRoleDelete: { statements: 8, commits: 1 },
  // a confirmation; a revocation runs the role change's statements instead of the one update
  teamReviewDecide: { statements: 13, commits: 1 },
  teamReviewExport: { statements: 4, commits: 1 },
  teamProfile: { statements: 4, commits: 0 },
  mySessions: { statements: 2, commits: 0 },
  endMySessions: { statements: 2, commits: 0 },
  myFactors: { statements: 4, commits: 0 },
  totpEnrolStart: { statements: 6, commits: 3 },
  totpEnrolConfirm: { statements: 4, commits: 0 },
  totpRemove: { statements: 2, commits: 0 },
  passkeyOptions: { statements: 6, commits: 3 },
  passkeyAdd: { statements: 2, commits: 1 },
  passkeyRename: { statements: 2, commits: 0 },
  passkeyRemove: { statements: 3, commits: 0 },
  recoveryCodesRenew: { statements: 2, commits: 0 },
  stepUpStatus: { statements: 4, commits: 0 },
  stepUpPasskeyOptions: { statements: 3, commits: 1 },
  // 7 with the password; a passkey's or a code's check reads and writes up to 3 more
  stepUp: { statements: 10, commits: 3 },
  // 13: with the check that the break-glass account keeps a factor while password sign-in is off
  staffFactorsReset: { statements: 13, commits: 1 },
  staffSessions: { statements: 3, commits: 0 },
  endStaffSessions: { statements: 4, commits: 0 },

  // endpoint-routes-customers.ts
  searchCustomer: { statements: 3, commits: 0 },
  searchCustomerExport: { statements: 4, commits: 1 },
  customerProfile: { statements: 2, commits: 0 },
  userProfile: { statements: 4, commits: 0 },
  loginSessions: { statements: 3, commits: 0 },
  activityLogs: { statements: 3, commits: 0 },
  customerApps: { statements: 3, commits: 0 },
  customerAllApps: { statements: 4, commits: 0 },
  sharedApps: { statements: 3, commits: 0 },
  appById: { statements: 3, commits: 0 },
  appInfoById: { statements: 3, commits: 0 },
  features: { statements: 3, commits: 0 },
  siteDataCenter: { statements: 6, commits: 0 },
  siteFeature: { statements: 4, commits: 0 },
  siteBasicSettings: { statements: 3, commits: 0 },
  customerRoles: { statements: 2, commits: 0 },
  createCustomer: { statements: 8, commits: 1 },
  updateCustomerProfile: { statements: 6, commits: 1 },
  setCustomerPassword: { statements: 4, commits: 1 },
  verifyEmail: { statements: 4, commits: 1 },
  addSite: { statements: 6, commits: 1 },
  updateSiteBasicSettings: { statements: 6, commits: 1 },
  updateSiteFeatures: { statements: 9, commits: 1 },
  updateSiteDataCenter: { statements: 11, commits: 1 },
  rotateSiteSecret: { statements: 6, commits: 1 },
  setSiteStatus: { statements: 6, commits: 1 },

  // endpoint-routes-operations.ts
  impersonationCreate: { statements: 18, commits: 1 }, // +1 on PostgreSQL: the live dashboard's pg_notify
  impersonationList: { statements: 3, commits: 0 },
  impersonationRequestsExport: { statements: 5, commits: 1 },
  impersonationTakenRoles: { statements: 2, commits: 0 },
  impersonationEdit: { statements: 11, commits: 1 }, // +1 on PostgreSQL: the live dashboard's pg_notify
  impersonationDelete: { statements: 7, commits: 1 }, // +1 on PostgreSQL: the live dashboard's pg_notify
  impersonationAction: { statements: 16, commits: 1 }, // +1 on PostgreSQL: the live dashboard's pg_notify
  impersonationApprovers: { statements: 2, commits: 0 },
  impersonationReasons: { statements: 1, commits: 0 },
  breakGlassOptions: { statements: 2, commits: 0 },
  // the site's lock, the caller's live grant, the roles' checks, the SuperAdmins, the grant, the
  // owner's link, two trail steps (log and trail each), the bell's three and one mail per
  // SuperAdmin told by mail, the owner's mail, the answer's read; +2 on PostgreSQL: the live
  // dashboard's pg_notify and the bell's
  breakGlassOpen: { statements: 20, commits: 1 },
  breakGlassReviewClose: { statements: 12, commits: 1 },
  breakGlassReviews: { statements: 2, commits: 0 },
  impersonationLogs: { statements: 2, commits: 0 },
  impersonationLogsExport: { statements: 5, commits: 1 },
  // 16 (was 15): the trail's newest events for those who read it (issue 32); the trail's counts
  // (failed sign-in steps, refusals, failed changes, exports) stay one statement; 17: the
  // access review's due and overdue members for SuperAdmins (one read of the staff list).
  // 18: the break-glass review queue for SuperAdmins (one read, its counts windowed)
  dashboard: { statements: 18, commits: 0 },
  trialsEnding: { statements: 2, commits: 0 },
  noticeList: { statements: 2, commits: 0 },
  noticeCreate: { statements: 5, commits: 1 },
  noticeRecipients: { statements: 2, commits: 0 },
  noticeAudienceOptions: { statements: 2, commits: 0 },
  // the session, the site-name match, the customer name search, the matching owners' sites
  noticeSiteOptions: { statements: 5, commits: 0 },
  noticeOne: { statements: 3, commits: 0 },
  noticeDeliveries: { statements: 3, commits: 0 },
  noticeCancel: { statements: 5, commits: 1 },
  noticeUnsubscribeDetails: { statements: 2, commits: 1 },
  noticeUnsubscribe: { statements: 3, commits: 2 },
  staffNotifications: { statements: 3, commits: 0 },
  staffNotificationsRead: { statements: 3, commits: 1 },
  staffNotificationPreferences: { statements: 2, commits: 0 },
  staffNotificationPreferencesSave: { statements: 4, commits: 1 },
  staffNotificationStream: { statements: 3, commits: 0 },
  auditEvents: { statements: 2, commits: 0 },
  auditExport: { statements: 5, commits: 1 },
  auditSigningKey: { statements: 1, commits: 0 },
  auditStream: { statements: 2, commits: 0 },
  customerRequestsList: { statements: 2, commits: 0 },
  customerRequestsCreate: { statements: 21, commits: 2 }, // +1 on PostgreSQL: the live dashboard's pg_notify
  siteAccess: { statements: 5, commits: 1 },
  siteAccessExport: { statements: 7, commits: 1 },
  siteAccessFeed: { statements: 6, commits: 1 },
  consentDetails: { statements: 3, commits: 1 },
  consentAnswer: { statements: 9, commits: 2 }, // +1 on PostgreSQL: the live dashboard's pg_notify
  updateAccess: { statements: 4, commits: 0 },
  switchApp: { statements: 6, commits: 1 },

  // endpoint-routes-site-settings.ts
  customObjectList: { statements: 4, commits: 0 },
  customObjectCreate: { statements: 6, commits: 1 },
  customObjectDelete: { statements: 4, commits: 1 },
  customObjectSchema: { statements: 6, commits: 1 },
  customObjectValidate: { statements: 2, commits: 0 },
  hubDomain: { statements: 1, commits: 0 },
  customDomainList: { statements: 3, commits: 0 },
  customDomainsAll: { statements: 2, commits: 0 },
  customDomainCreate: { statements: 5, commits: 1 },
  customDomainDelete: { statements: 4, commits: 1 },
  customDomainVerify: { statements: 8, commits: 1 },
  appSettings: { statements: 2, commits: 0 },
  updateAppSettings: { statements: 5, commits: 1 },
  applicationSecurity: { statements: 4, commits: 0 },
  updateApplicationSecurity: { statements: 5, commits: 1 },
  passwordSettings: { statements: 4, commits: 0 },
  previousPasswordSettings: { statements: 4, commits: 0 },
  securityQuestionSettings: { statements: 4, commits: 0 },
  saveEncryptionSettings: { statements: 9, commits: 1 },
  encryptionPreview: { statements: 2, commits: 0 },
  activeCustomFields: { statements: 4, commits: 0 },
  customRegistrationDataList: { statements: 3, commits: 0 },
  addDataSource: { statements: 6, commits: 1 },
  addCustomField: { statements: 7, commits: 1 },
  saveDefaultFields: { statements: 9, commits: 1 },
  integrations: { statements: 2, commits: 0 },

  // endpoint-routes-tokens.ts
  apiTokenList: { statements: 2, commits: 0 },
  apiTokenCreate: { statements: 4, commits: 1 },
  apiTokenRevoke: { statements: 3, commits: 1 },
  serviceAccountCreate: { statements: 5, commits: 1 },
  addressAllowlist: { statements: 2, commits: 0 },
  addressAllowlistSave: { statements: 4, commits: 1 },
  scimTokenList: { statements: 2, commits: 0 },
  scimTokenCreate: { statements: 4, commits: 1 },
  scimTokenRevoke: { statements: 4, commits: 1 },

  // endpoint-routes-events.ts
  webhookList: { statements: 3, commits: 0 },
  webhookCreate: { statements: 7, commits: 1 },
  webhookUpdate: { statements: 7, commits: 1 },
  webhookDelete: { statements: 5, commits: 1 },
  webhookPause: { statements: 6, commits: 1 },
  webhookResume: { statements: 6, commits: 1 },
  webhookRotateSecret: { statements: 6, commits: 1 },
  webhookTest: { statements: 5, commits: 1 },
  webhookDeliveries: { statements: 3, commits: 0 },
  webhookRedeliver: { statements: 6, commits: 1 },

  // endpoint-routes-bulk.ts: whatever the selection's size (its items go in one statement)
  bulkDryRun: { statements: 7, commits: 1 },
  bulkRequestsDryRun: { statements: 7, commits: 1 },
  // + the colleague's row and their live sessions (the list's own read), and the actor's cool-down
  // when the colleague is a SuperAdmin (the matrix's colleague is not: 8)
  bulkSessionsDryRun: { statements: 9, commits: 1 },
  bulkInvitationsDryRun: { statements: 9, commits: 1 },
  // + the search's matches, one statement (the matrix's call is of all a name search matches)
  bulkCustomersDryRun: { statements: 8, commits: 1 },
  // + the requester's rights now (the runner's read, in the start's transaction)
  bulkRun: { statements: 8, commits: 1 },
  // + the requester's rights now (the runner's read, in the approval's transaction)
  bulkApprove: { statements: 8, commits: 1 },
  bulkCancel: { statements: 8, commits: 1 },
  bulkUndo: { statements: 10, commits: 1 },
  bulkJob: { statements: 4, commits: 0 },
} as const satisfies { readonly [I in EndpointId]: StatementBudget };
