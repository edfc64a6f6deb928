import { z } from 'zod';
import { CUSTOM_OBJECT_SIZE_MAX_MB, CUSTOM_OBJECT_SIZE_MIN_MB } from './constants.ts';
import { MESSAGES } from './messages.ts';

/** The site's query of the configuration calls (spec section 7: uid, appId). */
export const siteQuery = z.object({
  uid: z.string().uuid('uid is not a valid customer id.'),
  appId: z.coerce.number().int().positive('appId must be a number.'),
});

// ---------------------------------------------------------------------------------------------
// Custom objects (spec section 5)

export const CUSTOM_OBJECT_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Schema text: non-empty, valid JSON ('Custom Object Schema is empty.' / 'Invalid JSON input.'). */
export const schemaText = z
  .string({ error: MESSAGES.customObjectSchemaEmpty })
  .trim()
  .min(1, { error: MESSAGES.customObjectSchemaEmpty, abort: true })
  .refine((v) => {
    try {
      const parsed = JSON.parse(v);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  }, MESSAGES.customObjectSchemaInvalid);

export const customObjectSize = z
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
  Sample: z.string().trim().min(1, 'Enter a sample object.'),
});

export const customObject = z.object({
  Id: z.string(),
  Name: z.string(),
  SizeMB: z.number().int(),
  Schema: z.string(),
  CreatedDate: z.string(),
  ModifiedDate: z.string(),
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
export const dnsRecord = z.object({ Type: z.enum(['CNAME', 'TXT']), Name: z.string(), Value: z.string() });
export const customDomain = z.object({
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
