/**
 * What every fuzzed answer must be: under 500, of a status the endpoint declares (or a request
 * guard's answer to a request that earned it), a body matching the declared schema, no stack
 * trace, the security headers; and, for a refused write, no change to the stored data.
 */
import { addressLimitOf } from '@sac/contract/address-limits';
import { HEADERS } from '@sac/contract/constants';
import type { EndpointDef } from '@sac/contract/endpoints';
import type { LightMyRequestResponse } from 'fastify';
import type { Queryable } from '../../src/db/db.ts';
import type { PrincipalName } from './fixtures.ts';
import type { FuzzRequest } from './requests.ts';

/**
 * The request guard (docs/decisions.md, request guard) answers before any endpoint: 908 (400)
 * without the ajax marker, 909 (415) for a body that is not JSON, 900 (400) for a body that does
 * not parse. The endpoint table does not list these on every endpoint, so they are accepted only
 * for the requests that earn them.
 */
const BODY_PARSER_ANSWERS = new Set([
  'The request body is not valid JSON.',
  'The request body is too large.',
]);
function guardAnswer(
  req: FuzzRequest,
  status: number,
  body: { ErrorCode?: number; Description?: string },
): boolean {
  const hasMarker = Object.keys(req.headers).some((h) => h.toLowerCase() === 'x-requested-with');
  if (status === 400 && body.ErrorCode === 908) return !hasMarker;
  // The JSON body parser runs before the endpoint, also for calls that take no body.
  if (status === 400 && body.ErrorCode === 900 && BODY_PARSER_ANSWERS.has(body.Description ?? '')) {
    return req.payload !== undefined;
  }
  if (status === 415 && body.ErrorCode === 909) {
    const ct = req.headers['content-type']?.toLowerCase() ?? '';
    return req.payload !== undefined && !/^application\/json\s*(;|$)/.test(ct);
  }
  return false;
}

const STACK_TRACE = [
  /\bat [^\s()"]+ \([^()"]*:\d+:\d+\)/,
  /\bat (?:file:\/\/|\/)[^\s"]+:\d+:\d+/,
  /node_modules\//,
  /\/apps\/api\/src\//,
  /\.(?:ts|js|mjs):\d+:\d+/,
];

const SECURITY_HEADERS: Record<string, RegExp> = {
  'content-security-policy': /default-src 'self'/,
  'x-content-type-options': /^nosniff$/,
  'referrer-policy': /^no-referrer$/,
  'x-frame-options': /^DENY$/,
  'cache-control': /no-store/,
  'x-request-id': /.+/,
};

