import { z } from 'zod';
import { CUSTOM_OBJECT_SIZE_MAX_MB, CUSTOM_OBJECT_SIZE_MIN_MB } from './constants.ts';
import {
  JSON_LIMIT_MESSAGES,
  jsonNesting,
  SAMPLE_MAX_CHARS,
  SAMPLE_MAX_DEPTH,
  SCHEMA_MAX_CHARS,
  SCHEMA_MAX_DEPTH,
} from './json-limits.ts';
import { DOMAIN_SORT_KEYS, sortQueryField } from './list-sort.ts';
import { MESSAGES } from './messages.ts';
import { decimalInteger } from './validation.ts';

/** The site's query of the configuration calls (spec section 7: uid, appId). */
export const siteQuery = z.object({
  uid: z.string().uuid('uid is not a valid customer id.'),
  appId: decimalInteger(z.number().int().positive('appId must be a number.')),
});

// ---------------------------------------------------------------------------------------------
// Custom objects (spec section 5)

const CUSTOM_OBJECT_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * Schema text: non-empty, valid JSON ('Custom Object Schema is empty.' / 'Invalid JSON input.'),
 * within the size and depth bounds, which are checked before it is parsed.
 */
const schemaText = z
  .string({ error: MESSAGES.customObjectSchemaEmpty })
  .trim()
  .min(1, { error: MESSAGES.customObjectSchemaEmpty, abort: true })
  .max(SCHEMA_MAX_CHARS, { error: JSON_LIMIT_MESSAGES.schemaTooLong, abort: true })
  .refine((v) => jsonNesting(v, SCHEMA_MAX_DEPTH) <= SCHEMA_MAX_DEPTH, {
    error: JSON_LIMIT_MESSAGES.schemaTooDeep,
    abort: true,
  })
  .refine((v) => {
    try {
      const parsed = JSON.parse(v);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  }, MESSAGES.customObjectSchemaInvalid);

const customObjectSize = z
  .string({ error: MESSAGES.customObjectSizeNumeric })
  .trim()
  .regex(/^\d+$/, { error: MESSAGES.customObjectSizeNumeric, abort: true })
  .transform(Number)
  .refine(
    (n) => n >= CUSTOM_OBJECT_SIZE_MIN_MB && n <= CUSTOM_OBJECT_SIZE_MAX_MB,
    MESSAGES.customObjectSizeRange,
  );

/** POST /admin/customobject?uid=&appId= */
export const createCustomObjectBody = z.object({
  Id: z
    .string({ error: 'Id is required.' })
    .trim()
    .min(1, { error: 'Id is required.', abort: true })
    .max(64, 'Id must be at most 64 characters.')
    .regex(CUSTOM_OBJECT_ID_PATTERN, MESSAGES.customObjectIdChars),
  Name: z.string().trim().min(1, 'Name is required.').max(100, 'Name must be at most 100 characters.'),
  SizeMB: z.union([z.number(), z.string()]).transform(String).pipe(customObjectSize),
  Schema: schemaText,
});

/** DELETE /admin/customobject?uid=&appId= {objId} */
export const deleteCustomObjectBody = z.object({ objId: z.string().trim().min(1, 'objId is required.') });

/** PUT /admin/customobject/schema?uid=&appId= {objId, Schema} */
export const setCustomObjectSchemaBody = z.object({
  objId: z.string().trim().min(1, 'objId is required.'),
  Schema: schemaText,
});

/** POST /admin/customobject/validate?uid=&appId=: check a sample object against a schema before saving. */
export const validateCustomObjectBody = z.object({
  Schema: schemaText,
  Sample: z
    .string()
    .trim()
    .min(1, 'Enter a sample object.')
    .max(SAMPLE_MAX_CHARS, { error: JSON_LIMIT_MESSAGES.sampleTooLong, abort: true })
    .refine((v) => jsonNesting(v, SAMPLE_MAX_DEPTH) <= SAMPLE_MAX_DEPTH, JSON_LIMIT_MESSAGES.sampleTooDeep),
});

const customObject = z.object({
  Id: z.string(),
  Name: z.string(),
  SizeMB: z.number().int(),
  Schema: z.string(),
  CreatedDate: z.string(),
  ModifiedDate: z.string(),
  /** The schema's version: a schema edit sends it back as If-Match ("7"). */
  Version: z.number().int(),
});
export const customObjectsResponse = z.object({ Data: z.array(customObject) });
export const customObjectResponse = z.object({ Data: customObject, Message: z.string() });
export const customObjectValidationResponse = z.object({
  Valid: z.boolean(),
  Errors: z.array(z.object({ Path: z.string(), Message: z.string() })),
});

// ---------------------------------------------------------------------------------------------
// Custom domains

/** A hostname of at least two labels, lower-cased; no scheme, port or path. */
export const DOMAIN_PATTERN = /^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const domainBody = z.object({
  domain: z
    .string({ error: MESSAGES.domainNameRequired })
    .trim()
    .toLowerCase()
    .min(1, { error: MESSAGES.customDomainEmpty, abort: true })
    .regex(DOMAIN_PATTERN, 'Please enter a domain name such as login.example.com.'),
});

export const DOMAIN_STATUSES = ['Pending Verification', 'Verified'] as const;
const dnsRecord = z.object({ Type: z.enum(['CNAME', 'TXT']), Name: z.string(), Value: z.string() });
const customDomain = z.object({
  Domain: z.string(),
  Status: z.enum(DOMAIN_STATUSES),
  /** What the customer sets at their DNS provider. */
  Records: z.array(dnsRecord),
  LastCheckedAt: z.string().nullable(),
  /** Why the last check did not verify, in plain words. */
  LastCheckResult: z.string().nullable(),
  VerifiedAt: z.string().nullable(),
});
export const customDomainsResponse = z.object({ Data: z.array(customDomain) });
export const customDomainResponse = z.object({ Data: customDomain, Message: z.string() });
export const hubDomainResponse = z.object({ Data: z.object({ HubDomain: z.string() }) });

/** The cross-site list of custom domains (GET /admin/customdomains): what it may be filtered to. */
export const DOMAIN_LIST_FILTERS = ['pending', 'failing', 'verified'] as const;
export type DomainListFilter = (typeof DOMAIN_LIST_FILTERS)[number];
export const DOMAIN_LIST_PAGE_SIZE = 50;
const DOMAIN_LIST_PAGE_MAX = 200;
const DOMAIN_LIMIT_MESSAGE = `limit must be a whole number from 1 to ${DOMAIN_LIST_PAGE_MAX}.`;
const DOMAIN_CURSOR_MESSAGE = 'cursor is not a cursor of this list.';
export const customDomainsAllQuery = z.object({
  /** pending: awaiting verification; failing: verified, but the latest re-check failed; verified: and passing. */
  status: z.enum(DOMAIN_LIST_FILTERS, { error: 'status must be pending, failing or verified.' }).optional(),
  /** NextCursor of the previous page, as answered. */
  cursor: z
    .string()
    .max(400, DOMAIN_CURSOR_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, DOMAIN_CURSOR_MESSAGE)
    .optional(),
  limit: decimalInteger(
    z
      .number({ error: DOMAIN_LIMIT_MESSAGE })
      .int(DOMAIN_LIMIT_MESSAGE)
      .min(1, DOMAIN_LIMIT_MESSAGE)
      .max(DOMAIN_LIST_PAGE_MAX, DOMAIN_LIMIT_MESSAGE),
  ).optional(),
  /**
   * `domain` A to Z (the default), `status` (Pending Verification before Verified, then by name),
   * `created` (oldest first, then by name); `-` before a key turns it round.
   */
  sort: sortQueryField(DOMAIN_SORT_KEYS),
});
export const customDomainsAllResponse = z.object({
  Data: z.array(
    z.object({
      Domain: z.string(),
      AppId: z.number().int(),
      AppName: z.string(),
      /** The site owner's uid: the site's configuration is reached through it. */
      OwnerUid: z.string(),
      Status: z.enum(DOMAIN_STATUSES),
      CreatedAt: z.string(),
      LastCheckedAt: z.string().nullable(),
      LastCheckResult: z.string().nullable(),
      VerifiedAt: z.string().nullable(),
      /** A verified domain whose latest re-check failed: since when; null otherwise. */
      FailingSince: z.string().nullable(),
    }),
  ),
  /** Pass as `cursor` for the next page; null on the last page. */
  NextCursor: z.string().nullable(),
});

/** The TXT record's name for a domain: a label under the domain the customer controls. */
export const verificationRecordName = (domain: string): string => `_sac-verification.${domain}`;

export const SETTINGS_MESSAGES = {
  customObjectSaved: 'Custom object saved.',
  customObjectRemoved: 'Custom object removed.',
  schemaSet: 'Schema set.',
  customObjectExists: 'A custom object with this Id already exists.',
  customDomainSaved: 'Custom domain saved.',
  customDomainDeleted: 'Custom domain deleted.',
  customDomainVerified: 'Custom domain verified.',
  customDomainExists: 'This domain is already bound to a site.',
} as const;

// ---------------------------------------------------------------------------------------------
// App settings: plan info and web apps

const appSettings = z.object({
  AppName: z.string(),
  Plan: z.enum(['Free', 'Developer', 'Developer Premium']),
  PlanStatus: z.enum(['Trial', 'Subscribed']),
  TrialEndsAt: z.string().nullable(),
  Billing: z.string(),
  ProductionUrl: z.string(),
  StagingUrl: z.string(),
});
export const appSettingsResponse = z.object({ Data: appSettings });
const webAppUrl = z
  .string()
  .trim()
  .optional()
  .default('')
  .refine(
    (v) =>
      v === '' ||
      /^(https?:\/\/)?([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?\.)+[a-zA-Z0-9-]+(:\d{1,5})?(\/\S*)?$/.test(v),
    'Please enter a valid URL.',
  );
/** PUT /admin/appsettings?uid=&appId= {data}: the web apps (the plan is set by the site form). */
export const appSettingsBody = z.object({
  data: z.object({ ProductionUrl: webAppUrl, StagingUrl: webAppUrl }),
});

// ---------------------------------------------------------------------------------------------
// Application level security

export const SIGN_IN_MODES = ['Required', 'Optional'] as const;
export const MFA_MODES = ['Off', 'Optional', 'Required'] as const;
/** HH:mm, 24-hour. */
const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export const applicationSecurity = z.object({
  /** Required (strict): users must verify their email before signing in; Optional (preferred): they may sign in first. */
  SignInMode: z.enum(SIGN_IN_MODES),
  MfaMode: z.enum(MFA_MODES),
  PasswordMinLength: decimalInteger(
    z.number().int().min(6, 'At least 6 characters.').max(64, 'At most 64 characters.'),
  ),
  /** Failed sign-ins before a lockout; 0 turns lockout off. */
  MaxFailedLogins: decimalInteger(z.number().int().min(0).max(50, 'At most 50.')),
  LockoutMinutes: decimalInteger(z.number().int().min(0).max(1440, 'At most 1,440 minutes (a day).')),
  SessionTimeoutMinutes: decimalInteger(
    z.number().int().min(5, 'At least 5 minutes.').max(43_200, 'At most 43,200 minutes.'),
  ),
  /** Time of day (UTC, HH:mm) the daily security report is sent; '' for none. */
  SecurityReportTime: z
    .string()
    .trim()
    .refine((v) => v === '' || TIME_OF_DAY_PATTERN.test(v), 'Please choose a time of day.'),
});
export type ApplicationSecurity = z.infer<typeof applicationSecurity>;
export const APPLICATION_SECURITY_DEFAULTS: ApplicationSecurity = {
  SignInMode: 'Optional',
  MfaMode: 'Optional',
  PasswordMinLength: 8,
  MaxFailedLogins: 5,
  LockoutMinutes: 15,
  SessionTimeoutMinutes: 1440,
  SecurityReportTime: '',
};
export const applicationSecurityResponse = z.object({ Data: applicationSecurity, ModifiedDate: z.string() });
export const applicationSecurityBody = z.object({ data: applicationSecurity });
export const SECURITY_981_TEXT =
  'Account lockout needs a lockout time: set Lockout minutes, or set Failed sign-ins to 0.';
export const SETTINGS_SAVED = 'Settings saved.';
