import { consolePaths } from '@sac/contract/console-paths';
import { HEADERS } from '@sac/contract/constants';
import { ENDPOINTS } from '@sac/contract/endpoints';
import {
  CUSTOMER_AUTH_HEADERS,
  IMPERSONATION_EXPORTS_AT_ONCE,
  IMPERSONATION_MESSAGES,
} from '@sac/contract/impersonation-api';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { exportLimiter } from '../../lib/export-limiter.ts';
import * as breakGlass from './break-glass.service.ts';
import * as consent from './impersonation-consent.service.ts';
import * as exports from './impersonation-exports.service.ts';
import * as opening from './impersonation-opening.service.ts';
import * as reads from './impersonation-reads.service.ts';
import * as imp from './impersonation-requests.service.ts';
import * as sessions from './impersonation-sessions.ts';
import * as siteAccess from './site-access.service.ts';

const headerOf = (headers: Record<string, unknown>, name: string) =>
  typeof headers[name] === 'string' ? (headers[name] as string) : undefined;
const originOf = (headers: Record<string, unknown>) => headerOf(headers, 'origin');

/** Sends an export: its row count ahead (x-export-rows), as an attachment, CSV. */
function sendFile(reply: FastifyReply, file: exports.ExportFile) {
  reply
    .header(HEADERS.exportRows, String(file.rows))
    .header('Content-Disposition', `attachment; filename="${file.filename}"`)
    .type('text/csv; charset=utf-8');
  return file.body as never;
}

export function impersonationRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The two lists' exports share one limit (the audit trail's exports have their own).
  const exportsAtOnce = exportLimiter(IMPERSONATION_EXPORTS_AT_ONCE, IMPERSONATION_MESSAGES.exportBusy);
  registerEndpoint(app, ctx, ENDPOINTS.impersonationCreate, (c) =>
    opening.create(ctx, c, { ...c.body, origin: originOf(c.request.headers) }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationList, (c) => reads.list(ctx, c.session, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.impersonationApprovers, () => imp.approvers(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.impersonationReasons, () => reads.reasonSettings(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.breakGlassOptions, (c) => breakGlass.options(ctx, c));
  registerEndpoint(app, ctx, ENDPOINTS.breakGlassOpen, (c) =>
    breakGlass.open(ctx, c, { ...c.body, origin: originOf(c.request.headers) }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.breakGlassReviewClose, (c) => breakGlass.close(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.breakGlassReviews, (c) => breakGlass.reviewList(ctx, c, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.impersonationTakenRoles, (c) =>
    imp.takenRoles(ctx, c.query.appId, c.query.exceptId),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationEdit, (c) => imp.edit(ctx, c, { ...c.query, ...c.body }));
  registerEndpoint(app, ctx, ENDPOINTS.impersonationDelete, (c) => imp.remove(ctx, c, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.impersonationAction, (c) =>
    imp.act(ctx, c, { ...c.query, body: c.body }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationLogs, (c) => reads.logs(ctx, c.session, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.impersonationRequestsExport, async (c) =>
    sendFile(c.reply, await exports.exportRequests(ctx, c, { ...c.query, release: exportsAtOnce.take() })),
  );
  registerEndpoint(app, ctx, ENDPOINTS.impersonationLogsExport, async (c) =>
    sendFile(c.reply, await exports.exportLogs(ctx, c, { ...c.query, release: exportsAtOnce.take() })),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customerRequestsList, (c) =>
    reads.list(ctx, c.session, c.query, true),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customerRequestsCreate, (c) =>
    opening.customerRequest(ctx, c, {
      ...c.body,
      apiKey: headerOf(c.request.headers, CUSTOMER_AUTH_HEADERS.apiKey),
      apiSecret: headerOf(c.request.headers, CUSTOMER_AUTH_HEADERS.apiSecret),
      origin: originOf(c.request.headers),
    }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.siteAccess, (c) => siteAccess.siteAccess(ctx, c, c.query));
  // Owners' exports stream a site's whole log: two at once per instance, as the staff's.
  const ownerExportsAtOnce = exportLimiter(IMPERSONATION_EXPORTS_AT_ONCE);
  registerEndpoint(app, ctx, ENDPOINTS.siteAccessExport, async (c) => {
    const release = ownerExportsAtOnce.take();
    let file: Awaited<ReturnType<typeof siteAccess.siteAccessExport>>;
    try {
      file = await siteAccess.siteAccessExport(ctx, c, c.query);
    } catch (e) {
      release();
      throw e;
    }
    file.body.once('close', release);
    c.reply
      .header(HEADERS.exportRows, String(file.rows))
      .header('Content-Disposition', `attachment; filename="${file.filename}"`)
      .header('Cache-Control', 'no-store')
      .type(c.query.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
    return file.body as never;
  });
  registerEndpoint(app, ctx, ENDPOINTS.siteAccessFeed, async (c) => {
    const pageUrl = consolePageFor(ctx.config, originOf(c.request.headers), consolePaths.siteAccess());
    pageUrl.searchParams.set('token', c.query.token);
    const selfUrl = new URL(ENDPOINTS.siteAccessFeed.path, `${c.request.protocol}://${c.request.host}`);
    selfUrl.searchParams.set('token', c.query.token);
    const { entries, feed } = await siteAccess.siteAccessFeed(ctx, c, {
      token: c.query.token,
      pageUrl: pageUrl.toString(),
      selfUrl: selfUrl.toString(),
    });
    c.reply
      .header(HEADERS.exportRows, String(entries))
      .header('Cache-Control', 'no-store')
      .type('application/atom+xml; charset=utf-8');
    return feed as never;
  });
  registerEndpoint(app, ctx, ENDPOINTS.consentDetails, (c) => consent.consentDetails(ctx, c, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.consentAnswer, (c) => consent.answerConsent(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.updateAccess, (c) => sessions.updateAccess(ctx, c, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.switchApp, (c) => sessions.switchApp(ctx, c, c.query));
}
