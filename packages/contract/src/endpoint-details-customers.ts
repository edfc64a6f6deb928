import { okResponse } from './auth.ts';
import { searchCustomerExportQuery, searchCustomerExportResponse } from './customer-export.ts';
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
import { type DetailsPart, errors } from './endpoint-details.ts';
import { siteQuery } from './site-settings.ts';

/** Summary, tag and schemas of the endpoints of customers, their accounts and their sites. */
export const CUSTOMERS_DETAILS = {
  searchCustomer: {
    summary:
      'Find customers by one criterion: customerName (case-insensitive; the exact name first, then names starting with the term, then names holding it, from 3 characters), sitename (substring from 3 characters, prefix below), emailid (prefix or exact, case-insensitive), phone (digits with an optional leading +, separators ignored; exact or prefix), uid, apikey or apisecret (exact). 50 customers an answer, in a stable order (name, then uid, within each rank); sort=name, created or modified (- first for descending: -created) orders every match by the customer name, CreatedDate or ModifiedDate instead, ties by uid. Pass NextCursor as cursor, with the same criterion and sort, for the next 50, through every match (a cursor of another sort or criterion is 400). Total counts the matches exactly up to Limit (1,000); Capped says more match. A site-name search looks at 200 customers at most. ErrorCode 927 when nothing matches.',
    tag: 'Customers',
    query: searchCustomerQuery,
    responses: { 200: searchCustomerResponse, ...errors(400, 401, 403, 404) },
  },
  searchCustomerExport: {
    summary:
      "Every customer a search matches as CSV (same criterion fields and sort as the search, no cursor), in the list's order, streamed: columns Uid, Customer Name, Email, Status, Role, Created Date, Modified Date. The x-export-rows header says how many rows follow the header line. At most 50,000 customers (else 400: narrow the search); two exports at once per instance (else 429). With `uids` (a selection of the search's bulk bar, at most 200, comma-separated), only those of the matches, in the same order and columns. Recorded in the audit trail (customers.export) with the criterion, sort and row count (and `selection`, how many uids were asked for), not the term.",
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
} as const satisfies DetailsPart;
