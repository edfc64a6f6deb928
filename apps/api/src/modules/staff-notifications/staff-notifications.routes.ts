import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as notifications from './staff-notifications.service.ts';
import { streamHub } from './staff-notifications.stream.ts';

export function staffNotificationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const hub = streamHub(ctx, {
    perUser: ctx.config.staffStreamsPerUser,
    max: ctx.config.staffStreamsMax,
    heartbeatMs: ctx.config.streamHeartbeatMs,
  });
  // Before the server waits for requests under way: an open stream would hold a shutdown to its timeout.
  app.addHook('preClose', async () => hub.endAll());
  app.addHook('onClose', async () => hub.close());
  registerEndpoint(app, ctx, ENDPOINTS.staffNotifications, (c) =>
    notifications.list(ctx, c.session, c.query),
  );
  registerEndpoint(app, ctx, ENDPOINTS.staffNotificationsRead, (c) => notifications.markRead(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.staffNotificationPreferences, (c) =>
    notifications.preferences(ctx, c.session),
  );
  registerEndpoint(app, ctx, ENDPOINTS.staffNotificationPreferencesSave, (c) =>
    notifications.savePreferences(ctx, c, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.staffNotificationStream, async (c) => {
    await hub.open(c.request, c.reply, c.session);
    return c.reply as never;
  });
}
