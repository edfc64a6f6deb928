import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as bulk from './bulk.service.ts';

export function bulkRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.bulkDryRun, (c) => bulk.dryRun(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.bulkRequestsDryRun, (c) => bulk.dryRun(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.bulkSessionsDryRun, (c) => bulk.dryRun(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.bulkInvitationsDryRun, (c) => bulk.dryRun(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.bulkCustomersDryRun, (c) => bulk.dryRun(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.bulkRun, (c) => bulk.runJob(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.bulkApprove, (c) => bulk.approveJob(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.bulkCancel, (c) => bulk.cancelJob(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.bulkUndo, (c) => bulk.undoJob(ctx, c, c.body.Id));
  registerEndpoint(app, ctx, ENDPOINTS.bulkJob, (c) => bulk.readJob(ctx, c, c.query.id, c.query.after));
}
