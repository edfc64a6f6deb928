import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as tokens from './api-tokens.service.ts';

export function apiTokenRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.apiTokenList, (c) =>
    tokens.listApiTokens(ctx, c.session, c.query.all === 'true'),
  );
  registerEndpoint(app, ctx, ENDPOINTS.apiTokenCreate, (c) => tokens.createApiToken(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.apiTokenRevoke, (c) => tokens.revokeApiToken(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.serviceAccountCreate, (c) =>
    tokens.createServiceAccount(ctx, c, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.addressAllowlist, (c) => tokens.addressAllowlist(ctx, c));
  registerEndpoint(app, ctx, ENDPOINTS.addressAllowlistSave, (c) =>
    tokens.saveAddressAllowlist(ctx, c, c.body.Entries),
  );
}
