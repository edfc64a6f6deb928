import { ERRORS, type ErrorEnvelope } from '@sac/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';

function sendError(request: FastifyRequest, reply: FastifyReply, e: AppError): FastifyReply {
  const body: ErrorEnvelope = {
    ErrorCode: e.code,
    Description: e.description,
    Message: e.description,
    RequestId: String(request.id),
    ...(e.fieldErrors ? { FieldErrors: e.fieldErrors } : {}),
  };
  if (e.retryAfterSeconds !== undefined) reply.header('Retry-After', String(e.retryAfterSeconds));
  return reply.status(e.status).type('application/json; charset=utf-8').send(body);
}

/** Maps Fastify's own errors (bad JSON, wrong media type, too large) onto the envelope. */
function fromFastify(err: FastifyError): AppError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupportedMediaType');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('validation', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('validation', 'The request body is too large.');
    default:
      if (err instanceof SyntaxError)
        return new AppError('validation', 'The request body is not valid JSON.');
      return undefined;
  }
}

/** When a client may try again after the database or Redis could not be reached (seconds). */
const STORE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection to the database or Redis (not of a DNS query: syscall query*). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
/**
 * PostgreSQL's codes for a server that is away, going away or full: shutdown (57P01-57P03), too
 * many connections (53300), the database gone (3D000), and class 08 connection exceptions but
 * 08P01, a protocol violation (a bug, not an outage).
 */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300', '3D000']);
/** What node-postgres, ioredis and PGlite say when their connection is gone or never came. */
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Connection is closed\.|Stream isn't writeable|PGlite is closed)/i;

/**
 * Whether `err` means the database or Redis could not be reached (refused, terminated, timed
 * out waiting for a pooled connection, retries spent): then the call may well work a few seconds
 * later, and the answer says so (503, Retry-After). Looks through `cause` and AggregateError.
 */
export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  if (!(err instanceof Error) || depth > 4) return false;
  const e = err as Error & { code?: unknown; syscall?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const dns = typeof e.syscall === 'string' && (e.syscall.startsWith('query') || e.syscall === 'getaddrinfo');
  if (NETWORK_CODES.has(code) && !dns) return true;
  if (POSTGRES_CODES.has(code) || (/^08[0-9A-Z]{3}$/.test(code) && code !== '08P01')) return true;
  if (e.name === 'MaxRetriesPerRequestError' || UNREACHABLE_MESSAGE.test(e.message)) return true;
  if (
    Array.isArray(e.errors) &&
    e.errors.length > 0 &&
    e.errors.every((x) => isStoreUnavailable(x, depth + 1))
  )
    return true;
  return isStoreUnavailable(e.cause, depth + 1);
}

/** Every error leaves as the one envelope; 5xx bodies never carry internals. */
export function errorEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) return sendError(request, reply, err);
    const known = fromFastify(err);
    if (known) return sendError(request, reply, known);
    if (isStoreUnavailable(err)) {
      request.log.warn({ err: { message: err.message, code: err.code } }, 'database or Redis unavailable');
      const e = new AppError('storeUnavailable');
      e.retryAfterSeconds = STORE_RETRY_AFTER_SECONDS;
      return sendError(request, reply, e);
    }
    request.log.error({ err }, 'unhandled error');
    return sendError(request, reply, new AppError('internal', ERRORS.internal.text));
  });
}
