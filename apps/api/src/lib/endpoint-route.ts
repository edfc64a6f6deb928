import type { EndpointDef } from '@sac/contract/endpoints';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../app-context.ts';
import { AppError, type FieldError } from './app-error.ts';
import { answerVersioned, expectedVersionOf, Versioned } from './record-version.ts';
import { runInRequest } from './request-context.ts';
import { keepToScope } from './site-scope.ts';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type Ok<E extends EndpointDef> = E['responses'] extends { 200: infer S }
  ? S extends z.ZodType
    ? z.input<S>
    : never
  : never;

/** Signed in on every endpoint but the public doors (authenticate answers 401 before the handler). */
type SessionOf<E extends EndpointDef> = E['access'] extends 'public'
  ? StaffSession | undefined
  : StaffSession;

/**
 * What a service needs of a staff member's call: who (the session), from where, and the version
 * of the record the caller's form was read at (If-Match; undefined: any). A Call of any
 * endpoint that is not public is one, and the seed makes its own.
 */
export interface StaffCall extends Caller {
  session: StaffSession;
  expectedVersion?: number | undefined;
}

/** The call registerEndpoint hands a handler: the caller, the parsed query and body, the If-Match. */
export interface Call<E extends EndpointDef> extends Caller {
  session: SessionOf<E>;
  query: Out<E['query']>;
  body: Out<E['body']>;
  /** The version an If-Match header names (expectedVersionOf); undefined without one or with '*'. */
  expectedVersion: number | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

function fieldErrorsOf(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ Field: i.path.join('.') || '(body)', Message: i.message }));
}

/** A UTF-16 surrogate without its other half (JSON can spell one: "\udc00"). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a text cannot be stored: PostgreSQL takes neither NUL nor a lone surrogate (jsonb refuses its escape). */
function textFault(t: string): string | undefined {
  if (t.includes('\u0000')) return 'Text must not contain the NUL character.';
  if (LONE_SURROGATE.test(t)) return 'Text must be valid Unicode: it holds a lone surrogate.';
  return undefined;
}

/**
 * The path of the first text (key or value) PostgreSQL cannot store, and why. Iterative: a body
 * may nest as deep as its size allows.
 */
function badTextPath(value: unknown): { at: string[]; message: string } | undefined {
  const stack: Array<[unknown, string[]]> = [[value, []]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      const message = textFault(v);
      if (message) return { at, message };
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const message = textFault(k);
        if (message) return { at: [...at, k], message };
        stack.push([x, at.length < 20 ? [...at, k] : at]);
      }
    }
  }
  return undefined;
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const bad = badTextPath(value);
  if (bad) {
    const { at, message } = bad;
    throw new AppError('validation', message, [{ Field: at.join('.') || '(body)', Message: message }]);
  }
  const r = schema.safeParse(value ?? {});
  if (!r.success) {
    const fieldErrors = fieldErrorsOf(r.error);
    throw new AppError('validation', fieldErrors[0]?.Message, fieldErrors);
  }
  return r.data;
}

/**
 * The appId of the query as its schema reads it, alone, for the scope check of an impersonation
 * session before the whole query is validated: a call out of the session's scope is refused
 * (403) whatever else its query or body holds. An appId the schema does not accept reads as none.
 */
function appIdOf(def: EndpointDef, raw: unknown): { appId?: unknown } {
  const shape =
    def.query && 'shape' in def.query ? (def.query.shape as Record<string, z.ZodType>) : undefined;
  const parsed = shape?.appId?.safeParse((raw as Record<string, unknown> | undefined)?.appId);
  return parsed?.success ? { appId: parsed.data } : {};
}

/**
 * Registers the route of one endpoint of the contract's table: the per-address budget of a public
 * door, authentication and authorization (ctx.callAuth, plugins/auth.ts; an impersonation
 * session's scope before any validation), query and body validation with the contract's schemas
 * and the If-Match version. A handler that answers a Versioned body has its version sent as the
 * ETag.
 */
export function registerEndpoint<E extends EndpointDef>(
  app: FastifyInstance,
  ctx: AppContext,
  def: E,
  handler: (call: Call<E>) => Promise<Ok<E> | Versioned<Ok<E>>>,
): void {
  app.route({
    method: def.method,
    url: def.path,
    handler: async (request, reply) => {
      // Public doors are counted per address before anything else is done for the call.
      await ctx.addressLimits.take(def.id, request.ip, ctx.clock.now());
      const session = await ctx.callAuth.authenticate(def, request);
      if (def.access !== 'public' && !session) throw new AppError('unauthenticated');
      await ctx.callAuth.authorizeImpersonation(def, session, appIdOf(def, request.query), request);
      const query = (def.query ? parse(def.query, request.query) : undefined) as Out<E['query']>;
      const body = (def.body ? parse(def.body, request.body) : undefined) as Out<E['body']>;
      const expectedVersion = expectedVersionOf(request);
      const ua = request.headers['user-agent'];
      const context = {
        requestId: request.id,
        impersonationRequestId: session?.impersonation?.requestId,
        apiToken: session?.apiToken,
      };
      let answer: Ok<E> | Versioned<Ok<E>>;
      try {
        await keepToScope(ctx.db, def, session?.scope, { query, body });
        answer = await runInRequest(context, () =>
          handler({
            query,
            body,
            expectedVersion,
            request,
            reply,
            session: session as SessionOf<E>,
            clientAddress: request.ip,
            userAgent: typeof ua === 'string' ? ua : null,
          }),
        );
      } catch (e) {
        // A service's refusal of a staff member (a SuperAdmin-only act, the cool-down, another's
        // object) is a trail row like the endpoint permission's, recorded here once for every
        // service and after its transaction rolled back. An impersonation session's refusals go
        // to the impersonation log instead.
        if (e instanceof AppError && e.status === 403 && session && !session.impersonation)
          await ctx.callAuth.recordRefusal(session, def, e.missing ?? e.description, e, request.ip);
        throw e;
      }
      return answer instanceof Versioned ? answerVersioned(reply, answer) : answer;
    },
  });
}
