import { ENDPOINTS } from '@sac/contract/endpoints';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint, type StaffCall } from '../../lib/endpoint-route.ts';
import * as tokens from './api-tokens.service.ts';
import { superAdminOnly } from './approver-cool-down.ts';
import * as scimTokens from './scim-tokens.service.ts';

export function apiTokenRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.apiTokenList, (c) =>
    tokens.listApiTokens(ctx, c.session, c.query.all === 'true'),
  );
  registerEndpoint(app, ctx, ENDPOINTS.apiTokenCreate, (c) => tokens.createApiToken(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.apiTokenRevoke, (c) => tokens.revokeApiToken(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.serviceAccountCreate, (c) =>
    tokens.createServiceAccount(ctx, c, c.body),
  );
  // The SCIM provider's tokens, made and revoked by a SuperAdmin (Single sign-on screen).
  const superAdmin = (c: StaffCall) => {
    if (!c.session.roles.includes(ROLE_SUPER_ADMIN)) throw superAdminOnly();
    return { uid: c.session.uid, email: c.session.email, clientAddress: c.clientAddress };
  };
  registerEndpoint(app, ctx, ENDPOINTS.scimTokenList, (c) => {
    superAdmin(c);
    return scimTokens.listTokens(ctx);
  });
  registerEndpoint(app, ctx, ENDPOINTS.scimTokenCreate, (c) =>
    scimTokens.createToken(ctx, superAdmin(c), c.body.Name),
  );
  registerEndpoint(app, ctx, ENDPOINTS.scimTokenRevoke, (c) =>
    scimTokens.revokeToken(ctx, superAdmin(c), c.body.Id),
  );
  registerEndpoint(app, ctx, ENDPOINTS.addressAllowlist, (c) => tokens.addressAllowlist(ctx, c));
  registerEndpoint(app, ctx, ENDPOINTS.addressAllowlistSave, (c) =>
    tokens.saveAddressAllowlist(ctx, c, c.body.Entries),
  );
}
