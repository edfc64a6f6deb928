import { z } from 'zod';
import { loginResponse } from './auth.ts';

/**
 * Single sign-on for staff through an OpenID Connect provider (issue 33, item 1): what the sign-in
 * screen reads, the two calls of a sign-in (start: the provider's address; finish: the code the
 * provider sent back, answered as a password sign-in is), and the SuperAdmin's settings.
 */

/** The console page the provider sends the browser back to (the redirect URI's path). */
export const SSO_CALLBACK_PATH = '/sso/callback';
/** A pending sign-in (state, nonce, PKCE verifier) lives this long. */
export const SSO_STATE_TTL_MINUTES = 10;
const SSO_LIMITS = {
  name: 60,
  url: 500,
  clientId: 255,
  clientSecret: 1000,
  claim: 100,
  value: 200,
  values: 20,
  groupRoles: 200,
  code: 2048,
  state: 100,
} as const;

/** GET /admin/login/sso: what the sign-in screen shows. */
export const ssoSignInOptions = z.object({
  /** Set up and switched on: the screen shows "Sign in with <Name>". */
  Enabled: z.boolean(),
  Name: z.string(),
  /** Off: the screen shows the provider's button alone (the break-glass account still may sign in). */
  PasswordSignIn: z.boolean(),
});

/**
 * The provider's authorization address, and the binder: a secret the console keeps in the tab's
 * session storage and gives back with the code, so a code and state started in another browser
 * (a sign-in forced on someone) is refused. Only its hash is stored, with the state.
 */
export const ssoStartResponse = z.object({ Url: z.string(), Binder: z.string() });

/** POST /admin/login/sso/finish: the query the provider sent the browser back with. */
export const ssoFinishBody = z.object({
  Code: z.string().trim().min(1, 'Code is required').max(SSO_LIMITS.code),
  State: z
    .string()
    .trim()
    .min(1, 'State is required')
    .max(SSO_LIMITS.state)
    .regex(/^[A-Za-z0-9_-]+$/, 'State is not valid'),
  Binder: z
    .string()
    .trim()
    .min(1, 'Binder is required')
    .max(SSO_LIMITS.state)
    .regex(/^[A-Za-z0-9_-]+$/, 'Binder is not valid'),
});
export const ssoFinishResponse = loginResponse;

const groupRole = z.object({
  Group: z.string().trim().min(1, 'Group is required').max(SSO_LIMITS.value),
  Role: z.string().trim().min(1, 'Role is required').max(SSO_LIMITS.claim),
});

const claimName = z
  .string()
  .trim()
  .min(1, 'Groups claim is required')
  .max(SSO_LIMITS.claim)
  .regex(/^[A-Za-z0-9_.:/-]+$/, 'Groups claim is a claim name (letters, digits, _ . : / -)');

/** GET /admin/sso-settings (the client secret is never answered, only whether one is set). */
export const ssoSettingsResponse = z.object({
  Enabled: z.boolean(),
  Name: z.string(),
  Issuer: z.string(),
  ClientId: z.string(),
  ClientSecretSet: z.boolean(),
  GroupsClaim: z.string(),
  CreateOnFirstSignIn: z.boolean(),
  /** amr or acr values of the provider that count as the second factor (none: the local one applies). */
  SecondFactorValues: z.array(z.string()),
  PasswordSignIn: z.boolean(),
  BreakGlassEmail: z.string().nullable(),
  GroupRoles: z.array(z.object({ Group: z.string(), Role: z.string() })),
  /** The address to register at the provider as the redirect URI. */
  RedirectUri: z.string(),
});

/** PUT /admin/sso-settings: ClientSecret empty or absent keeps the stored one. */
export const ssoSettingsBody = z.object({
  Enabled: z.boolean(),
  Name: z.string().trim().max(SSO_LIMITS.name),
  Issuer: z.string().trim().max(SSO_LIMITS.url),
  ClientId: z.string().trim().max(SSO_LIMITS.clientId),
  ClientSecret: z.string().max(SSO_LIMITS.clientSecret).optional(),
  GroupsClaim: claimName,
  CreateOnFirstSignIn: z.boolean(),
  SecondFactorValues: z.array(z.string().trim().min(1).max(SSO_LIMITS.value)).max(SSO_LIMITS.values),
  PasswordSignIn: z.boolean(),
  BreakGlassEmail: z.string().trim().max(254).nullable(),
  GroupRoles: z.array(groupRole).max(SSO_LIMITS.groupRoles),
});

/** POST /admin/sso-settings/test: fetches the issuer's discovery document and its keys. */
export const ssoTestBody = z.object({
  Issuer: z.string().trim().min(1, 'Issuer is required').max(SSO_LIMITS.url),
});
export const ssoTestResponse = z.object({
  Ok: z.boolean(),
  /** What is wrong, in words, when not Ok. */
  Problem: z.string().nullable(),
  AuthorizationEndpoint: z.string().nullable(),
  Keys: z.number().int(),
});
