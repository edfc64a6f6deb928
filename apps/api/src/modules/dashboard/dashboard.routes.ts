import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as dashboard from './dashboard.service.ts';

export function dashboardRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.dashboard, (c) => dashboard.dashboard(ctx, c.session));
  registerEndpoint(app, ctx, ENDPOINTS.trialsEnding, (c) =>
    dashboard.trialsEndingList(ctx, c.query, c.session.scope),
  );
  // Views still in memory are written before the database is closed (server.ts closes it after the app).
  app.addHook('onClose', () => dashboard.flushCustomerViews(ctx).catch(() => {}));
}
