import { AUDIT_EXPORTS_AT_ONCE } from '@sac/contract/audit';
import { HEADERS } from '@sac/contract/constants';
import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { exportLimiter } from '../../lib/export-limiter.ts';
import * as audit from './audit.service.ts';
import { trailStreamStatus } from './trail-stream.service.ts';

export function auditRoutes(app: FastifyInstance, ctx: AppContext): void {
  const exports = exportLimiter(AUDIT_EXPORTS_AT_ONCE);
  registerEndpoint(app, ctx, ENDPOINTS.auditEvents, (c) => audit.listTrail(ctx, c.query));
  registerEndpoint(app, ctx, ENDPOINTS.auditSigningKey, async () => audit.signingKey(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.auditStream, async () => trailStreamStatus(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.auditExport, async (c) => {
    const { format, sort, ...filters } = c.query;
    const file = await audit.exportTrail(ctx, c, c.session, filters, format, exports.take(), sort);
    c.reply
      .header(HEADERS.exportRows, String(file.rows))
      .header('Content-Disposition', `attachment; filename="${file.filename}"`)
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    return file.body as never;
  });
}
