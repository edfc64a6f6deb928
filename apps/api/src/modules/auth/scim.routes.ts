import { SCIM_TOKEN_PREFIX } from '@sac/contract/api-tokens';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { isUniqueViolation } from '../../db/db.ts';
import { addressAllowed } from '../../lib/address-allowlist.ts';
import { AppError } from '../../lib/app-error.ts';
import { currentAllowlist, findLiveScimToken, recordScimTokenUses } from './api-tokens.repo.ts';
import * as scim from './scim.service.ts';
import type { ScimCaller } from './scim-common.ts';
import { listResponse } from './scim-common.ts';
import { ScimError } from './scim-filter.ts';
import * as groups from './scim-groups.service.ts';
import { resourceTypes, schemas, serviceProviderConfig, URN } from './scim-schema.ts';
import { TokenUses } from './token-uses.ts';

const MEDIA = 'application/scim+json; charset=utf-8';
/** The address limit SCIM calls count under (ADDRESS_LIMITS.scim): per address, and per token apart. */
const SCIM_LIMIT = 'scim';

const errorBody = (status: number, detail: string, scimType?: string) => ({
  schemas: [URN.error],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

const send = (reply: FastifyReply, status: number, body: unknown) =>
  reply.code(status).header('content-type', MEDIA).send(JSON.stringify(body));

/** The SCIM error (RFC 7644 §3.12) of anything a SCIM call throws. */
function scimError(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof ScimError)
    return send(reply, err.status, errorBody(err.status, err.message, err.scimType));
  // two creations racing past the "taken?" check: the unique index decides, the loser is told so
  if (isUniqueViolation(err))
    return send(reply, 409, errorBody(409, 'That userName or displayName is taken.', 'uniqueness'));
  // the address budget (429, with when to try again) and the staff allowlist (403) keep their status
  if (err instanceof AppError && (err.status === 429 || err.status === 403)) {
    if (err.retryAfterSeconds) reply.header('retry-after', String(err.retryAfterSeconds));
    return send(reply, err.status, errorBody(err.status, err.message));
  }
  if (err instanceof AppError && err.status < 500)
    return send(reply, 400, errorBody(400, err.message, 'invalidSyntax'));
  const status = (err as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    const syntax = err instanceof SyntaxError || (err as FastifyError).code?.startsWith('FST_ERR_CTP');
    return send(
      reply,
      status,
      errorBody(
        status,
        syntax ? 'The body is not valid JSON.' : err.message,
        syntax ? 'invalidSyntax' : undefined,
      ),
    );
  }
  request.log.error({ err }, 'unhandled SCIM error');
  return send(reply, 500, errorBody(500, 'Something went wrong on our side.'));
}

/**
 * The SCIM bearer token of a call, or its refusal: past the address's budget (429, counted before
 * anything else, so a flood of guessed tokens costs one counter each), from an address the staff
 * allowlist leaves out (403: the allowlist holds for every way in), no live token (401: a staff
 * token, a session pair, nothing, a revoked one), past the token's own budget (429).
 */
async function scimCaller(ctx: AppContext, uses: TokenUses, request: FastifyRequest): Promise<ScimCaller> {
  await ctx.addressLimits.take(SCIM_LIMIT, request.ip, ctx.clock.now());
  if (!addressAllowed(await currentAllowlist(ctx.db), request.ip)) throw new AppError('addressNotAllowed');
  const v = request.headers.authorization;
  const bearer =
    typeof v === 'string' && v.length <= 200 && v.slice(0, 7).toLowerCase() === 'bearer '
      ? v.slice(7).trim()
      : '';
  const token = bearer.startsWith(SCIM_TOKEN_PREFIX) ? await findLiveScimToken(ctx.db, bearer) : undefined;
  if (!token) throw new ScimError(401, 'A live SCIM token is needed (Authorization: Bearer scim_…).');
  await ctx.addressLimits.take(SCIM_LIMIT, `scim-token:${token.id}`, ctx.clock.now());
  uses.note(token.id, ctx.clock.now(), request.ip);
  const origin = `${request.protocol}://${request.host}`;
  return { token, clientAddress: request.ip, base: origin };
}

type Params = { id: string };
type Query = { filter?: string; startIndex?: string; count?: string };

/**
 * SCIM 2.0 (RFC 7644) at /scim/v2, beside the console's endpoint table (docs/decisions.md,
 * "SCIM beside the endpoint table"): its own media type, errors and credential, in an
 * encapsulated plugin so the console's guard and error envelope are left as they are. The writes
 * go through the write path with a trail row each (scim.service.ts).
 */
export function scimRoutes(app: FastifyInstance, ctx: AppContext): void {
  const uses = new TokenUses(ctx.db, recordScimTokenUses);
  app.addHook('onClose', async () => uses.flush().catch(() => {}));
  void app.register(
    async (s) => {
      s.addContentTypeParser(
        'application/scim+json',
        { parseAs: 'string', bodyLimit: 1_048_576 },
        (_r, body, done) => {
          try {
            done(null, String(body).trim() === '' ? undefined : JSON.parse(String(body)));
          } catch {
            done(new ScimError(400, 'The body is not valid JSON.', 'invalidSyntax'), undefined);
          }
        },
      );
      s.setErrorHandler(scimError);
      s.setNotFoundHandler((_req, reply) =>
        send(reply, 404, errorBody(404, 'There is no such SCIM resource.')),
      );
      s.decorateRequest('scim', null);
      s.addHook('onRequest', async (request) => {
        (request as unknown as { scim: ScimCaller }).scim = await scimCaller(ctx, uses, request);
      });
      const callerOf = (r: FastifyRequest) => (r as unknown as { scim: ScimCaller }).scim;

      s.get('/ServiceProviderConfig', async (r, reply) =>
        send(reply, 200, serviceProviderConfig(callerOf(r).base)),
      );
      s.get('/ResourceTypes', async (r, reply) => {
        const list = resourceTypes(callerOf(r).base);
        return send(reply, 200, listResponse(list.length, 1, list));
      });
      s.get<{ Params: Params }>('/ResourceTypes/:id', async (r, reply) => {
        const one = resourceTypes(callerOf(r).base).find((t) => t.id === r.params.id);
        if (!one) throw new ScimError(404, 'There is no such resource type.');
        return send(reply, 200, one);
      });
      s.get('/Schemas', async (r, reply) => {
        const list = schemas(callerOf(r).base);
        return send(reply, 200, listResponse(list.length, 1, list));
      });
      s.get<{ Params: Params }>('/Schemas/:id', async (r, reply) => {
        const one = schemas(callerOf(r).base).find((t) => t.id === r.params.id);
        if (!one) throw new ScimError(404, 'There is no such schema.');
        return send(reply, 200, one);
      });

      s.get<{ Querystring: Query }>('/Users', async (r, reply) =>
        send(reply, 200, await scim.listUsers(ctx, callerOf(r), r.query)),
      );
      s.get<{ Params: Params }>('/Users/:id', async (r, reply) =>
        send(reply, 200, await scim.getUser(ctx, callerOf(r), r.params.id)),
      );
      s.post('/Users', async (r, reply) => {
        const u = await scim.createUser(ctx, callerOf(r), r.body);
        return send(reply.header('location', u.meta.location), 201, u);
      });
      s.put<{ Params: Params }>('/Users/:id', async (r, reply) =>
        send(reply, 200, await scim.replaceUser(ctx, callerOf(r), r.params.id, r.body)),
      );
      s.patch<{ Params: Params }>('/Users/:id', async (r, reply) =>
        send(reply, 200, await scim.patchUser(ctx, callerOf(r), r.params.id, r.body)),
      );
      s.delete<{ Params: Params }>('/Users/:id', async (r, reply) => {
        await scim.deleteUser(ctx, callerOf(r), r.params.id);
        return reply.code(204).send();
      });

      s.get<{ Querystring: Query }>('/Groups', async (r, reply) =>
        send(reply, 200, await groups.listGroups(ctx, callerOf(r), r.query)),
      );
      s.get<{ Params: Params }>('/Groups/:id', async (r, reply) =>
        send(reply, 200, await groups.getGroup(ctx, callerOf(r), r.params.id)),
      );
      s.post('/Groups', async (r, reply) => {
        const g = await groups.createGroup(ctx, callerOf(r), r.body);
        return send(reply.header('location', g.meta.location), 201, g);
      });
      s.put<{ Params: Params }>('/Groups/:id', async (r, reply) =>
        send(reply, 200, await groups.replaceGroup(ctx, callerOf(r), r.params.id, r.body)),
      );
      s.patch<{ Params: Params }>('/Groups/:id', async (r, reply) =>
        send(reply, 200, await groups.patchGroup(ctx, callerOf(r), r.params.id, r.body)),
      );
      s.delete<{ Params: Params }>('/Groups/:id', async (r, reply) => {
        await groups.deleteGroup(ctx, callerOf(r), r.params.id);
        return reply.code(204).send();
      });
    },
    { prefix: '/scim/v2' },
  );
}
