import { HEADERS } from '@sac/contract/constants';
import { ENDPOINT_ROUTES, type EndpointId } from '@sac/contract/endpoint-routes';
// Types only: the schemas of endpoints.ts stay out of the bundle (the sign-in screen loads this).
import type { BodyOf, QueryOf, ResponseOf } from '@sac/contract/endpoints';
import { ERRORS, type ErrorEnvelope, errorTextOf } from '@sac/contract/errors';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import { MESSAGES } from '@sac/contract/messages';
import { toQueryString } from '@sac/contract/query-string';
import { STEP_UP_MESSAGES } from '@sac/contract/step-up';
import { getApiBase } from './api-base.ts';
import { signalSessionExpired } from './auth-events.ts';
import { endImpersonation, type TokenPair } from './impersonation-mode.ts';
import { askForStepUp } from './step-up.ts';
import { clearAuthStorage, readAuth } from './storage.ts';

/** An error answer of the API (or a network failure, status 0), with the text to show. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number | undefined;
  readonly envelope: Partial<ErrorEnvelope> | undefined;
  /** The server's error text; undefined for network failures and bodies without an error code. */
  readonly serverText: string | undefined;

  constructor(status: number, body: unknown, cause?: unknown) {
    const serverText = errorTextOf(body);
    super(serverText ?? MESSAGES.genericError, { cause });
    this.name = 'ApiError';
    this.status = status;
    this.serverText = serverText;
    const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
    const code = b?.ErrorCode ?? b?.errorCode;
    this.code = typeof code === 'number' ? code : undefined;
    this.envelope = b as Partial<ErrorEnvelope> | undefined;
  }

  /** The message of one field from FieldErrors, when the server sent one. */
  fieldError(field: string): string | undefined {
    return this.envelope?.FieldErrors?.find((f) => f.Field === field)?.Message;
  }
}

/** The text to show for any error: the server's text, else the given fallback. */
export function errorText(error: unknown, fallback: string = MESSAGES.genericError): string {
  return error instanceof ApiError && error.serverText ? error.serverText : fallback;
}

/**
 * The headers every call sends; auth headers only when both token and sign are usable. An explicit
 * pair (the impersonation pair) is sent instead of the stored admin pair.
 */
export function requestHeaders(pair?: TokenPair): Record<string, string> {
  const headers: Record<string, string> = {
    [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue,
    'Content-Type': 'application/json',
    Accept: 'application/json',
  };
  if (pair) {
    headers[HEADERS.token] = pair.xtoken;
    headers[HEADERS.sign] = pair.xsign;
    return headers;
  }
  const auth = readAuth();
  if (auth) {
    headers[HEADERS.token] = auth.token;
    headers[HEADERS.sign] = auth.sign;
  }
  return headers;
}

export interface CallInput<I extends EndpointId> {
  query?: QueryOf<I>;
  body?: BodyOf<I>;
  signal?: AbortSignal;
  /**
   * Call with this pair (an impersonation session) instead of the stored admin pair. A 401 then
   * ends only the impersonation: the admin's sign-in stays.
   */
  auth?: TokenPair;
  /** The version (ETag) the written record was read at: a newer stored one answers 412 (930). */
  ifMatch?: string;
}

/**
 * Calls one endpoint of the contract's table. Query parameters go URL-encoded in the address for
 * every method; a body (DELETE included) is sent as JSON data. Any answer carrying an error code,
 * or a non-2xx status, throws ApiError. Error 901 ends the local session; with an explicit `auth`
 * pair, any 401 ends the impersonation instead (the admin session is left alone).
 */
/**
 * The absolute address of an endpoint opened as a plain link (contract `plainLink`: a download, a
 * feed for a reader), its query in the address.
 */
export function plainLinkTo<I extends EndpointId>(id: I, query: QueryOf<I>): string {
  const def = ENDPOINT_ROUTES[id];
  const base = getApiBase() || window.location.origin;
  return `${base}${def.path}${toQueryString(query as Parameters<typeof toQueryString>[0])}`;
}

export async function callApi<I extends EndpointId>(id: I, input: CallInput<I> = {}): Promise<ResponseOf<I>> {
  return (await sendSteppingUp(id, input)).body;
}

/** callApi, with the version (ETag) the answer carries, for reads and writes of versioned records. */
export async function callApiVersioned<I extends EndpointId>(
  id: I,
  input: CallInput<I> = {},
): Promise<{ body: ResponseOf<I>; etag: string | undefined }> {
  return sendSteppingUp(id, input);
}

/**
 * A sensitive action answered 911: once the user confirmed it is them (the step-up dialog), the
 * same call is made once more; cancelled, the 911 is the caller's error.
 */
async function steppingUp<T>(call: () => Promise<T>, impersonating: boolean): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (impersonating || !(error instanceof ApiError) || error.code !== ERRORS.stepUpRequired.code)
      throw error;
    if (!(await askForStepUp()))
      throw new ApiError(error.status, { ErrorCode: error.code, Description: STEP_UP_MESSAGES.cancelled });
    return call();
  }
}

const sendSteppingUp = <I extends EndpointId>(id: I, input: CallInput<I>) =>
  steppingUp(() => send(id, input), input.auth !== undefined);

