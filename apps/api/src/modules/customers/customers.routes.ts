import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as customers from './customers.service.ts';

export function customerRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.searchCustomer, (c) => customers.search(ctx, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.customerProfile, (c) => customers.profile(ctx, c.query.uid));
  registerEndpoint(app, ctx, ENDPOINTS.userProfile, (c) => customers.account(ctx, c.query.uid));
  registerEndpoint(app, ctx, ENDPOINTS.loginSessions, (c) => customers.loginSessions(ctx, c.query.uid));
  registerEndpoint(app, ctx, ENDPOINTS.activityLogs, (c) =>
    customers.activity(ctx, c.query.uid, c.query.cursor),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customerApps, (c) => customers.apps(ctx, c.query.uid, 'owned'));
  registerEndpoint(app, ctx, ENDPOINTS.customerAllApps, (c) => customers.apps(ctx, c.query.uid, 'all'));
  registerEndpoint(app, ctx, ENDPOINTS.sharedApps, (c) => customers.apps(ctx, c.query.uid, 'shared'));
  registerEndpoint(app, ctx, ENDPOINTS.appById, (c) => customers.appById(ctx, c.query.uId, c.query.appId));
  registerEndpoint(app, ctx, ENDPOINTS.appInfoById, (c) =>
    customers.appInfoById(ctx, c.query.uId, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.features, () => customers.features(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.siteDataCenter, (c) =>
    customers.siteDataCenter(ctx, c.query.userId, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.siteFeature, (c) =>
    customers.siteFeatures(ctx, c.query.userId, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.siteBasicSettings, (c) =>
    customers.siteBasicSettings(ctx, c.query.uID, c.query.appId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customerRoles, () => customers.customerRoles(ctx));
}
