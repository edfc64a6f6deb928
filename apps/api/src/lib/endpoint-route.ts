import { HEADERS } from '@sac/contract/constants';
import type { EndpointDef } from '@sac/contract/endpoints';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../app-context.ts';
import { useSession } from '../modules/auth/sessions.repo.ts';
import { impersonationScope, logImpersonatedCall } from '../modules/impersonation/impersonation-sessions.ts';
import { AppError, type FieldError } from './app-error.ts';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type Ok<E extends EndpointDef> = E['responses'] extends { 200: infer S }
  ? S extends z.ZodType
    ? z.input<S>
    : never
  : never;

export interface Call<E extends EndpointDef> extends Caller {
  query: Out<E['query']>;
  body: Out<E['body']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The caller of a session-only or permission endpoint is always signed in. */
export const signedIn = (c: Caller): StaffSession => {
  if (!c.session) throw new AppError('unauthenticated');
  return c.session;
};

function fieldErrorsOf(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ Field: i.path.join('.') || '(body)', Message: i.message }));
}

/**
 * The path of the first text (key or value) holding a NUL character, which PostgreSQL cannot
 * store. Iterative: a body may nest as deep as its size allows.
 */
function nulPath(value: unknown): string[] | undefined {
  const stack: Array<[unknown, string[]]> = [[value, []]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return at;
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000')) return [...at, k];
        stack.push([x, at.length < 20 ? [...at, k] : at]);
      }
    }
  }
  return undefined;
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const nul = nulPath(value);
  if (nul) {
    const message = 'Text must not contain the NUL character.';
    throw new AppError('validation', message, [{ Field: nul.join('.') || '(body)', Message: message }]);
  }
  const r = schema.safeParse(value ?? {});
  if (!r.success) {
    const fieldErrors = fieldErrorsOf(r.error);
    throw new AppError('validation', fieldErrors[0]?.Message, fieldErrors);
  }
  return r.data;
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' && v !== 'undefined' ? v : undefined;
};

/** Resolves the xtoken/xsign pair to a live staff session, or undefined. */
export async function authenticate(ctx: AppContext, req: FastifyRequest): Promise<StaffSession | undefined> {
  const xtoken = header(req, HEADERS.token);
  const xsign = header(req, HEADERS.sign);
  if (!xtoken || !xsign) return undefined;
  const s = await useSession(ctx.db, xtoken, xsign, ctx.clock.now(), {
    idleMs: ctx.config.sessionIdleMs,
    absoluteMs: ctx.config.sessionAbsoluteMs,
  });
  if (!s) return undefined;
  const impersonation = s.impersonation_request_id
    ? await impersonationScope(ctx, Number(s.impersonation_request_id), { uid: s.uid, email: s.email })
    : undefined;
  return {
    ...(impersonation ? { impersonation } : {}),
    sessionId: s.id,
    uid: s.uid,
    email: s.email,
    name: s.full_name,
    roles: s.roles,
    permissions: new Set(s.permissions),
  };
}

/** Calls an impersonation session may always make: who am I, and ending the session. */
const IMPERSONATION_OPEN = new Set(['session', 'logout']);

/**
 * Registers the route of one endpoint of the contract's table: authentication and the
 * permission check first, then query and body validation with the contract's schemas.
 */
export function registerEndpoint<E extends EndpointDef>(
  app: FastifyInstance,
  ctx: AppContext,
  def: E,
  handler: (call: Call<E>) => Promise<Ok<E>>,
): void {
  app.route({
    method: def.method,
    url: def.path,
    handler: async (request, reply) => {
      // Public doors are counted per address before anything else is done for the call.
      await ctx.addressLimits.take(def.id, request.ip, ctx.clock.now());
      let session: StaffSession | undefined;
      if (def.access !== 'public') {
        session = await authenticate(ctx, request);
        if (!session) throw new AppError('unauthenticated');
        // An impersonation session acts as the approved customer roles on one site, nothing else.
        if (!session.impersonation && def.access !== 'session' && !session.permissions.has(def.access)) {
          throw new AppError('forbidden');
        }
      }
      const query = (def.query ? parse(def.query, request.query) : undefined) as Out<E['query']>;
      if (session?.impersonation && !IMPERSONATION_OPEN.has(def.id)) {
        const appId = (query as { appId?: number } | undefined)?.appId;
        const allowed =
          def.impersonation !== undefined &&
          appId === session.impersonation.appId &&
          session.impersonation.permissions.has(def.impersonation.permission);
        await logImpersonatedCall(ctx, session, {
          method: def.method,
          path: def.path,
          allowed,
          clientAddress: request.ip,
        });
        if (!allowed) throw new AppError('impersonationForbidden', IMPERSONATION_SESSION_MESSAGES.outOfScope);
      }
      const body = (def.body ? parse(def.body, request.body) : undefined) as Out<E['body']>;
      const ua = request.headers['user-agent'];
      return handler({
        query,
        body,
        request,
        reply,
        session,
        clientAddress: request.ip,
        userAgent: typeof ua === 'string' ? ua : null,
      });
    },
  });
}
