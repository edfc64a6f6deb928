import { z } from 'zod';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  okResponse,
  resetPasswordBody,
} from './auth.ts';
import {
  addSiteBody,
  createCustomerBody,
  customerPasswordBody,
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
import { errorEnvelopeSchema } from './errors.ts';
import {
  consentBody,
  consentDetailsResponse,
  consentQuery,
  createImpersonationBody,
  customerRequestBody,
  editImpersonationBody,
  impersonationActionBody,
  impersonationActionQuery,
  impersonationActionResponse,
  impersonationListResponse,
  impersonationLogsResponse,
  impersonationOneResponse,
  logStatusQuery,
  requestIdQuery,
  siteAccessQuery,
  siteAccessResponse,
  statusQuery,
} from './impersonation-api.ts';
import {
  switchAppQuery,
  switchAppResponse,
  updateAccessQuery,
  updateAccessResponse,
} from './impersonation-session.ts';
import type { Permission } from './permissions.ts';
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

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint: anyone ('public'), anyone signed in ('session'), or a holder of one
 * permission of the matrix.
 */
export type Access = 'public' | 'session' | Permission;

export interface EndpointDef {
  /** Stable name, used by the console client and the authorization-matrix test. */
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly access: Access;
  readonly query?: z.ZodObject;
  /** The JSON body; DELETE calls carry theirs as data too, as spec section 7 says. */
  readonly body?: z.ZodType;
  /** The answer per HTTP status; every error status carries the error envelope. */
  readonly responses: Readonly<Record<number, z.ZodType>>;
  /**
   * Open to an impersonation session (account/switchapp) of the site named by the query's appId,
   * when the approved customer roles and additional permissions include `permission`. Calls
   * without this are refused to impersonation sessions.
   */
  readonly impersonation?: { readonly permission: string };
}

const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorEnvelopeSchema])) as Record<number, z.ZodType>;

export const sessionResponse = z.object({
  Email: z.string(),
  Name: z.string(),
  Role: z.array(z.string()),
  Permissions: z.array(z.string()),
  Uid: z.string(),
});

