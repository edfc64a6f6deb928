import { ACCESS_REVIEW_EXPORTS_AT_ONCE, ACCESS_REVIEW_MESSAGES } from '@sac/contract/access-review';
import { HEADERS } from '@sac/contract/constants';
import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { exportLimiter } from '../../lib/export-limiter.ts';
import * as review from './access-review.service.ts';
import * as customRoles from './custom-roles.service.ts';
import * as team from './team.service.ts';
import * as invitations from './team-invitations.service.ts';

export function teamRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.teamList, () => team.list(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.teamRoles, () => team.roles(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.teamCreate, (c) =>
    team.create(ctx, c, { ...c.body, origin: c.request.headers.origin }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.teamUpdateRoles, (c) => team.updateRoles(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.teamDelete, (c) => team.remove(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.teamResendInvitation, (c) =>
    invitations.resend(ctx, c, { uid: c.body.uid, origin: c.request.headers.origin }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.customRoleCreate, (c) => customRoles.create(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.customRoleUpdate, (c) => customRoles.update(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.customRoleDelete, (c) => customRoles.remove(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.teamReviewDecide, (c) => review.decide(ctx, c, c.body));
  const exportsAtOnce = exportLimiter(ACCESS_REVIEW_EXPORTS_AT_ONCE, ACCESS_REVIEW_MESSAGES.exportBusy);
  registerEndpoint(app, ctx, ENDPOINTS.teamReviewExport, async (c) => {
    const file = await review.exportReview(ctx, c, exportsAtOnce.take());
    c.reply
      .header(HEADERS.exportRows, String(file.rows))
      .header('Content-Disposition', `attachment; filename="${file.filename}"`)
      .type('text/csv; charset=utf-8');
    return file.body as never;
  });
  registerEndpoint(app, ctx, ENDPOINTS.teamProfile, (c) => team.profile(ctx, c.session, c.query.uid));
}
