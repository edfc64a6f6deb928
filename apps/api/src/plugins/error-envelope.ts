import { ERRORS, type ErrorEnvelope } from '@sac/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import { isStoreUnavailable } from '../lib/store-circuit.ts';

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
