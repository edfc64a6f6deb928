import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/** Where browsers send Content-Security-Policy violation reports (the policy's report-uri). */
export const CSP_REPORT_PATH = '/csp-report';

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
/**
 * Report requests one client address (an IPv6 /64) may send per minute; past that it gets 429
 * before its body is read. A page with a CSP problem reports each violation once per load, so
 * twenty a minute leaves room for a few reloads.
 */
const REPORTS_PER_ADDRESS_PER_MINUTE = 20;
/** Addresses whose budget is tracked at once; when full, addresses not yet tracked wait (429). */
const MAX_TRACKED_ADDRESSES = 10_000;
/**
 * Violations of one address (an IPv6 /64) kept in the record file, over its whole life: one
 * address's flood takes 50 lines (about 20 KiB) of the 1 MiB, and leaves the rest to others.
 */
const RECORD_LINES_PER_ADDRESS = 50;

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

/** Expands an IPv6 address into its eight hextets (no zone, no embedded IPv4). */
function hextets(ip: string): string[] {
  const [head = '', tail] = ip.split('::');
  const a = head ? head.split(':') : [];
  const b = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - a.length - b.length).fill('0');
  return [...a, ...zeros, ...b].map((h) => (Number.parseInt(h, 16) || 0).toString(16));
}

/**
 * Whose budget a report counts against: an IPv4 address whole (IPv4-mapped IPv6 too), an IPv6
 * address by its /64, the smallest block a client usually gets: one host can pick any address in it.
 */
export function addressKey(ip: string | undefined): string {
  const a = (ip ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (net.isIPv6(a) && !a.includes('.')) return `${hextets(a.split('%')[0]!).slice(0, 4).join(':')}::/64`;
  return a.toLowerCase() || 'unknown';
}

/** How many lines of each client a record file already holds (a restart keeps the quotas). */
export function recordedPerClient(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const client = (JSON.parse(line) as { client?: unknown }).client;
      if (typeof client === 'string') counts.set(client, (counts.get(client) ?? 0) + 1);
    } catch {
      // a line cut short or not ours: it counts for nobody
    }
  }
  return counts;
}

export interface CspReportOptions {
  /**
   * Each violation is appended here as one JSON line (until the file reaches 1 MiB, and at most
   * RECORD_LINES_PER_ADDRESS of one client address).
   */
  file?: string;
  /** Milliseconds since the epoch (tests). */
  now?: () => number;
}

/**
 * The per-address request budgets: answers, for an address key, the seconds until it may report
 * again, or 0 when this request is within its budget (and spends it).
 */
function addressBudgets(now: () => number): (key: string) => number {
  /** Requests per address key in the current minute of that key. */
  const budgets = new Map<string, { start: number; used: number }>();
  return (key) => {
    const t = now();
    let b = budgets.get(key);
    if (b && t - b.start >= 60_000) b = undefined;
    if (!b) {
      if (budgets.size >= MAX_TRACKED_ADDRESSES) {
        for (const [k, v] of budgets) if (t - v.start >= 60_000) budgets.delete(k);
        if (budgets.size >= MAX_TRACKED_ADDRESSES) return 60;
      }
      b = { start: t, used: 0 };
      budgets.set(key, b);
    }
    if (b.used >= REPORTS_PER_ADDRESS_PER_MINUTE)
      return Math.max(1, Math.ceil((b.start + 60_000 - t) / 1000));
    b.used += 1;
    return 0;
  };
}

/**
 * Appends a client's violation line to the record file, within the client's quota of lines and
 * until the file is full (said once); nothing without a file.
 */
function violationRecord(
  app: FastifyInstance,
  file: string | undefined,
): (client: string, line: string) => void {
  let fileFull = false;
  let recorded: Map<string, number> | undefined;
  return (client, line) => {
    if (!file || fileFull) return;
    try {
      recorded ??= recordedPerClient(
        fs.existsSync(file) ? fs.readFileSync(file, 'utf8').slice(0, 2 * MAX_FILE_BYTES) : '',
      );
      const mine = recorded.get(client) ?? 0;
      if (mine >= RECORD_LINES_PER_ADDRESS) return;
      if ((fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0) >= MAX_FILE_BYTES) {
        fileFull = true;
        app.log.warn({ file }, 'csp violation record is full; further violations are only logged');
        return;
      }
      fs.appendFileSync(file, `${line}\n`);
      recorded.set(client, mine + 1);
    } catch (err) {
      app.log.error({ err }, 'csp violation could not be recorded');
    }
  };
}

/**
 * POST /csp-report: takes violation reports in either format with a small body limit, logs each at
 * warn level, counts them and answers 204. Registered in its own context so the two report media
 * types are accepted on this route only.
 *
 * Anyone may post reports (browsers send them without credentials), so each client address has a
 * budget of requests per minute, checked before the body is read, and a quota of lines in the
 * record. Both are counted in this process's memory (one increment on the event loop, so
 * concurrent reports count exactly): they guard this instance's own file, so a count shared
 * between instances would buy nothing; the record quota is read back from the file at the first
 * report after a start.
 */
export function cspReport(app: FastifyInstance, opts: CspReportOptions = {}): { count(): number } {
  const now = opts.now ?? Date.now;
  let count = 0;
  let windowStart = 0;
  let logged = 0;
  let suppressed = 0;
  if (opts.file) fs.mkdirSync(path.dirname(opts.file), { recursive: true });

  const spend = addressBudgets(now);
  const record = violationRecord(app, opts.file);

  const budget = async (request: FastifyRequest) => {
    const wait = spend(addressKey(request.ip));
    if (wait > 0) throw Object.assign(new AppError('tooManyRequests'), { retryAfterSeconds: wait });
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
    // The budget is spent in onRequest: a refused report's body is never read or parsed.
    scope.post(CSP_REPORT_PATH, { bodyLimit: BODY_LIMIT, onRequest: budget }, async (request, reply) => {
      const violations = parseCspReports(request.body);
      if (violations.length === 0)
        throw new AppError('validation', 'The body holds no CSP violation report.');
      const at = now();
      if (at - windowStart >= 60_000) {
        windowStart = at;
        logged = 0;
      }
      const client = addressKey(request.ip);
      for (const v of violations) {
        count += 1;
        record(
          client,
          JSON.stringify({ at: new Date(at).toISOString(), requestId: request.id, client, ...v }),
        );
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
