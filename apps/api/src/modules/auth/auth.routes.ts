import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint, signedIn } from '../../lib/endpoint-route.ts';
import * as auth from './auth.service.ts';

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.login, (c) => auth.login(ctx, c, c.body.email, c.body.password));
  registerEndpoint(app, ctx, ENDPOINTS.logout, (c) => auth.logout(ctx, c, signedIn(c)));
  registerEndpoint(app, ctx, ENDPOINTS.session, async (c) => auth.sessionInfo(signedIn(c)));
  registerEndpoint(app, ctx, ENDPOINTS.forgotPassword, (c) =>
    auth.forgotPassword(ctx, c, c.body.email, c.body.url),
  );
  registerEndpoint(app, ctx, ENDPOINTS.resetPassword, (c) =>
    auth.resetPassword(ctx, c, c.body.password, c.body.resettoken),
  );
  registerEndpoint(app, ctx, ENDPOINTS.changePassword, (c) =>
    auth.changePassword(ctx, c, signedIn(c), c.body.oldpassword, c.body.newpassword),
  );
}
