import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint, signedIn } from '../../lib/endpoint-route.ts';
import { approverStanding } from './approver-cool-down.ts';
import * as auth from './auth.service.ts';
import * as sessions from './staff-sessions.service.ts';

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.login, (c) => auth.login(ctx, c, c.body.email, c.body.password));
  registerEndpoint(app, ctx, ENDPOINTS.logout, (c) => auth.logout(ctx, c, signedIn(c)));
  registerEndpoint(app, ctx, ENDPOINTS.session, async (c) => {
    const session = signedIn(c);
    // Whether the approval cool-down of a new SuperAdmin still holds them back, for the console to say so.
    const approver = session.permissions.has('impersonation.approve')
      ? await approverStanding(ctx.db, session.uid, ctx.clock.now(), ctx.config.approverCoolDownMs)
      : { canApproveFrom: null };
    return {
      ...auth.sessionInfo(session),
      CanApproveImpersonationFrom: approver.canApproveFrom?.toISOString() ?? null,
    };
  });
  registerEndpoint(app, ctx, ENDPOINTS.forgotPassword, (c) =>
    auth.forgotPassword(ctx, c, c.body.email, c.body.url),
  );
  registerEndpoint(app, ctx, ENDPOINTS.resetPassword, (c) =>
    auth.resetPassword(ctx, c, c.body.password, c.body.resettoken),
  );
  registerEndpoint(app, ctx, ENDPOINTS.mySessions, (c) => sessions.mySessions(ctx, signedIn(c)));
  registerEndpoint(app, ctx, ENDPOINTS.endMySessions, (c) =>
    sessions.endMySessions(ctx, c, signedIn(c), c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.staffSessions, (c) =>
    sessions.staffSessions(ctx, signedIn(c), c.query.uid),
  );
  registerEndpoint(app, ctx, ENDPOINTS.endStaffSessions, (c) =>
    sessions.endStaffSessions(ctx, c, signedIn(c), c.body.uid, c.body.Id),
  );
  registerEndpoint(app, ctx, ENDPOINTS.changePassword, (c) =>
    auth.changePassword(ctx, c, signedIn(c), c.body.oldpassword, c.body.newpassword),
  );
}