async function send<I extends EndpointId>(
  id: I,
  input: CallInput<I>,
): Promise<{ body: ResponseOf<I>; etag: string | undefined }> {
  const def = ENDPOINT_ROUTES[id];
  const url = `${getApiBase()}${def.path}${toQueryString(input.query as Parameters<typeof toQueryString>[0])}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: def.method,
      headers: input.ifMatch
        ? { ...requestHeaders(input.auth), [HEADERS.ifMatch]: input.ifMatch }
        : requestHeaders(input.auth),
      body: input.body === undefined ? (def.method === 'GET' ? undefined : '{}') : JSON.stringify(input.body),
      signal: input.signal,
      credentials: 'omit',
    });
  } catch (cause) {
    throw new ApiError(0, undefined, cause);
  }
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const errorCode = errorTextOf(body) !== undefined;
  if (!res.ok || errorCode) throw failure(res.status, body, input.auth);
  return { body: body as ResponseOf<I>, etag: res.headers.get(HEADERS.etag) ?? undefined };
}

/** The ApiError of a failed answer, after ending the session (or impersonation) it says has ended. */
function failure(status: number, body: unknown, auth: TokenPair | undefined): ApiError {
  const error = new ApiError(status, body);
  if (auth) {
    if (status === 401) endImpersonation(error.serverText ?? IMPERSONATION_SESSION_MESSAGES.ended, auth);
  } else if (error.code === ERRORS.unauthenticated.code) {
    clearAuthStorage();
    signalSessionExpired(error.serverText);
  }
  return error;
}

/**
 * Opens an answer that is read as it arrives (a streamed file, an event stream); answers it once
 * its status is good. A connection failure or an error answer throws ApiError as callApi's does.
 */
async function openStreamed(
  url: string,
  init: RequestInit,
): Promise<Response & { body: ReadableStream<Uint8Array> }> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, credentials: 'omit' });
  } catch (cause) {
    throw new ApiError(0, undefined, cause);
  }
  if (!res.ok || !res.body) {
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    throw failure(res.status, body, undefined);
  }
  return res as Response & { body: ReadableStream<Uint8Array> };
}

/**
 * Downloads a file an endpoint streams (the audit export), reporting the lines received as they
 * arrive; answers the file and the name the server gave it. Failures throw ApiError as callApi's.
 */
async function downloadApi<I extends EndpointId>(
  id: I,
  input: { query?: QueryOf<I>; signal?: AbortSignal },
  onProgress: (lines: number, expectedRows: number | undefined) => void,
): Promise<{ file: Blob; filename: string }> {
  const def = ENDPOINT_ROUTES[id];
  const url = `${getApiBase()}${def.path}${toQueryString(input.query as Parameters<typeof toQueryString>[0])}`;
  const res = await openStreamed(url, {
    method: def.method,
    headers: requestHeaders(),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const rowsHeader = res.headers.get(HEADERS.exportRows);
  const expectedRows = rowsHeader && /^\d+$/.test(rowsHeader) ? Number(rowsHeader) : undefined;
  const parts: BlobPart[] = [];
  let lines = 0;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      for (const byte of value) if (byte === 10) lines++;
      onProgress(lines, expectedRows);
    }
  } catch (cause) {
    throw new ApiError(0, undefined, cause);
  }
  const disposition = res.headers.get('Content-Disposition') ?? '';
  return {
    file: new Blob(parts, { type: res.headers.get('Content-Type') ?? 'application/octet-stream' }),
    filename: /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'download',
  };
}

/** A file made or streamed for the viewer: reports rows received of those announced. */
export type Download = (
  onProgress: (rows: number, total: number | undefined) => void,
  signal: AbortSignal,
) => Promise<{ file: Blob; filename: string }>;

/**
 * A file the server streams: a header line, then rows, as many as its x-export-rows header
 * announced. The rows received so far are the lines after the first.
 */
export const streamedFile =
  <I extends EndpointId>(id: I, query: QueryOf<I>): Download =>
  (onProgress, signal) =>
    steppingUp(
      () =>
        downloadApi(id, { query, signal }, (lines, total) =>
          onProgress(Math.max(0, Math.min(lines - 1, total ?? Number.POSITIVE_INFINITY)), total),
        ),
      false,
    );

/** One Server-Sent Event as the stream sent it. */
export interface StreamEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Reads an endpoint that answers text/event-stream (the staff notifications' stream) with the
 * staff member's session headers, which EventSource cannot send: fetch and a reader, parsed as
 * the SSE format says. Resolves when the server ends the stream; throws ApiError when it answers
 * an error (901 ends the local session as every call does) or the connection fails.
 */
export async function readEventStream(
  id: EndpointId,
  opts: { lastEventId?: string; signal: AbortSignal; onOpen?: () => void; onEvent: (e: StreamEvent) => void },
): Promise<void> {
  const def = ENDPOINT_ROUTES[id];
  const res = await openStreamed(`${getApiBase()}${def.path}`, {
    method: 'GET',
    headers: {
      ...requestHeaders(),
      Accept: 'text/event-stream',
      ...(opts.lastEventId ? { 'Last-Event-ID': opts.lastEventId } : {}),
    },
    signal: opts.signal,
    cache: 'no-store',
  });
  opts.onOpen?.();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let cut = buffer.indexOf('\n\n');
      while (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let eventId: string | undefined;
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const v = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') eventId = v;
          else if (field === 'event') event = v;
          else if (field === 'data') data.push(v);
        }
        if (data.length) opts.onEvent({ id: eventId, event, data: data.join('\n') });
        cut = buffer.indexOf('\n\n');
      }
    }
  } catch (cause) {
    if (opts.signal.aborted) return;
    throw new ApiError(0, undefined, cause);
  }
}
