import http from 'node:http';
import type { Socket } from 'node:net';
import { ERRORS } from '@sac/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPrivatePath, normalisedPath } from '../lib/request-path.ts';
import { CSP_REPORT_PATH } from './csp-report.ts';

/**
 * A strict policy: no inline or eval'd script or style, no plugins, no framing, no <base>.
 * Violations are reported to POST /csp-report with a sample of the refused code. Only report-uri:
 * with report-to present, Chromium ignores report-uri and batches reports through the Reporting
 * API, so a violation just before a tab closes is never reported.
 */
function contentSecurityPolicy(connectSrc: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'report-sample'",
    "style-src 'self' 'report-sample'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...connectSrc].join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    `report-uri ${CSP_REPORT_PATH}`,
  ].join('; ');
}

/** Answers of an https console tell browsers to use https only, for a year, subdomains too. */
const HSTS = 'max-age=31536000; includeSubDomains';

export interface HeaderOptions {
  /** Origins the console's pages may call besides their own (API_BASE_URL). */
  connectSrc: string[];
  /** Send Strict-Transport-Security (the console origin is https). */
  hsts: boolean;
}

/**
 * Whether answers carry HSTS: when the console's origin (the first of CONSOLE_ORIGINS, the one
 * links are built on) is https. Never on http: a browser would be told to use a scheme that
 * the console does not answer on (and browsers ignore HSTS received over http anyway).
 */
const wantsHsts = (config: { consoleOrigins: string[] }): boolean =>
  config.consoleOrigins[0]?.toLowerCase().startsWith('https://') ?? false;

/**
 * The headers of every answer; Cache-Control only where the path is private (judged on the
 * decoded, normalised path: /%61dmin/session is /admin/session to the router).
 */
function securityHeaderValues(opts: HeaderOptions, url: string): Record<string, string> {
  return {
    ...(opts.hsts ? { 'Strict-Transport-Security': HSTS } : {}),
    'Content-Security-Policy': contentSecurityPolicy(opts.connectSrc),
    'X-Content-Type-Options': 'nosniff',
    // Reset links carry their token in the query: never leak it in a Referer.
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ...(isPrivatePath(normalisedPath(url)) ? { 'Cache-Control': 'no-store' } : {}),
  };
}

type HeaderConfig = { runtime: { apiBaseUrl: string | null }; consoleOrigins: string[] };

/** The header options of a configuration. */
export const headerOptionsOf = (config: HeaderConfig): HeaderOptions => ({
  connectSrc: config.runtime.apiBaseUrl ? [config.runtime.apiBaseUrl] : [],
  hsts: wantsHsts(config),
});

export function securityHeaders(app: FastifyInstance, opts: HeaderOptions): void {
  const fixed = securityHeaderValues(opts, '/');
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(fixed);
    reply.header('X-Request-Id', request.id);
    if (isPrivatePath(normalisedPath(request.url))) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}

/**
 * Fastify options for the answers it writes outside the request lifecycle, where onSend hooks do
 * not run: a URL that does not decode (frameworkErrors: the error envelope, not Fastify's body
 * echoing the path) and bytes that do not parse as HTTP (clientErrorHandler: 400, 408 or 431).
 */
export function lowLevelErrorOptions(config: HeaderConfig) {
  const opts = headerOptionsOf(config);
  return {
    frameworkErrors(_err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
      const description = 'The request URL is not valid.';
      const body = JSON.stringify({
        ErrorCode: ERRORS.validation.code,
        Description: description,
        Message: description,
        RequestId: String(request.id),
      });
      return reply
        .code(400)
        .headers({
          ...securityHeaderValues(opts, request.raw.url ?? '/'),
          'X-Request-Id': String(request.id),
        })
        .type('application/json; charset=utf-8')
        .send(body);
    },
    clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const status =
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const body = JSON.stringify({
        ErrorCode: ERRORS.validation.code,
        Description: http.STATUS_CODES[status],
      });
      const headers = {
        ...securityHeaderValues(opts, '/'),
        'Cache-Control': 'no-store',
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(body)),
        Connection: 'close',
      };
      if (socket.writable) {
        socket.write(
          `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${Object.entries(headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\r\n')}\r\n\r\n${body}`,
        );
      }
      socket.destroy(err);
    },
  };
}
