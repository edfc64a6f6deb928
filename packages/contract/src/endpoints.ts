import { z } from 'zod';
import {
  auditEventsQuery,
  auditEventsResponse,
  auditExportQuery,
  auditExportResponse,
  auditSigningKeyResponse,
} from './audit.ts';
import {
  changePasswordBody,
  endMySessionsBody,
  endStaffSessionsBody,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  okResponse,
  resetPasswordBody,
  sessionsEndedResponse,
  staffSessionsQuery,
  staffSessionsResponse,
} from './auth.ts';
import {
  addSiteBody,
  createCustomerBody,
  customerPasswordBody,
  rotateSecretBody,
  secretRotatedResponse,
  siteBasicSettingsBody,
  siteDataCenterBody,
  siteFeaturesBody,
  siteStatusBody,
  updateCustomerProfileBody,
  verifyEmailBody,
} from './customer-writes.ts';
import {
  activityLogsQuery,
  activityLogsResponse,
  appByIdQuery,
  customerCreatedResponse,
  customerProfileResponse,
  customerRolesResponse,
  featuresResponse,
  loginSessionsResponse,
  searchCustomerExportQuery,
  searchCustomerExportResponse,
  searchCustomerQuery,
  searchCustomerResponse,
  siteBasicSettingsQuery,
  siteBasicSettingsResponse,
  siteByUserQuery,
  siteCreatedResponse,
  siteDataCenterResponse,
  siteFeaturesResponse,
  siteInfoResponse,
  siteResponse,
  sitesResponse,
  uidQuery,
  userProfileResponse,
} from './customers.ts';
import { dashboardResponse } from './dashboard.ts';
import {
  encryptionSettingsResponse,
  previewBody,
  previewResponse,
  saveEncryptionSettingsBody,
} from './encryption-settings.ts';
import { ENDPOINT_ROUTES, type EndpointId, type EndpointRoute } from './endpoint-routes.ts';
import { errorEnvelopeSchema } from './errors.ts';
import {
  approversResponse,
  consentBody,
  consentDetailsResponse,
  consentQuery,
  createImpersonationBody,
  customerRequestBody,
  customerRequestsQuery,
  editImpersonationBody,
  impersonationActionBody,
  impersonationActionQuery,
  impersonationActionResponse,
  impersonationListResponse,
  impersonationLogsResponse,
  impersonationOneResponse,
  listExportResponse,
  logStatusQuery,
  logsExportQuery,
  requestIdQuery,
  requestsExportQuery,
  siteAccessQuery,
  siteAccessResponse,
  statusQuery,
  takenRolesQuery,
  takenRolesResponse,
} from './impersonation-api.ts';
import {
  switchAppQuery,
  switchAppResponse,
  updateAccessQuery,
  updateAccessResponse,
} from './impersonation-session.ts';
import {
  addPasskeyBody,
  currentPasswordBody,
  enrolledSignInAnswer,
  enrolPasskeyAtSignInBody,
  enrolTotpAtSignInBody,
  factorAddedResponse,
  messageResponse,
  myFactorsResponse,
  passkeyOptionsResponse,
  recoveryCodesResponse,
  removePasskeyBody,
  renamePasskeyBody,
  resetStaffFactorsBody,
  secondStepBody,
  signedInAnswer,
  ticketBody,
  totpConfirmBody,
  totpSecretResponse,
} from './mfa.ts';
import {
  createNoticeBody,
  noticeAudienceOptionsResponse,
  noticeCancelBody,
  noticeDeliveriesQuery,
  noticeDeliveriesResponse,
  noticeListQuery,
  noticeListResponse,
  noticeQuery,
  noticeRecipientsBody,
  noticeRecipientsResponse,
  noticeResponse,
  unsubscribeQuery,
  unsubscribeResponse,
} from './notices.ts';
import {
  activeFieldsResponse,
  customFieldBody,
  dataSourceBody,
  dataSourcesResponse,
  defaultFieldsBody,
  integrationsQuery,
  integrationsResponse,
} from './registration-fields.ts';
import {
  applicationSecurityBody,
  applicationSecurityResponse,
  appSettingsBody,
  appSettingsResponse,
  createCustomObjectBody,
  customDomainResponse,
  customDomainsAllQuery,
  customDomainsAllResponse,
  customDomainsResponse,
  customObjectResponse,
  customObjectsResponse,
  customObjectValidationResponse,
  deleteCustomObjectBody,
  domainBody,
  hubDomainResponse,
  setCustomObjectSchemaBody,
  siteQuery,
  validateCustomObjectBody,
} from './site-settings.ts';
import {
  markNotificationsReadBody,
  markNotificationsReadResponse,
  notificationPreferencesBody,
  notificationPreferencesResponse,
  notificationStreamResponse,
  staffNotificationsQuery,
  staffNotificationsResponse,
} from './staff-notifications.ts';
import {
  createSuperUserBody,
  deleteSuperUserBody,
  deleteSuperUserResponse,
  profileQuery,
  superUserProfileResponse,
  superUserResponse,
  teamListResponse,
  teamRolesResponse,
  updateRolesBody,
} from './team.ts';

export type { Access, EndpointId } from './endpoint-routes.ts';

/** The tags of the reference, in its order, each with what it groups. */
export const ENDPOINT_TAGS = {
  Authentication: 'Sign-in and sign-out of staff members, their session and their passwords.',
  Team: 'The super users (staff members) and their roles.',
  Customers: 'Find customers; their profiles, accounts, sign-ins and activity; create and edit them.',
  Sites: "Customers' sites: lists and details, the catalogue, and the steps of the site wizard.",
  Impersonation:
    "Time-boxed access to a customer's site: requests, the owner's consent, approval, sessions and logs.",
  Dashboard: 'What awaits the signed-in staff member and how the platform stands, in one call.',
  Notices:
    "Notices to site owners (maintenance, incident, announcement): their audience, schedule, sending and delivery log; the owners' unsubscribe links.",
  Notifications:
    "The signed-in staff member's notifications: the list with its read state, marking read, the live stream and the mail preferences per kind.",
  Audit: 'The staff audit trail: who did what, when and from where; its export and the key that verifies it.',
  'Site settings':
    "A site's settings: custom objects, domains, web apps, security, password hashing, registration fields and integrations.",
} as const;
type EndpointTag = keyof typeof ENDPOINT_TAGS;

