import type { EndpointRoute } from './endpoint-routes.ts';

/** Method, path and access of the staff API tokens, service accounts and the address allowlist. */
export const TOKENS_ROUTES = {
  apiTokenList: {
    id: 'apiTokenList',
    method: 'GET',
    path: '/admin/api-tokens',
    access: 'session',
  },
  apiTokenCreate: {
    id: 'apiTokenCreate',
    method: 'POST',
    path: '/admin/api-tokens',
    access: 'session',
    stepUp: true,
  },
  apiTokenRevoke: {
    id: 'apiTokenRevoke',
    method: 'DELETE',
    path: '/admin/api-tokens',
    access: 'session',
  },
  // SuperAdmins only: the service checks the role (team.write alone is not enough).
  serviceAccountCreate: {
    id: 'serviceAccountCreate',
    method: 'POST',
    path: '/admin/team/service-accounts',
    access: 'team.write',
    stepUp: true,
  },
  // SuperAdmins only, as the service checks.
  addressAllowlist: {
    id: 'addressAllowlist',
    method: 'GET',
    path: '/admin/address-allowlist',
    access: 'team.write',
  },
  addressAllowlistSave: {
    id: 'addressAllowlistSave',
    method: 'PUT',
    path: '/admin/address-allowlist',
    access: 'team.write',
    stepUp: true,
  },
  // The SCIM provider's tokens: SuperAdmins only, as the service checks.
  scimTokenList: {
    id: 'scimTokenList',
    method: 'GET',
    path: '/admin/scim-tokens',
    access: 'team.write',
  },
  scimTokenCreate: {
    id: 'scimTokenCreate',
    method: 'POST',
    path: '/admin/scim-tokens',
    access: 'team.write',
    stepUp: true,
  },
  scimTokenRevoke: {
    id: 'scimTokenRevoke',
    method: 'DELETE',
    path: '/admin/scim-tokens',
    access: 'team.write',
  },
} as const satisfies Record<string, EndpointRoute>;
