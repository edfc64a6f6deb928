import type { EndpointDef } from '@sac/contract/endpoints';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../app-context.ts';
import { AppError, type FieldError } from './app-error.ts';
import { runInRequest } from './request-context.ts';

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

/**
 * Registers the route of one endpoint of the contract's table: the per-address budget of a public
 * door, authentication and authorization (ctx.callAuth, plugins/auth.ts), and query and body
 * validation with the contract's schemas.
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
      const session = await ctx.callAuth.authenticate(def, request);
      const query = (def.query ? parse(def.query, request.query) : undefined) as Out<E['query']>;
      await ctx.callAuth.authorizeImpersonation(def, session, query, request);
      const body = (def.body ? parse(def.body, request.body) : undefined) as Out<E['body']>;
      const ua = request.headers['user-agent'];
      const context = { requestId: request.id, impersonationRequestId: session?.impersonation?.requestId };
      return runInRequest(context, () =>
        handler({
          query,
          body,
          request,
          reply,
          session,
          clientAddress: request.ip,
          userAgent: typeof ua === 'string' ? ua : null,
        }),
      );
    },
  });
}