/** What endpoints.ts adds to an entry of ENDPOINT_ROUTES: documentation and schemas. */
interface EndpointDetails {
  readonly summary: string;
  readonly tag: string;
  /**
   * A public call that authenticates with a site's API key and secret (the headers of
   * CUSTOMER_AUTH_HEADERS) instead of a staff session.
   */
  readonly siteCredentials?: true;
  readonly query?: z.ZodObject;
  /** The JSON body; DELETE calls carry theirs as data too, as spec section 7 says. */
  readonly body?: z.ZodType;
  /** The answer per HTTP status; every error status carries the error envelope. */
  readonly responses: Readonly<Record<number, z.ZodType>>;
  /**
   * Optimistic concurrency (docs/decisions.md): 'etag' answers the record's version as an ETag;
   * 'if-match' takes the version read in If-Match (an ETag, or a listed row's Version as "7"),
   * answers 412 (930) when the record moved on, and answers the new version as an ETag.
   */
  readonly versioned?: 'etag' | 'if-match';
  /** The media types of a 200 that is a file rather than JSON (its schema describes the text). */
  readonly produces?: readonly string[];
}

/** One endpoint of the full table: its route (endpoint-routes.ts) and its details. */
export interface EndpointDef extends EndpointRoute, EndpointDetails {}

/**
 * Error statuses of an endpoint. Signed-in calls other than session and logout also answer 403
 * (947) to an impersonation session, which reaches only its site's calls (docs/decisions.md).
 */
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorEnvelopeSchema])) as Record<number, z.ZodType>;

const sessionResponse = z.object({
  Email: z.string(),
  Name: z.string(),
  Role: z.array(z.string()),
  Permissions: z.array(z.string()),
  Uid: z.string(),
  /** A SuperAdmin in the approval cool-down after their promotion: when it ends (else null). */
  CanApproveImpersonationFrom: z.string().nullable().optional(),
});