/** The endpoint table. The API registers its routes from it; OpenAPI and the client derive from it. */
export const ENDPOINTS = {
  login: {
    id: 'login',
    method: 'POST',
    path: '/admin/login',
    summary: 'Sign in with email and password; answers the session pair xtoken and xsign.',
    tag: 'Authentication',
    access: 'public',
    body: loginBody,
    responses: { 200: loginResponse, ...errors(400, 401, 429) },
  },
  logout: {
    id: 'logout',
    method: 'POST',
    path: '/admin/logout',
    summary: 'End the calling session on the server.',
    tag: 'Authentication',
    access: 'session',
    responses: { 200: okResponse, ...errors(401) },
  },
  session: {
    id: 'session',
    method: 'GET',
    path: '/admin/session',
    summary: 'The signed-in staff member, their roles and the permissions those grant.',
    tag: 'Authentication',
    access: 'session',
    responses: { 200: sessionResponse, ...errors(401) },
  },
  forgotPassword: {
    id: 'forgotPassword',
    method: 'POST',
    path: '/admin/forgotpassword',
    summary:
      'Mail a single-use reset link built on the console page `url` (an allowed console origin). Answers the same whether or not the email is known.',
    tag: 'Authentication',
    access: 'public',
    body: forgotPasswordBody,
    responses: { 200: okResponse, ...errors(400, 429) },
  },
  resetPassword: {
    id: 'resetPassword',
    method: 'PUT',
    path: '/admin/resetpassword',
    summary: 'Set a new password with the token of a reset link; ends every session of that user.',
    tag: 'Authentication',
    access: 'public',
    body: resetPasswordBody,
    responses: { 200: okResponse, ...errors(400) },
  },
  changePassword: {
    id: 'changePassword',
    method: 'PUT',
    path: '/admin/changepassword',
    summary: "Change the signed-in user's password; ends their other sessions.",
    tag: 'Authentication',
    access: 'session',
    body: changePasswordBody,
    responses: { 200: okResponse, ...errors(400, 401) },
  },
  teamList: {
    id: 'teamList',
    method: 'GET',
    path: '/admin/team',
    summary: 'Every super user: FullName, Email[0].Value, Roles, CreatedDate, LastLoginDate, Uid.',
    tag: 'Team',
    access: 'team.read',
    responses: { 200: teamListResponse, ...errors(401, 403) },
  },
  teamCreate: {
    id: 'teamCreate',
    method: 'POST',
    path: '/admin/team',
    summary:
      'Create a super user with the given roles (never SuperAdmin). The password is generated and never shown; the user is mailed a single-use invitation link (24 hours) to set their own.',
    tag: 'Team',
    access: 'team.write',
    body: createSuperUserBody,
    responses: { 200: superUserResponse, ...errors(400, 401, 403, 409) },
  },
  teamUpdateRoles: {
    id: 'teamUpdateRoles',
    method: 'PUT',
    path: '/admin/team/roles',
    summary:
      "Set a super user's roles to `role`, unassigning `unAssignRoles` (all roles not chosen). Ends the user's sessions. Nobody changes their own roles; the last SuperAdmin keeps the role.",
    tag: 'Team',
    access: 'team.write',
    body: updateRolesBody,
    responses: { 200: superUserResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamDelete: {
    id: 'teamDelete',
    method: 'DELETE',
    path: '/admin/team',
    summary:
      'Delete a super user and end their sessions. Nobody deletes themselves; the last SuperAdmin stays.',
    tag: 'Team',
    access: 'team.write',
    body: deleteSuperUserBody,
    responses: { 200: deleteSuperUserResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamRoles: {
    id: 'teamRoles',
    method: 'GET',
    path: '/admin/team/roles',
    summary: 'The staff roles, each with its description and permissions.',
    tag: 'Team',
    access: 'session',
    responses: { 200: teamRolesResponse, ...errors(401) },
  },
  teamProfile: {
    id: 'teamProfile',
    method: 'GET',
    path: '/admin/team/profile',
    summary:
      "A super user's profile, when the profile-access rule of spec section 6 lets the caller open it (anyone opens their own).",
    tag: 'Team',
    access: 'session',
    query: profileQuery,
    responses: { 200: superUserProfileResponse, ...errors(400, 401, 403, 404) },
  },
  searchCustomer: {
    id: 'searchCustomer',
    method: 'GET',
    path: '/admin/searchcustomer',
    summary:
      'Find customers by one criterion: customerName or sitename (case-insensitive substring from 3 characters, prefix below), emailid (prefix or exact, case-insensitive), apikey or apisecret (exact). At most 200 answers; Capped says when more match. ErrorCode 927 when nothing matches.',
    tag: 'Customers',
    access: 'customers.read',
    query: searchCustomerQuery,
    responses: { 200: searchCustomerResponse, ...errors(400, 401, 403, 404) },
  },
  customerProfile: {
    id: 'customerProfile',
    method: 'GET',
    path: '/admin/customerprofilebyuid',
    summary: "A customer's profile: names, emails, organization, phone, time zone, status and dates (UTC).",
    tag: 'Customers',
    access: 'customers.read',
    query: uidQuery,
    responses: { 200: customerProfileResponse, ...errors(400, 401, 403, 404) },
  },
  userProfile: {
    id: 'userProfile',
    method: 'GET',
    path: '/admin/userprofilebyuid',
    summary: "A customer's account: identity, creation date (UTC), time zone, last sign-in, site counts.",
    tag: 'Customers',
    access: 'customers.read',
    query: uidQuery,
    responses: { 200: userProfileResponse, ...errors(400, 401, 403, 404) },
  },
  loginSessions: {
    id: 'loginSessions',
    method: 'GET',
    path: '/admin/loginsessionbyuid',
    summary: "A customer's latest sign-ins: access type, browser, client address and location, UTC time.",
    tag: 'Customers',
    access: 'customers.read',
    query: uidQuery,
    responses: { 200: loginSessionsResponse, ...errors(400, 401, 403, 404) },
  },
  activityLogs: {
    id: 'activityLogs',
    method: 'GET',
    path: '/admin/activitylogs',
    summary:
      'Activity of and about a customer, newest first, 20 a page; pass NextCursor as cursor for older entries.',
    tag: 'Customers',
    access: 'activity.read',
    query: activityLogsQuery,
    responses: { 200: activityLogsResponse, ...errors(400, 401, 403, 404) },
  },
  customerApps: {
    id: 'customerApps',
    method: 'GET',
    path: '/admin/apps',
    summary: 'The sites a customer owns.',
    tag: 'Sites',
    access: 'sites.read',
    query: uidQuery,
    responses: { 200: sitesResponse, ...errors(400, 401, 403, 404) },
  },
  customerAllApps: {
    id: 'customerAllApps',
    method: 'GET',
    path: '/admin/allapps',
    summary: 'Every site a customer can reach: owned sites, then sites shared with them.',
    tag: 'Sites',
    access: 'sites.read',
    query: uidQuery,
    responses: { 200: sitesResponse, ...errors(400, 401, 403, 404) },
  },
  sharedApps: {
    id: 'sharedApps',
    method: 'GET',
    path: '/admin/sharedapps',
    summary:
      "The sites shared with a customer (a customer role on another customer's site), each with AppName and ApiKey.",
    tag: 'Sites',
    access: 'sites.read',
    query: uidQuery,
    responses: { 200: sitesResponse, ...errors(400, 401, 403, 404) },
  },
  appById: {
    id: 'appById',
    method: 'GET',
    path: '/admin/appbyid',
    summary: 'One site of a customer (owned or shared).',
    tag: 'Sites',
    access: 'sites.read',
    query: appByIdQuery,
    impersonation: { permission: 'ViewData' },
    responses: { 200: siteResponse, ...errors(400, 401, 403, 404) },
  },
  appInfoById: {
    id: 'appInfoById',
    method: 'GET',
    path: '/admin/appinfobyid',
    summary:
      'Everything about one site: plan, data center, database (a custom connection string masked), features, web apps.',
    tag: 'Sites',
    access: 'sites.read',
    query: appByIdQuery,
    impersonation: { permission: 'ViewData' },
    responses: { 200: siteInfoResponse, ...errors(400, 401, 403, 404) },
  },
  features: {
    id: 'features',
    method: 'GET',
    path: '/admin/features',
    summary: 'The catalogue of features and feature sets.',
    tag: 'Sites',
    access: 'sites.read',
    responses: { 200: featuresResponse, ...errors(401, 403) },
  },
  siteDataCenter: {
    id: 'siteDataCenter',
    method: 'GET',
    path: '/admin/site/datacenter',
    summary: "The data centers and global servers, and a site's current data center and database.",
    tag: 'Sites',
    access: 'sites.read',
    query: siteByUserQuery,
    impersonation: { permission: 'ViewData' },
    responses: { 200: siteDataCenterResponse, ...errors(400, 401, 403, 404) },
  },
  siteFeature: {
    id: 'siteFeature',
    method: 'GET',
    path: '/admin/site/feature',
    summary: "A site's features.",
    tag: 'Sites',
    access: 'sites.read',
    query: siteByUserQuery,
    impersonation: { permission: 'ViewData' },
    responses: { 200: siteFeaturesResponse, ...errors(400, 401, 403, 404) },
  },
  siteBasicSettings: {
    id: 'siteBasicSettings',
    method: 'GET',
    path: '/admin/site/basicsettings',
    summary: "A site's basic settings: name, web apps, plan and status.",
    tag: 'Sites',
    access: 'sites.read',
    query: siteBasicSettingsQuery,
    impersonation: { permission: 'ViewData' },
    responses: { 200: siteBasicSettingsResponse, ...errors(400, 401, 403, 404) },
  },
  customerRoles: {
    id: 'customerRoles',
    method: 'GET',
    path: '/admin/customer/roles',
    summary: 'The roles a customer can hold on a site, each with its Permissions.',
    tag: 'Sites',
    access: 'session',
    responses: { 200: customerRolesResponse, ...errors(401) },
  },
  createCustomer: {
    id: 'createCustomer',
    method: 'POST',
    path: '/admin/customer',
    summary:
      "Wizard step 1: create a customer and their first site. Answers the site's API secret once; only its hash is kept.",
    tag: 'Customers',
    access: 'customers.write',
    body: createCustomerBody,
    responses: { 200: customerCreatedResponse, ...errors(400, 401, 403, 409) },
  },
  updateCustomerProfile: {
    id: 'updateCustomerProfile',
    method: 'PUT',
    path: '/admin/customerprofile',
    summary: "Edit a customer's profile (phone and email rules of spec section 5).",
    tag: 'Customers',
    access: 'customers.write',
    query: uidQuery,
    body: updateCustomerProfileBody,
    responses: { 200: customerProfileResponse, ...errors(400, 401, 403, 404, 409) },
  },
  setCustomerPassword: {
    id: 'setCustomerPassword',
    method: 'PUT',
    path: '/admin/customer/password',
    summary: "Reset a customer's password to the one given (the password rule applies).",
    tag: 'Customers',
    access: 'customers.write',
    query: uidQuery,
    body: customerPasswordBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
  verifyEmail: {
    id: 'verifyEmail',
    method: 'POST',
    path: '/admin/verifyemail',
    summary: "Mark a customer's email address verified.",
    tag: 'Customers',
    access: 'customers.write',
    body: verifyEmailBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
  addSite: {
    id: 'addSite',
    method: 'POST',
    path: '/admin/site',
    summary: "Add a site to a customer (the add-site flow's first step). Answers the API secret once.",
    tag: 'Sites',
    access: 'sites.write',
    query: uidQuery,
    body: addSiteBody,
    responses: { 200: siteCreatedResponse, ...errors(400, 401, 403, 404, 409) },
  },
  updateSiteBasicSettings: {
    id: 'updateSiteBasicSettings',
    method: 'PUT',
    path: '/admin/site/basicsettings',
    summary: 'Wizard step 2 (Additional Site Information): web apps, plan and trial.',
    tag: 'Sites',
    access: 'sites.write',
    query: siteBasicSettingsQuery,
    body: siteBasicSettingsBody,
    impersonation: { permission: 'ManageSettings' },
    responses: { 200: siteBasicSettingsResponse, ...errors(400, 401, 403, 404) },
  },
  updateSiteFeatures: {
    id: 'updateSiteFeatures',
    method: 'PUT',
    path: '/admin/site/feature',
    summary:
      "Wizard step 3 (Set Features): a feature set's features, or those of another site of the customer.",
    tag: 'Sites',
    access: 'sites.write',
    query: siteByUserQuery,
    body: siteFeaturesBody,
    impersonation: { permission: 'ManageSettings' },
    responses: { 200: siteFeaturesResponse, ...errors(400, 401, 403, 404) },
  },
  updateSiteDataCenter: {
    id: 'updateSiteDataCenter',
    method: 'PUT',
    path: '/admin/site/datacenter',
    summary:
      "Wizard step 4 (Set Data Center & DB): copy an existing site's configuration, use a global server, or a custom database (its connection string is encrypted at rest).",
    tag: 'Sites',
    access: 'sites.write',
    query: siteByUserQuery,
    body: siteDataCenterBody,
    impersonation: { permission: 'ManageSettings' },
    responses: { 200: siteDataCenterResponse, ...errors(400, 401, 403, 404) },
  },
  setSiteStatus: {
    id: 'setSiteStatus',
    method: 'PUT',
    path: '/admin/site/status',
    summary: 'Activate or deactivate a site.',
    tag: 'Sites',
    access: 'sites.write',
    query: appByIdQuery,
    body: siteStatusBody,
    impersonation: { permission: 'ManageSite' },
    responses: { 200: siteResponse, ...errors(400, 401, 403, 404) },
  },
  impersonationCreate: {
    id: 'impersonationCreate',
    method: 'POST',
    path: '/admin/impersonation/requests',
    summary:
      "Ask for time-boxed access to a customer's site with customer roles and permissions. The site owner is mailed a single-use consent link; the SuperAdmin assignees are told.",
    tag: 'Impersonation',
    access: 'impersonation.request',
    body: createImpersonationBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationList: {
    id: 'impersonationList',
    method: 'GET',
    path: '/admin/impersonation/requests',
    summary:
      'Requests the caller made or is assigned (SuperAdmins: all), pending and unexpired approved first; optional status filter (Expired is derived).',
    tag: 'Impersonation',
    access: 'impersonation.request',
    query: statusQuery,
    responses: { 200: impersonationListResponse, ...errors(400, 401, 403) },
  },
  impersonationEdit: {
    id: 'impersonationEdit',
    method: 'PUT',
    path: '/admin/impersonation/request',
    summary: 'The requester edits their pending request.',
    tag: 'Impersonation',
    access: 'impersonation.request',
    query: requestIdQuery,
    body: editImpersonationBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationDelete: {
    id: 'impersonationDelete',
    method: 'DELETE',
    path: '/admin/impersonation/request',
    summary: 'The requester deletes their pending request.',
    tag: 'Impersonation',
    access: 'impersonation.request',
    query: requestIdQuery,
    responses: {
      200: z.object({ IsDeleted: z.boolean(), Id: z.number().int(), Message: z.string() }),
      ...errors(400, 401, 403, 404, 409),
    },
  },
  impersonationAction: {
    id: 'impersonationAction',
    method: 'POST',
    path: '/admin/impersonation/request/action',
    summary:
      "Approve (needs the customer's consent; roles and duration may be narrowed), reject, or revoke (revokeAction=site: all access; roles: the ProxyRoles and AdditionalPermissions given). Nobody decides their own request.",
    tag: 'Impersonation',
    access: 'impersonation.approve',
    query: impersonationActionQuery,
    body: impersonationActionBody,
    responses: { 200: impersonationActionResponse, ...errors(400, 401, 403, 404, 409) },
  },
  impersonationLogs: {
    id: 'impersonationLogs',
    method: 'GET',
    path: '/admin/impersonation/logs',
    summary: 'Every step of every impersonation request, newest first; optional status filter.',
    tag: 'Impersonation',
    access: 'impersonation.logs.read',
    query: logStatusQuery,
    responses: { 200: impersonationLogsResponse, ...errors(400, 401, 403) },
  },
  customerRequestsList: {
    id: 'customerRequestsList',
    method: 'GET',
    path: '/admin/impersonation/customer/requests',
    summary: 'Requests opened on behalf of customers who asked for help, by modified date, newest first.',
    tag: 'Impersonation',
    access: 'impersonation.request',
    responses: { 200: impersonationListResponse, ...errors(401, 403) },
  },
  customerRequestsCreate: {
    id: 'customerRequestsCreate',
    method: 'POST',
    path: '/admin/impersonation/customer/requests',
    summary:
      "A customer asks for help: authenticated with their site's API key and secret (headers apikey and apisecret), the request carries its own consent and goes to the SuperAdmins. The SuperAdmin who approves it is the one who may use it.",
    tag: 'Impersonation',
    access: 'public',
    body: customerRequestBody,
    responses: {
      200: impersonationOneResponse.extend({ Message: z.string() }),
      ...errors(400, 401, 409),
    },
  },
  siteAccess: {
    id: 'siteAccess',
    method: 'GET',
    path: '/admin/impersonation/site-access',
    summary:
      "The owner's view of every impersonation request and step on their site, from the link in the consent email.",
    tag: 'Impersonation',
    access: 'public',
    query: siteAccessQuery,
    responses: { 200: siteAccessResponse, ...errors(400) },
  },
  consentDetails: {
    id: 'consentDetails',
    method: 'GET',
    path: '/admin/impersonation/consent',
    summary: 'What a consent link asks: for the public consent page the site owner opens from the email.',
    tag: 'Impersonation',
    access: 'public',
    query: consentQuery,
    responses: { 200: consentDetailsResponse, ...errors(400) },
  },
  consentAnswer: {
    id: 'consentAnswer',
    method: 'POST',
    path: '/admin/impersonation/consent',
    summary:
      'The site owner allows or denies a request; recorded with time and client address; the link then stops working.',
    tag: 'Impersonation',
    access: 'public',
    body: consentBody,
    responses: { 200: okResponse, ...errors(400, 409) },
  },
  updateAccess: {
    id: 'updateAccess',
    method: 'GET',
    path: '/admin/updateaccess',
    summary:
      "The caller's live access to a customer's site: their approved, consented, unexpired impersonation grant (roles, permissions, expiry), or 403.",
    tag: 'Impersonation',
    access: 'impersonation.request',
    query: updateAccessQuery,
    responses: { 200: updateAccessResponse, ...errors(400, 401, 403) },
  },
  switchApp: {
    id: 'switchApp',
    method: 'GET',
    path: '/account/switchapp',
    summary:
      "Open an impersonation session on a site the caller holds a live grant for: a new xtoken/xsign pair that reaches only that site's calls, within the approved customer roles and permissions, until the grant expires or is revoked. Every call of it is logged.",
    tag: 'Impersonation',
    access: 'impersonation.request',
    query: switchAppQuery,
    responses: { 200: switchAppResponse, ...errors(400, 401, 403) },
  },
} as const satisfies Record<string, EndpointDef>;

export type EndpointId = keyof typeof ENDPOINTS;
export const ENDPOINT_LIST: readonly EndpointDef[] = Object.values(ENDPOINTS);

type Def<I extends EndpointId> = (typeof ENDPOINTS)[I];
export type BodyOf<I extends EndpointId> =
  Def<I> extends { body: z.ZodType } ? z.input<Def<I>['body']> : undefined;
export type QueryOf<I extends EndpointId> =
  Def<I> extends { query: z.ZodType } ? z.input<Def<I>['query']> : undefined;
export type ResponseOf<I extends EndpointId> = Def<I>['responses'] extends { 200: z.ZodType }
  ? z.output<Def<I>['responses'][200]>
  : never;
