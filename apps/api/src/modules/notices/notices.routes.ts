import { consolePaths } from '@sac/contract/console-paths';
import { ENDPOINTS } from '@sac/contract/endpoints';
import { unsubscribeQuery } from '@sac/contract/notices';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as notices from './notices.service.ts';

export function noticesRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.noticeList, (c) =>
    notices.listNotices(ctx, c.session, c.query.cursor),
  );
  registerEndpoint(app, ctx, ENDPOINTS.noticeCreate, (c) => notices.createNotice(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.noticeRecipients, (c) =>
    notices.countRecipients(ctx, c.session, c.body.Audience),
  );
  registerEndpoint(app, ctx, ENDPOINTS.noticeAudienceOptions, (c) => notices.audienceOptions(ctx, c.session));
  registerEndpoint(app, ctx, ENDPOINTS.noticeSiteOptions, (c) =>
    notices.siteOptions(ctx, c.session, c.query.term),
  );
  registerEndpoint(app, ctx, ENDPOINTS.noticeOne, (c) => notices.oneNotice(ctx, c.session, c.query.id));
  registerEndpoint(app, ctx, ENDPOINTS.noticeDeliveries, (c) =>
    notices.noticeDeliveries(ctx, c.session, c.query),
  );
  registerEndpoint(app, ctx, ENDPOINTS.noticeCancel, (c) => notices.cancelNotice(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.noticeUnsubscribeDetails, (c) =>
    notices.unsubscribeDetails(ctx, c.query.token),
  );
  registerEndpoint(app, ctx, ENDPOINTS.noticeUnsubscribe, (c) => notices.unsubscribe(ctx, c, c.query));

  /*
   * RFC 8058 one-click unsubscribe: a mail client posts `List-Unsubscribe=One-Click` as a form to
   * the List-Unsubscribe address of an announcement. It cannot carry the ajax marker, so the door
   * lies outside /admin (like /csp-report); the signed token is its only credential, and it is
   * counted under the same per-address budget as the console's unsubscribe calls.
   */
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, body, done) => done(null, String(body)),
    );
    // A client that opens the List-Unsubscribe address instead is shown the console's page.
    scope.get(notices.ONE_CLICK_PATH, async (request, reply) => {
      const q = unsubscribeQuery.safeParse(request.query);
      const page = consolePageFor(ctx.config, undefined, consolePaths.unsubscribe());
      if (q.success) page.searchParams.set('token', q.data.token);
      return reply.redirect(page.toString(), 303);
    });
    scope.post(notices.ONE_CLICK_PATH, { bodyLimit: 1024 }, async (request, reply) => {
      await ctx.addressLimits.take('noticeUnsubscribe', request.ip, ctx.clock.now());
      const q = unsubscribeQuery.safeParse(request.query);
      if (!q.success)
        return reply.code(400).type('text/plain; charset=utf-8').send('This unsubscribe link is not valid.');
      const caller = {
        session: undefined,
        clientAddress: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
      };
      await notices.unsubscribe(ctx, caller, q.data);
      return reply.code(200).type('text/plain; charset=utf-8').send('Unsubscribed from announcements.');
    });
  });
}