/** Summary, tag and schemas of every endpoint, keyed by the ids of ENDPOINT_ROUTES (all of them). */
const DETAILS = {
  login: {
    summary:
      'Sign in with email and password; answers the session pair xtoken and xsign, or, when the account has a second factor (or must set one up), a single-use ticket to the second step (SecondStep).',
    tag: 'Authentication',
    body: loginBody,
    responses: { 200: loginResponse, ...errors(400, 401, 429) },
  },
  loginSecondStep: {
    summary:
      'The second step of a sign-in: the ticket of POST /admin/login and a passkey assertion, a one-time code or a recovery code; answers the session pair. A wrong factor counts as a wrong password towards the lockout.',
    tag: 'Authentication',
    body: secondStepBody,
    responses: { 200: signedInAnswer, ...errors(400, 401, 429) },
  },
  loginPasskeyOptions: {
    summary: "WebAuthn request options (a fresh challenge) for the ticket's account and its passkeys.",
    tag: 'Authentication',
    body: ticketBody,
    responses: { 200: passkeyOptionsResponse, ...errors(400, 401) },
  },
  loginEnrolTotp: {
    summary:
      "At a sign-in that must set up a factor first (STAFF_MFA=required): a new authenticator-app secret for the ticket's account.",
    tag: 'Authentication',
    body: ticketBody,
    responses: { 200: totpSecretResponse, ...errors(400, 401) },
  },
  loginEnrolTotpConfirm: {
    summary:
      'Confirm the authenticator app set up at sign-in with its current code; answers the session pair and the ten recovery codes (shown once).',
    tag: 'Authentication',
    body: enrolTotpAtSignInBody,
    responses: { 200: enrolledSignInAnswer, ...errors(400, 401, 429) },
  },
  loginEnrolPasskeyOptions: {
    summary: 'At a sign-in that must set up a factor first: WebAuthn creation options for a new passkey.',
    tag: 'Authentication',
    body: ticketBody,
    responses: { 200: passkeyOptionsResponse, ...errors(400, 401) },
  },
  loginEnrolPasskey: {
    summary:
      'Register the passkey made at sign-in; answers the session pair and the ten recovery codes (shown once).',
    tag: 'Authentication',
    body: enrolPasskeyAtSignInBody,
    responses: { 200: enrolledSignInAnswer, ...errors(400, 401, 429) },
  },
  logout: {
    summary: 'End the calling session on the server.',
    tag: 'Authentication',
    responses: { 200: okResponse, ...errors(401) },
  },
  session: {
    summary: 'The signed-in staff member, their roles and the permissions those grant.',
    tag: 'Authentication',
    responses: { 200: sessionResponse, ...errors(401) },
  },
  forgotPassword: {
    summary:
      'Mail a single-use reset link built on the console page `url` (an allowed console origin). Answers the same whether or not the email is known.',
    tag: 'Authentication',
    body: forgotPasswordBody,
    responses: { 200: okResponse, ...errors(400, 429) },
  },
  resetPassword: {
    summary: 'Set a new password with the token of a reset link; ends every session of that user.',
    tag: 'Authentication',
    body: resetPasswordBody,
    responses: { 200: okResponse, ...errors(400, 429) },
  },
  changePassword: {
    summary: "Change the signed-in user's password; ends their other sessions.",
    tag: 'Authentication',
    body: changePasswordBody,
    // 429: the address's daily failures (904), or the account locked by wrong old passwords (974)
    responses: { 200: okResponse, ...errors(400, 401, 403, 429) },
  },
  mySessions: {
    summary:
      "The caller's live sessions: when each started and was last used, from which address and browser, and which is this one.",
    tag: 'Authentication',
    responses: { 200: staffSessionsResponse, ...errors(401, 403) },
  },
  endMySessions: {
    summary:
      'End one of my sessions (Id) or every other one (AllOthers: true); it is refused from its next call, on every instance.',
    tag: 'Authentication',
    body: endMySessionsBody,
    responses: { 200: sessionsEndedResponse, ...errors(400, 401, 403, 404) },
  },
  myFactors: {
    summary:
      "The caller's second factors: authenticator app, passkeys, recovery codes left, and whether one is required.",
    tag: 'Authentication',
    responses: { 200: myFactorsResponse, ...errors(401, 403) },
  },
  totpEnrolStart: {
    summary:
      'Start setting up an authenticator app (needs the current password): a new secret, as base32 text and an otpauth:// address for a QR code.',
    tag: 'Authentication',
    body: currentPasswordBody,
    responses: { 200: totpSecretResponse, ...errors(400, 401, 403, 409, 429) },
  },
  totpEnrolConfirm: {
    summary:
      'Finish setting up the authenticator app with its current code; the first factor of an account also answers its ten recovery codes (shown once).',
    tag: 'Authentication',
    body: totpConfirmBody,
    responses: { 200: factorAddedResponse, ...errors(400, 401, 403, 409) },
  },
  totpRemove: {
    summary: 'Remove the authenticator app (needs the current password).',
    tag: 'Authentication',
    body: currentPasswordBody,
    responses: { 200: messageResponse, ...errors(400, 401, 403, 404, 409, 429) },
  },
  passkeyOptions: {
    summary: 'WebAuthn creation options (a fresh challenge) for a new passkey (needs the current password).',
    tag: 'Authentication',
    body: currentPasswordBody,
    responses: { 200: passkeyOptionsResponse, ...errors(400, 401, 403, 429) },
  },
  passkeyAdd: {
    summary:
      'Register the new passkey under a name; the first factor of an account also answers its ten recovery codes (shown once).',
    tag: 'Authentication',
    body: addPasskeyBody,
    responses: { 200: factorAddedResponse, ...errors(400, 401, 403) },
  },
  passkeyRename: {
    summary: 'Rename one of my passkeys.',
    tag: 'Authentication',
    body: renamePasskeyBody,
    responses: { 200: messageResponse, ...errors(400, 401, 403, 404) },
  },
  passkeyRemove: {
    summary: 'Remove one of my passkeys (needs the current password).',
    tag: 'Authentication',
    body: removePasskeyBody,
    responses: { 200: messageResponse, ...errors(400, 401, 403, 404, 409, 429) },
  },
  recoveryCodesRenew: {
    summary: 'Make ten new recovery codes (needs the current password); the old ones stop working.',
    tag: 'Authentication',
    body: currentPasswordBody,
    responses: { 200: recoveryCodesResponse, ...errors(400, 401, 403, 409, 429) },
  },
  staffFactorsReset: {
    summary:
      "Remove a colleague's second factors and recovery codes and end their sessions (SuperAdmins only; not their own account). Recorded in the staff activity and mailed to them.",
    tag: 'Team',
    body: resetStaffFactorsBody,
    responses: { 200: messageResponse, ...errors(400, 401, 403, 404) },
  },
  staffSessions: {
    summary: "A colleague's live sessions (SuperAdmins only).",
    tag: 'Team',
    query: staffSessionsQuery,
    responses: { 200: staffSessionsResponse, ...errors(400, 401, 403, 404) },
  },
  endStaffSessions: {
    summary:
      "End one of a colleague's sessions (Id) or all of them (SuperAdmins only; not their own account). Recorded in the staff activity.",
    tag: 'Team',
    body: endStaffSessionsBody,
    responses: { 200: sessionsEndedResponse, ...errors(400, 401, 403, 404) },
  },
  teamList: {
    summary: 'Every super user: FullName, Email[0].Value, Roles, CreatedDate, LastLoginDate, Uid.',
    tag: 'Team',
    responses: { 200: teamListResponse, ...errors(401, 403) },
  },
  teamCreate: {
    summary:
      'Create a super user with the given roles (never SuperAdmin). The password is generated and never shown; the user is mailed a single-use invitation link (24 hours) to set their own.',
    tag: 'Team',
    body: createSuperUserBody,
    responses: { 200: superUserResponse, ...errors(400, 401, 403, 409) },
  },
  teamUpdateRoles: {
    summary:
      "Set a super user's roles to `role`, unassigning `unAssignRoles` (all roles not chosen). Ends the user's sessions. Nobody changes their own roles; the last SuperAdmin keeps the role.",
    tag: 'Team',
    versioned: 'if-match',
    body: updateRolesBody,
    responses: { 200: superUserResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamDelete: {
    summary:
      'Delete a super user and end their sessions. Nobody deletes themselves; the last SuperAdmin stays.',
    tag: 'Team',
    body: deleteSuperUserBody,
    responses: { 200: deleteSuperUserResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamRoles: {
    summary: 'The staff roles, each with its description and permissions.',
    tag: 'Team',
    responses: { 200: teamRolesResponse, ...errors(401, 403) },
  },
  teamProfile: {
    summary:
      "A super user's profile, when the profile-access rule of spec section 6 lets the caller open it (anyone opens their own).",
    tag: 'Team',
    query: profileQuery,
    responses: { 200: superUserProfileResponse, ...errors(400, 401, 403, 404) },
  },
  searchCustomer: {
    summary:
      'Find customers by one criterion: customerName (case-insensitive; the exact name first, then names starting with the term, then names holding it, from 3 characters), sitename (substring from 3 characters, prefix below), emailid (prefix or exact, case-insensitive), phone (digits with an optional leading +, separators ignored; exact or prefix), uid, apikey or apisecret (exact). 50 customers an answer, in a stable order (name, then uid, within each rank); sort=name, created or modified (- first for descending: -created) orders every match by the customer name, CreatedDate or ModifiedDate instead, ties by uid. Pass NextCursor as cursor, with the same criterion and sort, for the next 50, through every match (a cursor of another sort or criterion is 400). Total counts the matches exactly up to Limit (1,000); Capped says more match. A site-name search looks at 200 customers at most. ErrorCode 927 when nothing matches.',
    tag: 'Customers',
    query: searchCustomerQuery,
    responses: { 200: searchCustomerResponse, ...errors(400, 401, 403, 404) },
  },
  searchCustomerExport: {
    summary:
      "Every customer a search matches as CSV (same criterion fields and sort as the search, no cursor), in the list's order, streamed: columns Uid, Customer Name, Email, Status, Role, Created Date, Modified Date. The x-export-rows header says how many rows follow the header line. At most 50,000 customers (else 400: narrow the search); two exports at once per instance (else 429). Recorded in the audit trail (customers.export) with the criterion, sort and row count, not the term.",
    tag: 'Customers',
    query: searchCustomerExportQuery,
    responses: { 200: searchCustomerExportResponse, ...errors(400, 401, 403, 429) },
    produces: ['text/csv'],
  },
  customerProfile: {
    summary: "A customer's profile: names, emails, organization, phone, time zone, status and dates (UTC).",
    tag: 'Customers',
    versioned: 'etag',
    query: uidQuery,
    responses: { 200: customerProfileResponse, ...errors(400, 401, 403, 404) },
  },
  userProfile: {
    summary: "A customer's account: identity, creation date (UTC), time zone, last sign-in, site counts.",
    tag: 'Customers',
    query: uidQuery,
    responses: { 200: userProfileResponse, ...errors(400, 401, 403, 404) },
  },
  loginSessions: {
    summary: "A customer's latest sign-ins: access type, browser, client address and location, UTC time.",
    tag: 'Customers',
    query: uidQuery,
    responses: { 200: loginSessionsResponse, ...errors(400, 401, 403, 404) },
  },
  activityLogs: {
    summary:
      'Activity of and about a customer, newest first, 20 a page; pass NextCursor as cursor for older entries.',
    tag: 'Customers',
    query: activityLogsQuery,
    responses: { 200: activityLogsResponse, ...errors(400, 401, 403, 404) },
  },
  customerApps: {
    summary: 'The sites a customer owns.',
    tag: 'Sites',
    query: uidQuery,
    responses: { 200: sitesResponse, ...errors(400, 401, 403, 404) },
  },
  customerAllApps: {
    summary: 'Every site a customer can reach: owned sites, then sites shared with them.',
    tag: 'Sites',
    query: uidQuery,
    responses: { 200: sitesResponse, ...errors(400, 401, 403, 404) },
  },
  sharedApps: {
    summary:
      "The sites shared with a customer (a customer role on another customer's site), each with AppName and ApiKey.",
    tag: 'Sites',
    query: uidQuery,
    responses: { 200: sitesResponse, ...errors(400, 401, 403, 404) },
  },
  appById: {
    summary: 'One site of a customer (owned or shared).',
    tag: 'Sites',
    query: appByIdQuery,
    responses: { 200: siteResponse, ...errors(400, 401, 403, 404) },
  },
  appInfoById: {
    summary:
      'Everything about one site: plan, data center, database (a custom connection string masked), features, web apps.',
    tag: 'Sites',
    query: appByIdQuery,
    responses: { 200: siteInfoResponse, ...errors(400, 401, 403, 404) },
  },
  features: {
    summary: 'The catalogue of features and feature sets.',
    tag: 'Sites',
    responses: { 200: featuresResponse, ...errors(401, 403) },
  },
  siteDataCenter: {
    summary: "The data centers and global servers, and a site's current data center and database.",
    tag: 'Sites',
    versioned: 'etag',
    query: siteByUserQuery,
    responses: { 200: siteDataCenterResponse, ...errors(400, 401, 403, 404) },
  },
  siteFeature: {
    summary: "A site's features.",
    tag: 'Sites',
    versioned: 'etag',
    query: siteByUserQuery,
    responses: { 200: siteFeaturesResponse, ...errors(400, 401, 403, 404) },
  },
  siteBasicSettings: {
    summary: "A site's basic settings: name, web apps, plan and status.",
    tag: 'Sites',
    versioned: 'etag',
    query: siteBasicSettingsQuery,
    responses: { 200: siteBasicSettingsResponse, ...errors(400, 401, 403, 404) },
  },
  customerRoles: {
    summary: 'The roles a customer can hold on a site, each with its Permissions.',
    tag: 'Sites',
    responses: { 200: customerRolesResponse, ...errors(401, 403) },
  },
  createCustomer: {
    summary:
      "Wizard step 1: create a customer and their first site. Answers the site's API secret once; only its hash is kept.",
    tag: 'Customers',
    body: createCustomerBody,
    responses: { 200: customerCreatedResponse, ...errors(400, 401, 403, 409) },
  },
  updateCustomerProfile: {
    summary: "Edit a customer's profile (phone and email rules of spec section 5).",
    tag: 'Customers',
    versioned: 'if-match',
    query: uidQuery,
    body: updateCustomerProfileBody,
    responses: { 200: customerProfileResponse, ...errors(400, 401, 403, 404, 409) },
  },
  setCustomerPassword: {
    summary: "Reset a customer's password to the one given (the password rule applies).",
    tag: 'Customers',
    query: uidQuery,
    body: customerPasswordBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
  verifyEmail: {
    summary: "Mark a customer's email address verified.",
    tag: 'Customers',
    body: verifyEmailBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
  addSite: {
    summary: "Add a site to a customer (the add-site flow's first step). Answers the API secret once.",
    tag: 'Sites',
    query: uidQuery,
    body: addSiteBody,
    responses: { 200: siteCreatedResponse, ...errors(400, 401, 403, 404, 409) },
  },
  updateSiteBasicSettings: {
    summary: 'Wizard step 2 (Additional Site Information): web apps, plan and trial.',
    tag: 'Sites',
    versioned: 'if-match',
    query: siteBasicSettingsQuery,
    body: siteBasicSettingsBody,
    responses: { 200: siteBasicSettingsResponse, ...errors(400, 401, 403, 404) },
  },
  updateSiteFeatures: {
    summary:
      "Wizard step 3 (Set Features): a feature set's features, or those of another site of the customer.",
    tag: 'Sites',
    versioned: 'if-match',
    query: siteByUserQuery,
    body: siteFeaturesBody,
    responses: { 200: siteFeaturesResponse, ...errors(400, 401, 403, 404) },
  },
  updateSiteDataCenter: {
    summary:
      "Wizard step 4 (Set Data Center & DB): copy an existing site's configuration, use a global server, or a custom database (its connection string is encrypted at rest).",
    tag: 'Sites',
    versioned: 'if-match',
    query: siteByUserQuery,
    body: siteDataCenterBody,
    responses: { 200: siteDataCenterResponse, ...errors(400, 401, 403, 404) },
  },
  rotateSiteSecret: {
    summary:
      "Issue a new API secret for a site the customer owns, answered this once (only its hash is kept). The old secret keeps working for GraceMinutes (0 to 1440), then is refused. Logged in the customer's activity; the owner is mailed.",
    tag: 'Sites',
    query: siteQuery,
    body: rotateSecretBody,
    responses: { 200: secretRotatedResponse, ...errors(400, 401, 403, 404) },
  },
  setSiteStatus: {
    summary: 'Activate or deactivate a site.',
    tag: 'Sites',
    query: appByIdQuery,
    body: siteStatusBody,
    responses: { 200: siteResponse, ...errors(400, 401, 403, 404) },
  },
  impersonationCreate: {
    summary:
      "Ask for time-boxed access to a customer's site with customer roles and permissions. The site owner is mailed a single-use consent link; the SuperAdmin assignees are told.",
    tag: 'Impersonation',
    body: createImpersonationBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationList: {
    summary:
      'Requests the caller made or is assigned (SuperAdmins: all), pending and unexpired approved first, then by the newest action or change; optional status filter (Expired is derived), site (appId) or request (requestId); sort by id, app, priority (by severity), status or modified (-key descending, ties by Id). 50 a page (limit: 1 to 200); pass NextCursor as cursor for the next page under the same sort, read as of the first.',
    tag: 'Impersonation',
    query: statusQuery,
    responses: { 200: impersonationListResponse, ...errors(400, 401, 403) },
  },
  impersonationRequestsExport: {
    summary:
      'The request list as CSV (Request Id, App Name, Priority, Status, Initiator, Assignees, Created, Modified, Expires At): the same filters, order (sort) and visibility as GET /admin/impersonation/requests, every row, streamed. The x-export-rows header says how many rows follow the header line. Two exports at once per instance (else 429).',
    tag: 'Impersonation',
    query: requestsExportQuery,
    responses: { 200: listExportResponse, ...errors(400, 401, 403, 429) },
    produces: ['text/csv'],
  },
  impersonationTakenRoles: {
    summary:
      'The roles other live requests of one site hold (pending: requested; approved and unexpired: granted): a new request or an edit may not ask for them. exceptId leaves out the request being edited.',
    tag: 'Impersonation',
    query: takenRolesQuery,
    responses: { 200: takenRolesResponse, ...errors(400, 401, 403) },
  },
  impersonationEdit: {
    summary: 'The requester edits their pending request.',
    tag: 'Impersonation',
    versioned: 'if-match',
    query: requestIdQuery,
    body: editImpersonationBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationDelete: {
    summary: 'The requester deletes their pending request.',
    tag: 'Impersonation',
    query: requestIdQuery,
    responses: {
      200: z.object({ IsDeleted: z.boolean(), Id: z.number().int(), Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationAction: {
    summary:
      "Approve (needs the customer's consent; roles and duration may be narrowed), reject, or revoke (revokeAction=site: all access; roles: the ProxyRoles and AdditionalPermissions given). Nobody decides their own request.",
    tag: 'Impersonation',
    query: impersonationActionQuery,
    body: impersonationActionBody,
    responses: { 200: impersonationActionResponse, ...errors(400, 401, 403, 404, 409) },
  },
  impersonationApprovers: {
    summary:
      'The SuperAdmins a request can be assigned to (name and email), for anyone who may request impersonation.',
    tag: 'Impersonation',
    responses: { 200: approversResponse, ...errors(401, 403) },
  },
  impersonationLogs: {
    summary:
      'Every step of every impersonation request, newest first; optional status filter; sort by request, app, status or modified (-key descending, ties by Id). 50 a page (limit: 1 to 200); pass NextCursor as cursor for the next page under the same sort.',
    tag: 'Impersonation',
    query: logStatusQuery,
    responses: { 200: impersonationLogsResponse, ...errors(400, 401, 403) },
  },
  impersonationLogsExport: {
    summary:
      'The impersonation log as CSV (Log Id, Request Id, App Name, Status, Event, Actor, Last Modified): the same filter and order (sort) as GET /admin/impersonation/logs, every entry, streamed. The x-export-rows header says how many rows follow the header line. Two exports at once per instance (else 429).',
    tag: 'Impersonation',
    query: logsExportQuery,
    responses: { 200: listExportResponse, ...errors(400, 401, 403, 429) },
    produces: ['text/csv'],
  },
  dashboard: {
    summary:
      "The signed-in staff member's dashboard: impersonation requests awaiting them and live grants, customer and site figures, staff sign-in failures, recently viewed customers. Each part is present only with the permission of the list behind it.",
    tag: 'Dashboard',
    responses: { 200: dashboardResponse, ...errors(401, 403) },
  },
  noticeList: {
    summary:
      'Customer notices, newest first, 50 a page, each with its status and delivery progress; pass NextCursor as cursor for the next page.',
    tag: 'Notices',
    query: noticeListQuery,
    responses: { 200: noticeListResponse, ...errors(400, 401, 403) },
  },
  noticeCreate: {
    summary:
      "A notice to the owners of the audience's sites, sent now (SendAt null) or at SendAt (at most 90 days ahead). Recipients are resolved when sending starts; ErrorCode 991 when the audience is over the limit, 992 when it reaches nobody.",
    tag: 'Notices',
    body: createNoticeBody,
    responses: { 200: noticeResponse, ...errors(400, 401, 403) },
  },
  noticeRecipients: {
    summary:
      'How many distinct owner addresses an audience reaches now (the count shown before sending), and whether it is over the limit.',
    tag: 'Notices',
    body: noticeRecipientsBody,
    responses: { 200: noticeRecipientsResponse, ...errors(400, 401, 403) },
  },
  noticeAudienceOptions: {
    summary: 'What an audience may name: the plans and the data centers.',
    tag: 'Notices',
    responses: { 200: noticeAudienceOptionsResponse, ...errors(401, 403) },
  },
  noticeOne: {
    summary: 'One notice with its text, status and delivery progress.',
    tag: 'Notices',
    query: noticeQuery,
    responses: { 200: noticeResponse, ...errors(400, 401, 403, 404) },
  },
  noticeDeliveries: {
    summary:
      "A notice's delivery log, one row per recipient (pending, queued, retrying, sent, failed with the reason, skipped), 50 a page, filtered by status.",
    tag: 'Notices',
    query: noticeDeliveriesQuery,
    responses: { 200: noticeDeliveriesResponse, ...errors(400, 401, 403, 404) },
  },
  noticeCancel: {
    summary:
      'Cancel a scheduled notice. ErrorCode 990 once it has started sending (mails already queued are delivered), was sent or was cancelled.',
    tag: 'Notices',
    body: noticeCancelBody,
    responses: { 200: noticeResponse, ...errors(400, 401, 403, 404, 409) },
  },
  noticeUnsubscribeDetails: {
    summary:
      'What an unsubscribe link (from an announcement mail) is for: the address, masked, and whether it is already unsubscribed. ErrorCode 994 when the link is forged or altered.',
    tag: 'Notices',
    query: unsubscribeQuery,
    responses: { 200: unsubscribeResponse, ...errors(400, 429) },
  },
  noticeUnsubscribe: {
    summary:
      "Unsubscribe the link's address from announcements (incident and maintenance notices still arrive). Mail clients' one-click unsubscribe (RFC 8058) posts to POST /mail/unsubscribe instead.",
    tag: 'Notices',
    query: unsubscribeQuery,
    responses: { 200: unsubscribeResponse, ...errors(400, 429) },
  },
  staffNotifications: {
    summary:
      "The caller's notifications, newest first (20 a page, limit 1 to 50; pass NextCursor as cursor for the next), with how many are unread in all.",
    tag: 'Notifications',
    query: staffNotificationsQuery,
    responses: { 200: staffNotificationsResponse, ...errors(400, 401, 403) },
  },
  staffNotificationsRead: {
    summary:
      "Marks some of the caller's notifications (Ids, up to 100) or all of them (All: true) read; others' ids are left alone. Answers how many changed and the unread count.",
    tag: 'Notifications',
    body: markNotificationsReadBody,
    responses: { 200: markNotificationsReadResponse, ...errors(400, 401, 403) },
  },
  staffNotificationPreferences: {
    summary: 'How the caller is told of each kind of notification: in-app only, or also by email.',
    tag: 'Notifications',
    responses: { 200: notificationPreferencesResponse, ...errors(401, 403) },
  },
  staffNotificationPreferencesSave: {
    summary:
      'Sets, per kind named, in-app only or also email (the kinds not named keep theirs); answers every kind.',
    tag: 'Notifications',
    body: notificationPreferencesBody,
    responses: { 200: notificationPreferencesResponse, ...errors(400, 401, 403) },
  },
  staffNotificationStream: {
    summary:
      "The caller's new notifications as Server-Sent Events (event: notification, id: the notification's Id, data: {Notification, UnreadCount}), live from any instance; a comment line every 15 seconds keeps it open. Send Last-Event-ID to be sent what came after that id first. Authenticated like every call (the session headers: read it with fetch, not EventSource); it ends when the session ends or the server shuts down. 429 past 5 streams per staff member or the instance's cap.",
    tag: 'Notifications',
    responses: { 200: notificationStreamResponse, ...errors(401, 403, 429) },
    produces: ['text/event-stream'],
  },
  auditEvents: {
    summary:
      'The staff audit trail: staff events and every write made through the console, newest first (sort=time: oldest first), 50 a page, filtered by actor, action, customer, site, time range and free text; pass NextCursor as cursor for the next page under the same sort.',
    tag: 'Audit',
    query: auditEventsQuery,
    responses: { 200: auditEventsResponse, ...errors(400, 401, 403) },
  },
  auditExport: {
    summary:
      'The filtered trail as a file (format csv or jsonl), oldest first (sort=-time: newest first), streamed; every row carries a SHA-256 hash chain and the last line the Ed25519 signature of its head. The x-export-rows header says how many rows follow. Two exports at once per instance (else 429).',
    tag: 'Audit',
    query: auditExportQuery,
    responses: { 200: auditExportResponse, ...errors(400, 401, 403, 429) },
    produces: ['text/csv', 'application/x-ndjson'],
  },
  auditSigningKey: {
    summary: 'The public key (Ed25519, PEM) that verifies the signature of exported trails.',
    tag: 'Audit',
    responses: { 200: auditSigningKeyResponse, ...errors(401, 403) },
  },
  customerRequestsList: {
    summary:
      'Requests opened on behalf of customers who asked for help, by modified date, newest first. 50 a page (limit: 1 to 200); pass NextCursor as cursor for the next page.',
    tag: 'Impersonation',
    query: customerRequestsQuery,
    responses: { 200: impersonationListResponse, ...errors(400, 401, 403) },
  },
  customerRequestsCreate: {
    summary:
      "A customer asks for help: authenticated with their site's API key and secret (headers apikey and apisecret), the request carries its own consent and goes to the SuperAdmins. The SuperAdmin who approves it is the one who may use it.",
    tag: 'Impersonation',
    siteCredentials: true,
    body: customerRequestBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 409, 429),
    },
  },
  siteAccess: {
    summary:
      "The owner's view of every impersonation request and step on their site, from the link in the consent email; ErrorCode 976 when the link is invalid or has expired.",
    tag: 'Impersonation',
    query: siteAccessQuery,
    responses: { 200: siteAccessResponse, ...errors(400, 429) },
  },
  consentDetails: {
    summary:
      'What a consent link asks: for the public consent page the site owner opens from the email; ErrorCode 975 when the link is invalid, used or expired.',
    tag: 'Impersonation',
    query: consentQuery,
    responses: { 200: consentDetailsResponse, ...errors(400, 429) },
  },
  consentAnswer: {
    summary:
      'The site owner allows or denies a request; recorded with time and client address; the link then stops working (ErrorCode 975 when it is invalid, used or expired).',
    tag: 'Impersonation',
    body: consentBody,
    responses: { 200: okResponse, ...errors(400, 409, 429) },
  },
  updateAccess: {
    summary:
      "The caller's live access to a customer's site: their approved, consented, unexpired impersonation grant (roles, permissions, expiry), or 403.",
    tag: 'Impersonation',
    query: updateAccessQuery,
    responses: { 200: updateAccessResponse, ...errors(400, 401, 403, 404) },
  },
  switchApp: {
    summary:
      "Open an impersonation session on a site the caller holds a live grant for: a new xtoken/xsign pair that reaches only that site's calls, within the approved customer roles and permissions, until the grant expires or is revoked. Every call of it is logged.",
    tag: 'Impersonation',
    query: switchAppQuery,
    responses: { 200: switchAppResponse, ...errors(400, 401, 403) },
  },
  customObjectList: {
    summary: "The site's custom objects; ErrorCode 999 when it has none (the console shows an empty list).",
    tag: 'Site settings',
    query: siteQuery,
    responses: { 200: customObjectsResponse, ...errors(400, 401, 403, 404) },
  },
  customObjectCreate: {
    summary: 'Add a custom object: Id (letters, digits, _ and -), Name, SizeMB (1 to 200) and a JSON Schema.',
    tag: 'Site settings',
    query: siteQuery,
    body: createCustomObjectBody,
    responses: { 200: customObjectResponse, ...errors(400, 401, 403, 404, 409, 503) },
  },
  customObjectDelete: {
    summary: 'Remove a custom object {objId}.',
    tag: 'Site settings',
    query: siteQuery,
    body: deleteCustomObjectBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
  customObjectSchema: {
    summary: "Replace a custom object's JSON Schema (checked as a JSON Schema).",
    tag: 'Site settings',
    versioned: 'if-match',
    query: siteQuery,
    body: setCustomObjectSchemaBody,
    responses: { 200: customObjectResponse, ...errors(400, 401, 403, 404, 503) },
  },
  customObjectValidate: {
    summary: 'Check a schema as a JSON Schema and a sample object against it, before saving.',
    tag: 'Site settings',
    query: siteQuery,
    body: validateCustomObjectBody,
    responses: { 200: customObjectValidationResponse, ...errors(400, 401, 403, 404, 503) },
  },
  hubDomain: {
    summary: "The platform's hub domain: custom domains point a CNAME at <site>.<hub domain>.",
    tag: 'Site settings',
    responses: { 200: hubDomainResponse, ...errors(401, 403) },
  },
  customDomainList: {
    summary: "The site's custom domains, their status and the DNS records to set.",
    tag: 'Site settings',
    query: siteQuery,
    responses: { 200: customDomainsResponse, ...errors(400, 401, 403, 404) },
  },
  customDomainsAll: {
    summary:
      'Custom domains of every site by name, 50 a page (limit up to 200), filtered by status: pending (awaiting verification), failing (verified, but the latest periodic re-check failed) or verified (and passing); pass NextCursor as cursor for the next page.',
    tag: 'Site settings',
    query: customDomainsAllQuery,
    responses: { 200: customDomainsAllResponse, ...errors(400, 401, 403) },
  },
  customDomainCreate: {
    summary:
      'Bind a domain: it starts Pending Verification with a CNAME to the hub domain and a TXT record carrying a verification token to set.',
    tag: 'Site settings',
    query: siteQuery,
    body: domainBody,
    responses: { 200: customDomainResponse, ...errors(400, 401, 403, 404, 409) },
  },
  customDomainDelete: {
    summary: 'Remove a custom domain {domain}.',
    tag: 'Site settings',
    query: siteQuery,
    body: domainBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
  customDomainVerify: {
    summary:
      "Look the domain's records up with the configured DNS resolver now; Verified when the CNAME and the TXT token are in place (also re-checked periodically).",
    tag: 'Site settings',
    query: siteQuery,
    body: domainBody,
    responses: { 200: customDomainResponse, ...errors(400, 401, 403, 404) },
  },
  appSettings: {
    summary: "A site's plan info (plan, trial or subscribed, monthly billing) and web apps.",
    tag: 'Site settings',
    versioned: 'etag',
    query: siteQuery,
    responses: { 200: appSettingsResponse, ...errors(400, 401, 403, 404) },
  },
  updateAppSettings: {
    summary: "Set a site's web apps (production and staging URLs, URL-like).",
    tag: 'Site settings',
    versioned: 'if-match',
    query: siteQuery,
    body: appSettingsBody,
    responses: { 200: appSettingsResponse.extend({ Message: z.string() }), ...errors(400, 401, 403, 404) },
  },
  applicationSecurity: {
    summary:
      "A site's application level security: sign-in mode (Required / strict or Optional / preferred), MFA, password length, lockout, session timeout, daily report time. ErrorCode 927 when never saved (the console shows the defaults).",
    tag: 'Site settings',
    versioned: 'etag',
    query: siteQuery,
    responses: { 200: applicationSecurityResponse, ...errors(400, 401, 403, 404) },
  },
  updateApplicationSecurity: {
    summary: 'Save application level security; ErrorCode 981 when the settings contradict each other.',
    tag: 'Site settings',
    versioned: 'if-match',
    query: siteQuery,
    body: applicationSecurityBody,
    responses: {
      200: applicationSecurityResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404),
    },
  },
  passwordSettings: {
    summary:
      'How a site hashes passwords (the defaults, Argon2id, until changed). The encryption key is never sent back.',
    tag: 'Site settings',
    versioned: 'etag',
    query: siteQuery,
    responses: { 200: encryptionSettingsResponse, ...errors(400, 401, 403, 404) },
  },
  previousPasswordSettings: {
    summary:
      'How a site hashes previous passwords; ErrorCode 1037 when it has no settings of their own (the console ignores it).',
    tag: 'Site settings',
    versioned: 'etag',
    query: siteQuery,
    responses: { 200: encryptionSettingsResponse, ...errors(400, 401, 403, 404) },
  },
  securityQuestionSettings: {
    summary: 'How a site hashes security answers; ErrorCode 1090 when not set (the console ignores it).',
    tag: 'Site settings',
    versioned: 'etag',
    query: siteQuery,
    responses: { 200: encryptionSettingsResponse, ...errors(400, 401, 403, 404) },
  },
  saveEncryptionSettings: {
    summary:
      'Save one set (password, previous-password, security-answer): encryption type, encodings, salt, per-password salt, iterations (PBKDF2), encryption key (HMAC; write-only), salt attach type.',
    tag: 'Site settings',
    versioned: 'if-match',
    query: siteQuery,
    body: saveEncryptionSettingsBody,
    responses: {
      200: encryptionSettingsResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404),
    },
  },
  encryptionPreview: {
    summary:
      'Hash a sample password with the chosen settings, with the real implementations, to show the stored form before saving.',
    tag: 'Site settings',
    query: siteQuery,
    body: previewBody,
    responses: { 200: previewResponse, ...errors(400, 401, 403, 404, 503) },
  },
  activeCustomFields: {
    summary:
      "A site's registration fields: the default ones (enabled or not) and its custom ones, with their rules.",
    tag: 'Site settings',
    versioned: 'etag',
    query: siteQuery,
    responses: { 200: activeFieldsResponse, ...errors(400, 401, 403, 404) },
  },
  customRegistrationDataList: {
    summary: "A site's data sources: option lists of dropdown fields, each with a parent and an item rule.",
    tag: 'Site settings',
    query: siteQuery,
    responses: { 200: dataSourcesResponse, ...errors(400, 401, 403, 404) },
  },
  addDataSource: {
    summary: 'Add a data source: name, parent name, a regex rule every item must match, and its items.',
    tag: 'Site settings',
    query: siteQuery,
    body: dataSourceBody,
    responses: {
      200: dataSourcesResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404, 409, 503),
    },
  },
  addCustomField: {
    summary: 'Add a custom registration field; its rules (pipe form) are checked when saved.',
    tag: 'Site settings',
    versioned: 'etag',
    query: siteQuery,
    body: customFieldBody,
    responses: {
      200: activeFieldsResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  saveDefaultFields: {
    summary: 'Enable or disable the default registration fields and set their rules.',
    tag: 'Site settings',
    versioned: 'if-match',
    query: siteQuery,
    body: defaultFieldsBody,
    responses: { 200: activeFieldsResponse.extend({ Message: z.string() }), ...errors(400, 401, 403, 404) },
  },
  integrations: {
    summary: "A site's integrations and their state.",
    tag: 'Site settings',
    query: integrationsQuery,
    responses: { 200: integrationsResponse, ...errors(400, 401, 403, 404) },
  },
} as const satisfies { readonly [I in EndpointId]: EndpointDetails & { readonly tag: EndpointTag } };

type Endpoints = { readonly [I in EndpointId]: (typeof ENDPOINT_ROUTES)[I] & (typeof DETAILS)[I] };

/**
 * The endpoint table: each route of ENDPOINT_ROUTES with its details. The API registers its routes
 * from it; OpenAPI and the docs page derive from it.
 */
export const ENDPOINTS: Endpoints = Object.fromEntries(
  (Object.keys(ENDPOINT_ROUTES) as EndpointId[]).map((id): [EndpointId, unknown] => [
    id,
    {
      ...ENDPOINT_ROUTES[id],
      ...DETAILS[id],
      responses: {
        ...guardErrors(ENDPOINT_ROUTES[id].method),
        ...DETAILS[id].responses,
        ...(versionedOf(DETAILS[id]) === 'if-match' ? errors(412) : {}),
      },
    },
  ]),
) as Endpoints;

function versionedOf(d: EndpointDetails) {
  return d.versioned;
}

/**
 * What the request guard may answer before any endpoint runs, so every endpoint declares it: 400
 * (no ajax marker, a body that is not JSON or is over 1 MB) and, for methods that carry a body,
 * 415 (a body that is not application/json).
 */
function guardErrors(method: string): Record<number, z.ZodType> {
  return method === 'GET' ? errors(400) : errors(400, 415);
}

export const ENDPOINT_LIST: readonly EndpointDef[] = Object.values(ENDPOINTS);

type Def<I extends EndpointId> = (typeof ENDPOINTS)[I];
export type BodyOf<I extends EndpointId> =
  Def<I> extends { body: z.ZodType } ? z.input<Def<I>['body']> : undefined;
export type QueryOf<I extends EndpointId> =
  Def<I> extends { query: z.ZodType } ? z.input<Def<I>['query']> : undefined;
export type ResponseOf<I extends EndpointId> = Def<I>['responses'] extends { 200: z.ZodType }
  ? z.output<Def<I>['responses'][200]>
  : never;
