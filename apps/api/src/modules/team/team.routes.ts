import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import * as customRoles from './custom-roles.service.ts';
import * as team from './team.service.ts';

export function teamRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.teamList, () => team.list(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.teamRoles, () => team.roles(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.teamCreate, (c) =>
    team.create(ctx, c, { ...c.body, origin: c.request.headers.origin }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.teamUpdateRoles, (c) => team.updateRoles(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.teamDelete, (c) => team.remove(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.customRoleCreate, (c) => customRoles.create(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.customRoleUpdate, (c) => customRoles.update(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.customRoleDelete, (c) => customRoles.remove(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.teamProfile, (c) => team.profile(ctx, c.session, c.query.uid));
}
