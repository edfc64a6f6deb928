import {
  allowlistResponse,
  apiTokenListQuery,
  apiTokenListResponse,
  createApiTokenBody,
  createApiTokenResponse,
  createScimTokenBody,
  createScimTokenResponse,
  createServiceAccountBody,
  revokeApiTokenBody,
  revokeScimTokenBody,
  saveAllowlistBody,
  scimTokenListResponse,
  serviceAccountResponse,
} from './api-tokens.ts';
import { okResponse } from './auth.ts';
import { type DetailsPart, errors } from './endpoint-details.ts';

/** Summary, tag and schemas of the staff API tokens, service accounts and the address allowlist. */
export const TOKENS_DETAILS = {
  apiTokenList: {
    summary:
      "The caller's API tokens (never their secrets): permissions, allowed addresses, created, expires, last used and from where. `all=true`: every staff member's (SuperAdmins only).",
    tag: 'Authentication',
    query: apiTokenListQuery,
    responses: { 200: apiTokenListResponse, ...errors(400, 401, 403) },
  },
  apiTokenCreate: {
    summary:
      'Make an API token (Authorization: Bearer sac_…) with a name, an expiry of at most 90 days, permissions the caller holds, and optionally the addresses it may be used from. The token is answered once and kept only as a hash. A SuperAdmin may make one for a service account (OwnerUid). Not callable with a token.',
    tag: 'Authentication',
    body: createApiTokenBody,
    responses: { 200: createApiTokenResponse, ...errors(400, 401, 403, 404) },
  },
  apiTokenRevoke: {
    summary:
      "Revoke one of the caller's tokens (a SuperAdmin: anyone's); it is refused from its next call, on every instance.",
    tag: 'Authentication',
    body: revokeApiTokenBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
  serviceAccountCreate: {
    summary:
      'Make a service account (SuperAdmins only): a staff member with roles who never signs in and only owns API tokens. It shows in the team list, and deleting it ends its tokens.',
    tag: 'Team',
    body: createServiceAccountBody,
    responses: { 200: serviceAccountResponse, ...errors(400, 401, 403) },
  },
  addressAllowlist: {
    summary:
      "The addresses staff may sign in and call the API from (SuperAdmins only): CIDR entries, IPv4 and IPv6; none means everyone. Also answers the caller's address as the API sees it.",
    tag: 'Team',
    responses: { 200: allowlistResponse, ...errors(401, 403) },
  },
  addressAllowlistSave: {
    summary:
      "Replace the address allowlist (SuperAdmins only). A list that leaves out the caller's own address is refused (1111), so nobody locks themselves out by mistake.",
    tag: 'Team',
    body: saveAllowlistBody,
    responses: { 200: allowlistResponse, ...errors(400, 401, 403) },
  },
  scimTokenList: {
    summary:
      'The SCIM provisioning tokens (SuperAdmins only; never their secrets): name, made, last used and from where, revoked.',
    tag: 'Team',
    responses: { 200: scimTokenListResponse, ...errors(401, 403) },
  },
  scimTokenCreate: {
    summary:
      'Make a SCIM provisioning token (SuperAdmins only): `Authorization: Bearer scim_…` for an identity provider, good on /scim/v2 only. Answered once, kept only as a hash.',
    tag: 'Team',
    body: createScimTokenBody,
    responses: { 200: createScimTokenResponse, ...errors(400, 401, 403) },
  },
  scimTokenRevoke: {
    summary:
      'Revoke a SCIM provisioning token (SuperAdmins only): refused from its next call, on every instance.',
    tag: 'Team',
    body: revokeScimTokenBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
} as const satisfies DetailsPart;
