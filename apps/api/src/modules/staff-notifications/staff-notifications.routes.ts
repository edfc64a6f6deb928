import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint, signedIn } from '../../lib/endpoint-route.ts';
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
    notifications.list(ctx, signedIn(c), c.query),
  );
  registerEndpoint(app, ctx, ENDPOINTS.staffNotificationsRead, (c) =>
    notifications.markRead(ctx, signedIn(c), c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.staffNotificationPreferences, (c) =>
    notifications.preferences(ctx, signedIn(c)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.staffNotificationPreferencesSave, (c) =>
    notifications.savePreferences(ctx, c, signedIn(c), c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.staffNotificationStream, async (c) => {
    await hub.open(c.request, c.reply, signedIn(c));
    return c.reply as never;
  });
}
