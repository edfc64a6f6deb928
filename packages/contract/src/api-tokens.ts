import { z } from 'zod';
import type { EndpointId } from './endpoint-routes.ts';
import { PERMISSIONS } from './permissions.ts';

/**
 * Staff API tokens (docs/decisions.md: "Staff API tokens") and the staff address allowlist. A
 * token is sent as `Authorization: Bearer sac_…`; the prefix lets secret scanners find a leaked one.
 */
export const API_TOKEN_PREFIX = 'sac_';
/** The longest a token may live. */
export const API_TOKEN_MAX_DAYS = 90;
const API_TOKEN_NAME_MAX = 100;
/** Allowed addresses of one token, and entries of the allowlist. */
const ADDRESS_ENTRIES_MAX = 100;

export const API_TOKEN_MESSAGES = {
  tooWide: 'A token may hold only permissions you hold yourself.',
  tokenCall: 'An API token cannot make this call: sign in to the console.',
  addressRefused: 'This token may not be used from your address.',
  notFound: 'There is no such token.',
  notService: 'Tokens are made for yourself, or by a SuperAdmin for a service account.',
  expiry: `A token expires within ${API_TOKEN_MAX_DAYS} days.`,
  revoked: 'The token was revoked.',
} as const;

export const ALLOWLIST_MESSAGES = {
  lockOut: (address: string) =>
    `This list does not include your current address (${address}): saving it would lock you out. Add your address first.`,
  entry: 'Each entry is an IPv4 or IPv6 address or a CIDR range, such as 203.0.113.0/24 or 2001:db8::/32.',
  saved: 'The address allowlist was saved.',
} as const;

/**
 * An address or CIDR range as typed: a bounded length and the characters of an address only (no
 * pattern that can backtrack); the API parses it strictly (net.isIP and the prefix length).
 */
const cidrEntry = z
  .string()
  .trim()
  .min(1, ALLOWLIST_MESSAGES.entry)
  .max(64, ALLOWLIST_MESSAGES.entry)
  .regex(/^[0-9A-Fa-f:.]+(\/[0-9]{1,3})?$/, ALLOWLIST_MESSAGES.entry);

const addressList = z.array(cidrEntry).max(ADDRESS_ENTRIES_MAX, `At most ${ADDRESS_ENTRIES_MAX} entries.`);

/** POST /admin/api-tokens */
export const createApiTokenBody = z.object({
  Name: z.string().trim().min(1, 'Name is required.').max(API_TOKEN_NAME_MAX, 'Name is too long.'),
  /** Days until it expires, 1 to 90. */
  ExpiresInDays: z
    .number()
    .int()
    .min(1, API_TOKEN_MESSAGES.expiry)
    .max(API_TOKEN_MAX_DAYS, API_TOKEN_MESSAGES.expiry),
  Permissions: z.array(z.enum(PERMISSIONS)).max(PERMISSIONS.length),
  AllowedAddresses: addressList.optional(),
  /** A service account's uid (SuperAdmins only); the caller's own token when left out. */
  OwnerUid: z.string().uuid('OwnerUid is not a valid user id.').optional(),
});

const apiToken = z.object({
  Id: z.number().int(),
  Name: z.string(),
  OwnerUid: z.string(),
  OwnerEmail: z.string(),
  /** The owner is a service account. */
  Service: z.boolean(),
  Permissions: z.array(z.string()),
  AllowedAddresses: z.array(z.string()),
  CreatedAt: z.string(),
  ExpiresAt: z.string(),
  /** Written at most once a minute per token, so a little behind. */
  LastUsedAt: z.string().nullable(),
  LastUsedAddress: z.string().nullable(),
  RevokedAt: z.string().nullable(),
});
export type ApiTokenInfo = z.infer<typeof apiToken>;

/** The new token with its secret: the only time the secret is shown. */
export const createApiTokenResponse = z.object({ Token: z.string(), Data: apiToken });

/** GET /admin/api-tokens: mine; `all=true` every staff member's (SuperAdmins). */
export const apiTokenListQuery = z.object({ all: z.enum(['true', 'false']).optional() });
export const apiTokenListResponse = z.object({ Data: z.array(apiToken) });

/** DELETE /admin/api-tokens */
export const revokeApiTokenBody = z.object({ Id: z.number().int().positive() });

/** POST /admin/team/service-accounts (SuperAdmins) */
export const createServiceAccountBody = z.object({
  Name: z.string().trim().min(1, 'Name is required.').max(API_TOKEN_NAME_MAX, 'Name is too long.'),
  Roles: z.array(z.string().min(1).max(100)).min(1, 'Choose at least one role.').max(20),
});
export const serviceAccountResponse = z.object({ Uid: z.string(), Email: z.string() });

/** GET and PUT /admin/address-allowlist */
export const allowlistResponse = z.object({
  Entries: z.array(z.string()),
  /** The caller's address as the API sees it (behind the configured proxies). */
  YourAddress: z.string(),
});
export const saveAllowlistBody = z.object({ Entries: addressList });

/**
 * What a token may never call, whatever its permissions (decisions.md): its owner's sign-in
 * (password, factors, a step-up, sessions, signing out), a colleague's factors and sessions, tokens, the
 * allowlist, single sign-on and provisioning (SCIM) settings, impersonation sessions, and the console's live stream.
 */
export const NOT_FOR_TOKENS: readonly EndpointId[] = [
  'logout',
  'changePassword',
  'mySessions',
  'endMySessions',
  'myFactors',
  'totpEnrolStart',
  'totpEnrolConfirm',
  'totpRemove',
  'passkeyOptions',
  'passkeyAdd',
  'passkeyRename',
  'passkeyRemove',
  'recoveryCodesRenew',
  'stepUpStatus',
  'stepUpPasskeyOptions',
  'stepUp',
  'staffFactorsReset',
  'staffSessions',
  'endStaffSessions',
  'switchApp',
  'staffNotificationStream',
  'apiTokenList',
  'apiTokenCreate',
  'apiTokenRevoke',
  'serviceAccountCreate',
  'addressAllowlist',
  'addressAllowlistSave',
  'ssoSettings',
  'ssoSettingsUpdate',
  'ssoTest',
  'scimTokenList',
  'scimTokenCreate',
  'scimTokenRevoke',
];

/**
 * The SCIM provider's tokens (docs/operations.md, "Provisioning (SCIM)"): `Authorization: Bearer
 * scim_…`, good on /scim/v2 only; made and revoked by a SuperAdmin on the Single sign-on screen.
 */
export const SCIM_TOKEN_PREFIX = 'scim_';
const scimTokenInfo = z.object({
  Id: z.number().int(),
  Name: z.string(),
  CreatedAt: z.string(),
  LastUsedAt: z.string().nullable(),
  LastUsedAddress: z.string().nullable(),
  RevokedAt: z.string().nullable(),
});
export type ScimTokenInfo = z.infer<typeof scimTokenInfo>;
export const scimTokenListResponse = z.object({ Data: z.array(scimTokenInfo) });
export const createScimTokenBody = z.object({
  Name: z.string().trim().min(1, 'Name is required.').max(API_TOKEN_NAME_MAX, 'Name is too long.'),
});
export const createScimTokenResponse = z.object({ Token: z.string(), Data: scimTokenInfo });
export const revokeScimTokenBody = z.object({ Id: z.number().int().positive() });
export const SCIM_TOKEN_MESSAGES = {
  notFound: 'There is no live SCIM token with that id.',
  revoked: 'The SCIM token was revoked.',
} as const;
