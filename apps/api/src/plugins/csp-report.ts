import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/** Where browsers send Content-Security-Policy violation reports (the policy's report-uri). */
export const CSP_REPORT_PATH = '/csp-report';
/** The Reporting API endpoint name of the policy's report-to. */
export const CSP_REPORT_GROUP = 'csp';

/** One violation as logged and recorded: no query strings, no fragments, bounded strings. */
export interface CspViolation {
  documentUrl: string;
  blockedUrl: string;
  directive: string;
  disposition: string;
  sourceFile: string;
  line: number | null;
  column: number | null;
  sample: string;
}

const MEDIA_TYPES = ['application/csp-report', 'application/reports+json'];
const BODY_LIMIT = 64 * 1024;
/** At most this many reports of one request are read (a reports+json batch). */
const MAX_PER_REQUEST = 20;
/** The record file stops growing past this size (a flood of forged reports must not fill the disk). */
const MAX_FILE_BYTES = 1024 * 1024;
/** At most this many warnings a minute; the rest are counted and summed up in the next warning. */
const LOGS_PER_MINUTE = 60;

const str = (v: unknown, max = 300): string => (typeof v === 'string' ? v.slice(0, max) : '');
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * A URL without its query and fragment (reset links carry tokens there), or the keyword a browser
 * puts in place of one ('inline', 'eval', 'data', ...).
 */
export function stripUrl(v: unknown): string {
  const s = str(v, 2048);
  if (!s) return '';
  try {
    const u = new URL(s);
    if (u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'ws:' || u.protocol === 'wss:') {
      return `${u.origin}${u.pathname}`.slice(0, 300);
    }
    // data:, blob:, javascript: and the like: the scheme says enough; their content may be long or secret.
    return u.protocol;
  } catch {
    return s.split(/[?#]/)[0]!.slice(0, 300);
  }
}

/** Reads the legacy report (application/csp-report) and the Reporting API's (application/reports+json). */
export function parseCspReports(body: unknown): CspViolation[] {
  const out: CspViolation[] = [];
  const legacy = (r: Record<string, unknown>): CspViolation => ({
    documentUrl: stripUrl(r['document-uri']),
    blockedUrl: stripUrl(r['blocked-uri']),
    directive: str(r['effective-directive'] || r['violated-directive'], 100),
    disposition: str(r.disposition, 20) || 'enforce',
    sourceFile: stripUrl(r['source-file']),
    line: num(r['line-number']),
    column: num(r['column-number']),
    sample: str(r['script-sample'], 80),
  });
  const modern = (r: Record<string, unknown>, url: unknown): CspViolation => ({
    documentUrl: stripUrl(r.documentURL ?? url),
    blockedUrl: stripUrl(r.blockedURL),
    directive: str(r.effectiveDirective, 100),
    disposition: str(r.disposition, 20) || 'enforce',
    sourceFile: stripUrl(r.sourceFile),
    line: num(r.lineNumber),
    column: num(r.columnNumber),
    sample: str(r.sample, 80),
  });
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (Array.isArray(body)) {
    for (const r of body.slice(0, MAX_PER_REQUEST)) {
      if (isObject(r) && r.type === 'csp-violation' && isObject(r.body)) out.push(modern(r.body, r.url));
    }
  } else if (isObject(body) && isObject(body['csp-report'])) {
    out.push(legacy(body['csp-report']));
  }
  return out.filter((v) => v.directive !== '');
}

export interface CspReportOptions {
  /** Each violation is appended here as one JSON line (until the file reaches 1 MiB). */
  file?: string;
}

/**
 * POST /csp-report: takes violation reports in either format with a small body limit, logs each at
 * warn level, counts them and answers 204. Registered in its own context so the two report media
 * types are accepted on this route only.
 */
export function cspReport(app: FastifyInstance, opts: CspReportOptions = {}): { count(): number } {
  let count = 0;
  let windowStart = 0;
  let logged = 0;
  let suppressed = 0;
  let fileFull = false;
  if (opts.file) fs.mkdirSync(path.dirname(opts.file), { recursive: true });

  const record = (line: string) => {
    if (!opts.file || fileFull) return;
    try {
      if ((fs.statSync(opts.file, { throwIfNoEntry: false })?.size ?? 0) >= MAX_FILE_BYTES) {
        fileFull = true;
        app.log.warn({ file: opts.file }, 'csp violation record is full; further violations are only logged');
        return;
      }
      fs.appendFileSync(opts.file, `${line}\n`);
    } catch (err) {
      app.log.error({ err }, 'csp violation could not be recorded');
    }
  };

  void app.register(async (scope) => {
    scope.addContentTypeParser(
      MEDIA_TYPES,
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_req, body, done) => {
        try {
          done(null, JSON.parse(String(body)));
        } catch {
          done(new AppError('validation', 'The request body is not valid JSON.'), undefined);
        }
      },
    );
    scope.post(CSP_REPORT_PATH, { bodyLimit: BODY_LIMIT }, async (request, reply) => {
      const violations = parseCspReports(request.body);
      if (violations.length === 0)
        throw new AppError('validation', 'The body holds no CSP violation report.');
      const now = Date.now();
      if (now - windowStart >= 60_000) {
        windowStart = now;
        logged = 0;
      }
      for (const v of violations) {
        count += 1;
        record(JSON.stringify({ at: new Date(now).toISOString(), requestId: request.id, ...v }));
        if (logged < LOGS_PER_MINUTE) {
          logged += 1;
          request.log.warn(
            { csp: v, ...(suppressed ? { suppressed } : {}) },
            'content security policy violation',
          );
          suppressed = 0;
        } else {
          suppressed += 1;
        }
      }
      return reply.status(204).send();
    });
  });
  return { count: () => count };
}
