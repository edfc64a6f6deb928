import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as webhooks from './webhooks.service.ts';

export function webhookRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.webhookList, () => webhooks.list(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.webhookCreate, (c) => webhooks.create(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.webhookUpdate, (c) => webhooks.update(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.webhookDelete, (c) => webhooks.remove(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.webhookPause, (c) => webhooks.pause(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.webhookResume, (c) => webhooks.resume(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.webhookRotateSecret, (c) => webhooks.rotate(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.webhookTest, (c) => webhooks.test(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.webhookDeliveries, (c) => webhooks.deliveries(ctx, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.webhookRedeliver, (c) => webhooks.redeliver(ctx, c, c.body));
}
