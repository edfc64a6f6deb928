import { z } from 'zod';
import { okResponse } from './auth.ts';
import {
  encryptionSettingsResponse,
  previewBody,
  previewResponse,
  saveEncryptionSettingsBody,
} from './encryption-settings.ts';
import { type DetailsPart, errors } from './endpoint-details.ts';
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

/** Summary, tag and schemas of the endpoints of a site's settings. */
export const SITE_SETTINGS_DETAILS = {
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
      'Custom domains of every site by name (sort=status: by status then name; sort=created: by when added then name; -key: the other way), 50 a page (limit up to 200), filtered by status: pending (awaiting verification), failing (verified, but the latest periodic re-check failed) or verified (and passing); pass NextCursor as cursor for the next page.',
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
} as const satisfies DetailsPart;
