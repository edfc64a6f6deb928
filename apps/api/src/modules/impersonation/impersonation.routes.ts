import { ENDPOINTS } from '@sac/contract/endpoints';
import { CUSTOMER_AUTH_HEADERS } from '@sac/contract/impersonation-api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint, signedIn } from '../../lib/endpoint-route.ts';
import { expectedVersionOf } from '../../lib/record-version.ts';
import * as consent from './impersonation-consent.service.ts';
import * as imp from './impersonation-requests.service.ts';
import * as sessions from './impersonation-sessions.ts';
import * as siteAccess from './site-access.service.ts';

const headerOf = (headers: Record<string, unknown>, name: string) =>
  typeof headers[name] === 'string' ? (headers[name] as string) : undefined;
const originOf = (headers: Record<string, unknown>) => headerOf(headers, 'origin');

export function impersonationRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.impersonationCreate, (c) =>
    imp.create(ctx, c, signedIn(c), c.body, originOf(c.request.headers)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationList, (c) => imp.list(ctx, signedIn(c), c.query));
  registerEndpoint(app, ctx, ENDPOINTS.impersonationApprovers, () => imp.approvers(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.impersonationTakenRoles, (c) =>
    imp.takenRoles(ctx, c.query.appId, c.query.exceptId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationEdit, (c) =>
    imp.edit(ctx, c, signedIn(c), c.query.requestId, c.body, expectedVersionOf(c.request)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationDelete, (c) =>
    imp.remove(ctx, c, signedIn(c), c.query.requestId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationAction, (c) =>
    imp.act(ctx, c, signedIn(c), c.query.requestId, c.query.revokeAction, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationLogs, (c) => imp.logs(ctx, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.customerRequestsList, (c) =>
    imp.list(ctx, signedIn(c), c.query, true),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customerRequestsCreate, (c) =>
    imp.customerRequest(
      ctx,
      c,
      headerOf(c.request.headers, CUSTOMER_AUTH_HEADERS.apiKey),
      headerOf(c.request.headers, CUSTOMER_AUTH_HEADERS.apiSecret),
      c.body,
      originOf(c.request.headers),
    ),
  );
  registerEndpoint(app, ctx, ENDPOINTS.siteAccess, (c) => siteAccess.siteAccess(ctx, c.query.token));
  registerEndpoint(app, ctx, ENDPOINTS.consentDetails, (c) => consent.consentDetails(ctx, c.query.token));
  registerEndpoint(app, ctx, ENDPOINTS.consentAnswer, (c) =>
    consent.answerConsent(ctx, c, c.body.token, c.body.granted),
  );
  registerEndpoint(app, ctx, ENDPOINTS.updateAccess, (c) =>
    sessions.updateAccess(ctx, signedIn(c), c.query.appId, c.query.userId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.switchApp, (c) =>
    sessions.switchApp(ctx, c, signedIn(c), c.query.appid),
  );
}