/** The first thing wrong with an answer, or undefined. */
export function checkResponse(
  def: EndpointDef,
  req: FuzzRequest,
  res: LightMyRequestResponse,
): string | undefined {
  const status = res.statusCode;
  if (status >= 500) return `status ${status}: ${res.body.slice(0, 300)}`;
  for (const [name, pattern] of Object.entries(SECURITY_HEADERS)) {
    const v = res.headers[name];
    if (typeof v !== 'string' || !pattern.test(v)) return `header ${name} missing or wrong: ${String(v)}`;
  }
  const sent = `${req.url}\n${req.payload ?? ''}\n${JSON.stringify(req.headers)}`;
  for (const p of STACK_TRACE) {
    const m = p.exec(res.body);
    if (m && !sent.includes(m[0])) return `stack trace text in the body: ${m[0]}`;
  }
  // A file answer is of a declared type; the audit export ends with its signed seal, a list's CSV
  // export holds the header line and as many rows as x-export-rows announced.
  if (status === 200 && def.produces) {
    const type = String(res.headers['content-type']).split(';')[0]!;
    if (!def.produces.includes(type))
      return `status 200 answered ${type}, not one of ${def.produces.join(', ')}`;
    // a live stream: what it carries is staff-notifications.test.ts's to check
    if (type === 'text/event-stream') return undefined;
    if (def.id === 'auditExport') {
      const last = res.body.trimEnd().split('\n').at(-1) ?? '';
      if (!last.startsWith('#seal,') && !last.startsWith('{"Type":"seal"'))
        return 'the file does not end with its seal';
      return undefined;
    }
    const announced = Number(res.headers[HEADERS.exportRows]);
    // a JSON file is an array of its rows; a feed holds its entries
    if (type === 'application/json' || type === 'application/atom+xml') {
      const held =
        type === 'application/json'
          ? (JSON.parse(res.body) as unknown[]).length
          : (res.body.match(/<entry>/g) ?? []).length;
      return held === announced ? undefined : `x-export-rows said ${announced}, the file holds ${held}`;
    }
    // records end with CRLF; a quoted field may hold a line break, so count records, not lines
    const records =
      res.body.match(/(?:"(?:[^"]|"")*"|[^",\r\n]*)(?:,(?:"(?:[^"]|"")*"|[^",\r\n]*))*\r\n/g) ?? [];
    if (!Number.isInteger(announced) || records.length !== announced + 1)
      return `x-export-rows said ${String(res.headers[HEADERS.exportRows])}, the file holds ${records.length - 1} rows`;
    return undefined;
  }
  if (!/^application\/json/.test(String(res.headers['content-type']))) {
    return `status ${status} answered ${String(res.headers['content-type'])}, not JSON`;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `status ${status}: the body is not JSON: ${res.body.slice(0, 200)}`;
  }
  const schema = def.responses[status];
  if (!schema) {
    if (guardAnswer(req, status, body as { ErrorCode?: number })) return undefined;
    return `status ${status} is not declared for ${def.id}: ${res.body.slice(0, 300)}`;
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.')}: ${i.message}`)
      .join('; ');
    return `status ${status} does not match its schema (${issues}): ${res.body.slice(0, 300)}`;
  }
  if (status >= 400 && (body as { RequestId?: string }).RequestId !== res.headers['x-request-id']) {
    return 'the error RequestId is not the X-Request-Id header';
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Stored state

/**
 * Columns that change on any authenticated call, refused or not: a session's last use; and a
 * request's newest log entry, which a trigger keeps from impersonation_log (checked itself).
 */
const VOLATILE_COLUMNS: Record<string, string[]> = {
  staff_sessions: ['last_used_at'],
  impersonation_requests: ['last_log_id'],
};
/** Append-only tables: their row count and last id tell whether anything was added. */
const APPEND_ONLY = new Set(['activity_log', 'impersonation_log']);

/**
 * What a refused call may legitimately store: a refused sign-in is counted (per address and per
 * account, for the throttle and the lockout: staff.failed_logins, lockouts, locked_until) and
 * audited; a refused password reset (bad token) is audited; a wrong old password is audited and
 * counted as a failed sign-in.
 */
const REFUSAL_RECORDS: Record<string, string[]> = {
  login: ['activity_log', 'login_failures_by_address', 'staff'],
  resetPassword: ['activity_log'],
  changePassword: ['activity_log', 'login_failures_by_address', 'staff'],
  // A refused second step is a failed sign-in (counted and logged); a passkey answer spends its challenge.
  loginSecondStep: ['activity_log', 'login_failures_by_address', 'staff', 'staff_webauthn_challenges'],
  loginEnrolPasskey: ['staff_webauthn_challenges'],
  passkeyAdd: ['staff_webauthn_challenges'],
  // A wrong current password counts as a failed sign-in, as at a password change.
  totpEnrolStart: ['activity_log', 'login_failures_by_address', 'staff'],
  totpRemove: ['activity_log', 'login_failures_by_address', 'staff'],
  passkeyOptions: ['activity_log', 'login_failures_by_address', 'staff'],
  passkeyRemove: ['activity_log', 'login_failures_by_address', 'staff'],
  recoveryCodesRenew: ['activity_log', 'login_failures_by_address', 'staff'],
  // A wrong step-up counts as a failed sign-in; a passkey's or a TOTP code's check spends it.
  stepUp: ['activity_log', 'login_failures_by_address', 'staff', 'staff_webauthn_challenges', 'staff_totp'],
};

export type Fingerprint = Record<string, string>;

/** The staff audit trail's copies of impersonation steps, told apart from its other rows. */
const TRAIL_IMPERSONATION_STEPS = 'activity_log (impersonation steps)';
const stepRows = `action LIKE 'impersonation.%'`;
/** The trail's rows of refused staff calls (access.refused), which every refusal may add. */
const TRAIL_REFUSALS = 'activity_log (refused calls)';
const refusalRows = `action = 'access.refused'`;
const ACTIVITY_LOG_PARTS = [
  `(SELECT count(*) || ':' || coalesce(max(id), 0) FROM activity_log WHERE NOT ${stepRows} AND NOT ${refusalRows}) AS "activity_log"`,
  `(SELECT count(*) || ':' || coalesce(max(id), 0) FROM activity_log WHERE ${stepRows}) AS "${TRAIL_IMPERSONATION_STEPS}"`,
  `(SELECT count(*) || ':' || coalesce(max(id), 0) FROM activity_log WHERE ${refusalRows}) AS "${TRAIL_REFUSALS}"`,
].join(', ');

/** One query that answers a checksum of every table of the database. */
export async function fingerprinter(db: Queryable): Promise<() => Promise<Fingerprint>> {
  const cols = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  for (const r of cols.rows) {
    if (VOLATILE_COLUMNS[r.table_name]?.includes(r.column_name)) continue;
    tables.set(r.table_name, [...(tables.get(r.table_name) ?? []), r.column_name]);
  }
  const parts = [...tables].map(([table, columns]) => {
    if (table === 'activity_log') return ACTIVITY_LOG_PARTS;
    const value = APPEND_ONLY.has(table)
      ? `count(*) || ':' || coalesce(max(id), 0)`
      : `count(*) || ':' || coalesce(sum(hashtextextended(ROW(${columns.map((c) => `"${c}"`).join(', ')})::text, 0)), 0)`;
    return `(SELECT ${value} FROM "${table}") AS "${table}"`;
  });
  const sql = `SELECT ${parts.join(', ')}`;
  return async () => (await db.query<Fingerprint>(sql)).rows[0]!;
}

/** The tables whose checksum differs, less those the call may change when refused. */
export function changedTables(
  def: EndpointDef,
  principal: PrincipalName,
  status: number,
  before: Fingerprint,
  after: Fingerprint,
): string[] {
  const allowed = new Set(REFUSAL_RECORDS[def.id] ?? []);
  // A staff call refused for what its caller lacks (403), or on a session that ended (401), is a
  // trail row, its repeats counted in staff_refusals (plugins/auth.ts, registerEndpoint).
  if (status === 401 || status === 403) {
    allowed.add(TRAIL_REFUSALS);
    allowed.add('staff_refusals');
  }
  // A public door counts every call from its address, refused or not (address-limits.ts).
  if (addressLimitOf(def.id)) allowed.add('address_limit_counters');
  // Every call of an impersonation session is logged, refused or not (spec: each call is logged),
  // in its log and in the staff audit trail.
  if (principal === 'impersonating') {
    allowed.add('impersonation_log');
    allowed.add(TRAIL_IMPERSONATION_STEPS);
  }
  return Object.keys(before).filter((t) => before[t] !== after[t] && !allowed.has(t));
}
