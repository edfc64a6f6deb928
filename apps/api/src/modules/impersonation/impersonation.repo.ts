import type { ImpersonationStep } from '@sac/contract/audit';
import type { DisplayStatus, Priority, RequestState, StoredStatus } from '@sac/contract/impersonation';
import { DISPLAY_STATUSES, type LOG_STATUSES } from '@sac/contract/impersonation-api';
import type { Queryable } from '../../db/db.ts';
import { recordImpersonationStep } from '../activity/activity.service.ts';

type LogStatus = (typeof LOG_STATUSES)[number];
const DISPLAY_STATUS_COUNT = DISPLAY_STATUSES.length;

export interface RequestRow {
  id: number;
  app_id: number;
  app_name: string;
  owner_uid: string;
  owner_email: string;
  initiator_uid: string | null;
  initiator_email: string;
  is_customer_request: boolean;
  consent: 'pending' | 'granted' | 'denied';
  priority: Priority;
  description: string;
  assignees: string[];
  proxy_roles: string[];
  additional_permissions: string[];
  duration_minutes: number;
  status: StoredStatus;
  action_taken_by: string | null;
  action_taken_at: Date | null;
  /** Whose the grant is: set once at approval, never changed by later actions. */
  holder_uid: string | null;
  holder_email: string | null;
  expires_at: Date | null;
  approved_roles: string[];
  approved_permissions: string[];
  reason: string;
  deleted_at: Date | null;
  created_at: Date;
  modified_at: Date;
  /** Raised by every state change; a requester's edit names the one it was read at. */
  version: number;
}

const COLUMNS = `r.id, r.app_id, s.app_name, s.owner_uid, o.email AS owner_email, r.initiator_uid, r.initiator_email,
  r.is_customer_request, r.consent, r.priority, r.description, r.assignees, r.proxy_roles, r.additional_permissions,
  r.duration_minutes, r.status, r.action_taken_by, r.action_taken_at, r.holder_uid, r.holder_email, r.expires_at, r.approved_roles,
  r.approved_permissions, r.reason, r.deleted_at, r.created_at, r.modified_at, r.version::int AS version`;
const FROM =
  'FROM impersonation_requests r JOIN sites s ON s.app_id = r.app_id JOIN customers o ON o.uid = s.owner_uid';

/** One request; `lock` takes the row lock so a transition applies atomically. */
export async function findRequest(db: Queryable, id: number, lock = false): Promise<RequestRow | undefined> {
  const r = await db.query<RequestRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE r.id = $1 AND r.deleted_at IS NULL${lock ? ' FOR UPDATE OF r' : ''}`,
    [id],
  );
  return r.rows[0];
}

/** Every request of a site, deleted ones too (the owner's access page shows them all), newest first. */
export async function requestsOfSite(db: Queryable, appId: number): Promise<RequestRow[]> {
  const r = await db.query<RequestRow>(
    `SELECT ${COLUMNS} ${FROM} WHERE r.app_id = $1 ORDER BY r.id DESC LIMIT 500`,
    [appId],
  );
  return r.rows;
}

/**
 * Whether request row `r` shows display status `status` at the instant `now` (SQL text of both):
 * spec section 4's rule, Expired once an approval's ExpiresAt has passed, as the contract's
 * `displayStatus` states it for toWire (impersonation-lists.test.ts holds the two equal). Written
 * as plain conditions on the stored status and the expiry, which the planner can estimate and
 * the list's indexes answer; a filter uses it, so a row is filtered by the status it shows.
 * `now` gives the instant's SQL when the status depends on it (a parameter is bound only if used).
 */
export function displayStatusIs(r: string, now: () => string, status: DisplayStatus): string {
  switch (status) {
    // An approval always has its expiry (a CHECK since migration 0039), so no `IS NULL` branch:
    // with one, the planner counted every unapproved row's null and walked all approvals.
    case 'Expired':
      return `(${r}.status = 'Approved' AND ${r}.expires_at <= ${now()})`;
    case 'Approved':
      return `(${r}.status = 'Approved' AND ${r}.expires_at > ${now()})`;
    default:
      return `${r}.status = '${status satisfies StoredStatus}'`;
  }
}

/** The list's key after the stored status: the newest action or change (impersonation_requests_list_idx). */
const LAST_CHANGE = 'COALESCE(r.action_taken_at, r.modified_at)';
/** A priority's severity, Low 1 to Critical 4: the expression of impersonation_requests_status_priority_idx. */
const PRIORITY_RANK = `(CASE r.priority WHEN 'Low' THEN 1 WHEN 'Moderate' THEN 2 WHEN 'High' THEN 3 ELSE 4 END)`;

/**
 * The order of a slice of the request list: its key after the stored status and the direction
 * (ties by Id the same way). 'last-change' is the list's own order (newest first), 'customer' the
 * customers' list's; the others are the sorts (sort=id, modified, priority).
 */
export interface RequestOrder {
  key: 'last-change' | 'customer' | 'id' | 'modified' | 'priority';
  descending: boolean;
}
const ORDER_KEYS: Record<RequestOrder['key'], { sql: string; type: string }> = {
  'last-change': { sql: LAST_CHANGE, type: 'timestamptz' },
  customer: { sql: 'r.modified_at', type: 'timestamptz' },
  id: { sql: 'r.id', type: 'bigint' },
  modified: { sql: 'r.modified_at', type: 'timestamptz' },
  priority: { sql: PRIORITY_RANK, type: 'int' },
};

export interface ListedRequestRow extends RequestRow {
  /** The row's order key as PostgreSQL writes it, microseconds kept (a cursor carries it). */
  list_key: string;
}

/** What every slice of the request list filters on. */
interface RequestSlice {
  now: Date;
  statuses: readonly DisplayStatus[];
  visibleTo?: string;
  customerOnly?: boolean;
  appId?: number;
  requestId?: number;
  /** The highest Id an export reads (the last when it began). */
  upTo?: number;
  limit: number;
}

/** Parameters of one query, bound in order. */
function binder() {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  return { params, p };
}

/** The page's rows, with their sites and owners, in the page's order. */
const joinPage = (page: string, dir: string) => `SELECT ${COLUMNS}, page.list_at::text AS list_key
     FROM (${page}) page
     JOIN impersonation_requests r ON r.id = page.id JOIN sites s ON s.app_id = r.app_id
     JOIN customers o ON o.uid = s.owner_uid
     ORDER BY page.ord ${dir}, page.id ${dir}`;

/**
 * One slice of the request list, in its order, after the key `after`: the requests (not deleted)
 * showing one of `statuses` at `now`, each status read off an index through its stored status,
 * merged by the order's key, then Id (by default newest first by the last action or change;
 * customers' own requests: by modified date). Visibility is the caller's: requests they made or
 * are assigned.
 */
export async function pageRequests(
  db: Queryable,
  q: RequestSlice & { order?: RequestOrder; after?: { key: string; id: string } },
): Promise<ListedRequestRow[]> {
  const { params, p } = binder();
  let nowSql: string | undefined;
  const now = () => (nowSql ??= `${p(q.now)}::timestamptz`);
  const order = q.order ?? { key: q.customerOnly ? 'customer' : 'last-change', descending: true };
  const key = ORDER_KEYS[order.key];
  const dir = order.descending ? 'DESC' : 'ASC';
  const cmp = order.descending ? '<' : '>';
  const where = ['r.deleted_at IS NULL'];
  // What the viewer may see: what they asked for, or (the rest) what they are assigned. Two
  // disjoint walks, each on its own index, rather than one filter over every request. `@>` is
  // `= ANY` for arrays without nulls, and the form the GIN index answers.
  let visible = [''];
  if (q.visibleTo) {
    const v = p(q.visibleTo);
    const asked = `lower(r.initiator_email) = lower(${v})`;
    visible = [` AND ${asked}`, ` AND r.assignees @> ARRAY[${v}::text] AND NOT ${asked}`];
  }
  if (q.customerOnly) where.push('r.is_customer_request');
  if (q.appId !== undefined) where.push(`r.app_id = ${p(q.appId)}`);
  if (q.requestId !== undefined) where.push(`r.id = ${p(q.requestId)}`);
  if (q.upTo !== undefined) where.push(`r.id <= ${p(q.upTo)}::bigint`);
  if (q.after) {
    where.push(
      order.key === 'id'
        ? `r.id ${cmp} ${p(q.after.id)}::bigint`
        : `(${key.sql}, r.id) ${cmp} (${p(q.after.key)}::${key.type}, ${p(q.after.id)}::bigint)`,
    );
  }
  const limit = p(q.limit);
  const keys = `SELECT r.id, ${key.sql} AS ord FROM impersonation_requests r`;
  const orderBy = `ORDER BY ${key.sql} ${dir}, r.id ${dir} LIMIT ${limit}`;
  // One branch per status (and visibility), each walking the index of its stored status in order;
  // a customer's list is one walk by modified date. Merged and cut to the page before the page's rows are
  // joined to their sites: joined first, the planner would join every candidate.
  const shown = q.customerOnly ? [''] : q.statuses.map((s) => ` AND ${displayStatusIs('r', now, s)}`);
  const branches = shown.flatMap((status) =>
    visible.map((v) => `(${keys} WHERE ${where.join(' AND ')}${status}${v} ${orderBy})`),
  );
  if (branches.length === 0) return [];
  const page = `SELECT id, ord, ord AS list_at FROM (${branches.join(' UNION ALL ')}) x ORDER BY ord ${dir}, id ${dir} LIMIT ${limit}`;
  return (await db.query<ListedRequestRow>(joinPage(page, dir), params)).rows;
}

/**
 * One slice of the request list by site name (sort=app: lower(AppName), then Id), after the row of
 * site `after.key` and Id `after.id`: the rest of that site, then the sites after it in name order,
 * each site's requests walked by Id (impersonation_requests_app_id_idx) and cut to the page. A
 * requester's few requests are found through their indexes and sorted instead.
 */
export async function pageRequestsByApp(
  db: Queryable,
  q: RequestSlice & { descending: boolean; after?: { key: string; id: string } },
): Promise<ListedRequestRow[]> {
  if (q.statuses.length === 0) return [];
  const { params, p } = binder();
  let nowSql: string | undefined;
  const now = () => (nowSql ??= `${p(q.now)}::timestamptz`);
  const dir = q.descending ? 'DESC' : 'ASC';
  const cmp = q.descending ? '<' : '>';
  const where = ['r.deleted_at IS NULL'];
  if (q.statuses.length < DISPLAY_STATUS_COUNT)
    where.push(`(${q.statuses.map((s) => displayStatusIs('r', now, s)).join(' OR ')})`);
  if (q.visibleTo) {
    const v = p(q.visibleTo);
    where.push(`(lower(r.initiator_email) = lower(${v}) OR r.assignees @> ARRAY[${v}::text])`);
  }
  if (q.appId !== undefined) where.push(`r.app_id = ${p(q.appId)}`);
  if (q.requestId !== undefined) where.push(`r.id = ${p(q.requestId)}`);
  if (q.upTo !== undefined) where.push(`r.id <= ${p(q.upTo)}::bigint`);
  const limit = p(q.limit);
  const afterApp = q.after ? p(q.after.key) : undefined;
  const afterName = afterApp && `(SELECT lower(app_name) FROM sites WHERE app_id = ${afterApp}::bigint)`;
  let page: string;
  if (q.visibleTo) {
    const after = afterName
      ? ` AND (lower(s.app_name), r.id) ${cmp} (${afterName}, ${p(q.after!.id)}::bigint)`
      : '';
    page = `SELECT r.id, lower(s.app_name) AS ord, r.app_id AS list_at
      FROM impersonation_requests r JOIN sites s ON s.app_id = r.app_id
      WHERE ${where.join(' AND ')}${after} ORDER BY lower(s.app_name) ${dir}, r.id ${dir} LIMIT ${limit}`;
  } else {
    const siteWhere = [
      ...(afterName ? [`lower(app_name) ${cmp} ${afterName}`] : []),
      ...(q.appId !== undefined ? [`app_id = ${p(q.appId)}`] : []),
    ];
    const sites = `SELECT app_id, lower(app_name) AS k FROM sites
      ${siteWhere.length ? `WHERE ${siteWhere.join(' AND ')}` : ''} ORDER BY lower(app_name) ${dir}`;
    const rest = `SELECT x.id, s.k AS ord, s.app_id AS list_at FROM (${sites}) s
      CROSS JOIN LATERAL (SELECT r.id FROM impersonation_requests r
        WHERE r.app_id = s.app_id AND ${where.join(' AND ')} ORDER BY r.id ${dir} LIMIT ${limit}) x
      ORDER BY s.k ${dir}, x.id ${dir} LIMIT ${limit}`;
    page = afterName
      ? `SELECT * FROM ((SELECT r.id, ${afterName} AS ord, r.app_id AS list_at FROM impersonation_requests r
           WHERE r.app_id = ${afterApp}::bigint AND r.id ${cmp} ${p(q.after!.id)}::bigint AND ${where.join(' AND ')}
           ORDER BY r.id ${dir} LIMIT ${limit})
         UNION ALL (${rest})) u ORDER BY ord ${dir}, id ${dir} LIMIT ${limit}`
      : rest;
  }
  return (await db.query<ListedRequestRow>(joinPage(page, dir), params)).rows;
}

/** How many requests a whole list holds (an export's row count), as pageRequests filters them. */
export async function countRequests(db: Queryable, q: Omit<RequestSlice, 'limit'>): Promise<number> {
  if (q.statuses.length === 0) return 0;
  const { params, p } = binder();
  let nowSql: string | undefined;
  const now = () => (nowSql ??= `${p(q.now)}::timestamptz`);
  const where = ['r.deleted_at IS NULL'];
  if (q.statuses.length < DISPLAY_STATUS_COUNT)
    where.push(`(${q.statuses.map((s) => displayStatusIs('r', now, s)).join(' OR ')})`);
  if (q.visibleTo) {
    const v = p(q.visibleTo);
    where.push(`(lower(r.initiator_email) = lower(${v}) OR r.assignees @> ARRAY[${v}::text])`);
  }
  if (q.customerOnly) where.push('r.is_customer_request');
  if (q.appId !== undefined) where.push(`r.app_id = ${p(q.appId)}`);
  if (q.requestId !== undefined) where.push(`r.id = ${p(q.requestId)}`);
  if (q.upTo !== undefined) where.push(`r.id <= ${p(q.upTo)}::bigint`);
  const r = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM impersonation_requests r JOIN sites s ON s.app_id = r.app_id
     WHERE ${where.join(' AND ')}`,
    params,
  );
  return Number(r.rows[0]!.n);
}

/** The highest request Id ('0' when none): where an export stops. */
export async function lastRequestId(db: Queryable): Promise<number> {
  const r = await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM impersonation_requests');
  return Number(r.rows[0]?.id ?? 0);
}

/** A new request, Pending; its id. Without `consent` the owner's consent is still to be asked. */
export async function insertRequest(
  db: Queryable,
  q: {
    appId: number;
    initiator: { uid: string | null; email: string };
    isCustomerRequest: boolean;
    consent: { at: Date; address: string | null } | null;
    priority: Priority;
    description: string;
    assignees: string[];
    proxyRoles: string[];
    additionalPermissions: string[];
    durationMinutes: number;
    at: Date;
  },
): Promise<number> {
  const r = await db.query<{ id: number }>(
    `INSERT INTO impersonation_requests (app_id, initiator_uid, initiator_email, is_customer_request, consent, consent_at,
       consent_address, priority, description, assignees, proxy_roles, additional_permissions, duration_minutes,
       created_at, modified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING id`,
    [
      q.appId,
      q.initiator.uid,
      q.initiator.email,
      q.isCustomerRequest,
      q.consent ? 'granted' : 'pending',
      q.consent?.at ?? null,
      q.consent?.address ?? null,
      q.priority,
      q.description,
      q.assignees,
      q.proxyRoles,
      q.additionalPermissions,
      q.durationMinutes,
      q.at,
    ],
  );
  return Number(r.rows[0]!.id);
}

/** Records when and from where the owner answered the consent link. */
export async function recordConsent(
  db: Queryable,
  id: number,
  at: Date,
  clientAddress: string | null,
): Promise<void> {
  await db.query('UPDATE impersonation_requests SET consent_at = $2, consent_address = $3 WHERE id = $1', [
    id,
    at,
    clientAddress,
  ]);
}

/** Roles of the app's other requests that are pending, or approved and unexpired. */
export async function rolesHeldByOthers(
  db: Queryable,
  appId: number,
  exceptId: number | null,
  now: Date,
): Promise<string[]> {
  const r = await db.query<{ role: string }>(
    `SELECT DISTINCT unnest(CASE WHEN status = 'Pending' THEN proxy_roles ELSE approved_roles END) AS role
     FROM impersonation_requests
     WHERE app_id = $1 AND deleted_at IS NULL AND ($2::bigint IS NULL OR id <> $2)
       AND (status = 'Pending' OR (status = 'Approved' AND expires_at > $3))`,
    [appId, exceptId, now],
  );
  return r.rows.map((x) => x.role);
}

export function stateOf(row: RequestRow): RequestState {
  return {
    status: row.status,
    deleted: row.deleted_at !== null,
    initiator: row.initiator_email,
    assignees: row.assignees,
    consent: row.consent,
    priority: row.priority,
    description: row.description,
    proxyRoles: row.proxy_roles,
    additionalPermissions: row.additional_permissions,
    durationMinutes: row.duration_minutes,
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
    approvedRoles: row.approved_roles,
    approvedPermissions: row.approved_permissions,
  };
}

/** Writes a machine state back to its row. */
export async function saveState(
  db: Queryable,
  id: number,
  s: RequestState,
  extra: { at: Date; actionBy?: string; reason?: string },
): Promise<void> {
  await db.query(
    `UPDATE impersonation_requests SET status = $2, consent = $3, priority = $4, description = $5, assignees = $6,
       proxy_roles = $7, additional_permissions = $8, expires_at = $9, approved_roles = $10, approved_permissions = $11,
       deleted_at = CASE WHEN $12 THEN $13::timestamptz ELSE NULL END, modified_at = $13,
       action_taken_by = COALESCE($14, action_taken_by), action_taken_at = CASE WHEN $14::text IS NULL THEN action_taken_at ELSE $13 END,
       reason = COALESCE($15, reason), version = version + 1
     WHERE id = $1`,
    [
      id,
      s.status,
      s.consent,
      s.priority,
      s.description,
      s.assignees,
      s.proxyRoles,
      s.additionalPermissions,
      s.expiresAt === null ? null : new Date(s.expiresAt),
      s.approvedRoles,
      s.approvedPermissions,
      s.deleted,
      extra.at,
      extra.actionBy ?? null,
      extra.reason ?? null,
    ],
  );
}

/**
 * Records the holder of a grant at its approval. Only a request that has none yet takes one, so
 * no later action (a revoke by another SuperAdmin, in part or whole) can hand the grant over.
 */
export async function recordHolder(
  db: Queryable,
  id: number,
  holder: { uid: string | null; email: string | null },
): Promise<void> {
  await db.query(
    `UPDATE impersonation_requests SET holder_uid = $2, holder_email = $3
     WHERE id = $1 AND holder_uid IS NULL AND holder_email IS NULL`,
    [id, holder.uid, holder.email],
  );
}

/**
 * Appends a step to the impersonation log and, as 'impersonation.<step>', to the staff audit trail
 * with its site, the site's owner and the call's request id (neither table accepts changes).
 */
export async function logEvent(
  db: Queryable,
  e: {
    requestId: number;
    at: Date;
    actor: string | null;
    event: ImpersonationStep;
    status: string;
    clientAddress?: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  const details = JSON.stringify(e.details ?? {});
  await db.query(
    `INSERT INTO impersonation_log (request_id, at, actor, event, status, client_address, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [e.requestId, e.at, e.actor, e.event, e.status, e.clientAddress ?? null, details],
  );
  await recordImpersonationStep(db, { ...e, details: e.details ?? {} });
}

export interface LogEntryRow {
  id: number;
  request_id: number;
  app_name: string;
  status: string;
  event: string;
  actor: string | null;
  at: Date;
  details: Record<string, unknown>;
  expires_at: Date | null;
  current_status: StoredStatus;
  /** Whether this is the request's newest entry. */
  latest: boolean;
  /** The entry's order key as PostgreSQL writes it (a cursor carries it). */
  list_key: string;
}

/** The newest step of an expired grant, which reads Expired whatever the step's own status. */
const expiredStep = (now: string) =>
  `(l.id = r.last_log_id AND ${displayStatusIs('r', () => now, 'Expired')})`;

/** The order of a slice of the log: by Id (its own order, newest first), RequestId, time or site name; ties by Id. */
export interface LogOrder {
  key: 'id' | 'request' | 'modified' | 'app';
  descending: boolean;
}
const LOG_KEYS = {
  request: { sql: 'l.request_id', type: 'bigint' },
  modified: { sql: 'l.at', type: 'timestamptz' },
} as const;

/** What every slice of the log filters on. */
interface LogSlice {
  now: Date;
  status?: LogStatus;
  /** The highest entry an export reads (the last when it began). */
  upTo?: string;
  limit: number;
}

/** The page's entries with their requests and sites, in the page's order. */
const joinLogPage = (
  page: string,
  dir: string,
) => `SELECT l.id, l.request_id, s.app_name, l.status, l.event, l.actor, l.at, l.details, r.expires_at,
       r.status AS current_status, l.id = r.last_log_id AS latest, page.list_at::text AS list_key
     FROM (${page}) page
     JOIN impersonation_log l ON l.id = page.id JOIN impersonation_requests r ON r.id = l.request_id
     JOIN sites s ON s.app_id = r.app_id
     ORDER BY page.ord ${dir}, page.id ${dir}`;

/** The status filter of the log at `now` (SQL of the instant), on l and its request r. */
function logStatusIs(status: LogStatus, now: string): string {
  return status === 'Expired' ? expiredStep(now) : `l.status = '${status}' AND NOT ${expiredStep(now)}`;
}

/**
 * Expired for a walk of the log in another order than by Id: whether entry l is the newest of an
 * expired grant, asked of its request per entry as the walk goes. Written as a scalar subquery,
 * which the planner keeps per row: as a join it hashed every expired grant's newest entry and
 * sorted them (0.7 s at 1,000,000 entries) instead of walking the order's index.
 */
const expiredEntry = (now: string) =>
  `(SELECT true FROM impersonation_requests r WHERE r.id = l.request_id AND ${expiredStep(now)}) IS NOT NULL`;

/**
 * A page of the impersonation log in its order (by default newest first), after the entry `after`,
 * showing `status` at `now` if given. Each filter walks an index in order: by Id, the log's by
 * status, or for Expired the approved requests' newest entries (last_log_id, kept by a trigger);
 * by request or time, (request_id, id) and (at, id) and the same within a status.
 */
export async function logEntries(
  db: Queryable,
  q: LogSlice & { order?: LogOrder; after?: { key: string; id: string } },
): Promise<LogEntryRow[]> {
  const order = q.order ?? { key: 'id', descending: true };
  if (order.key === 'app') return logEntriesByApp(db, { ...q, descending: order.descending });
  const { params, p } = binder();
  const dir = order.descending ? 'DESC' : 'ASC';
  const cmp = order.descending ? '<' : '>';
  const where: string[] = [];
  if (order.key === 'id') {
    const expired = q.status === 'Expired';
    // Expired entries are the approved requests' newest ones, found and ordered through the request.
    const id = expired ? 'r.last_log_id' : 'l.id';
    if (q.status) where.push(logStatusIs(q.status, `${p(q.now)}::timestamptz`));
    for (const [bound, op] of [
      [q.after?.id, cmp],
      [q.upTo, '<='],
    ] as const) {
      if (bound === undefined) continue;
      // on both sides of l.id = r.last_log_id: the planner does not carry a range across it
      const b = p(bound);
      where.push(`${id} ${op} ${b}::bigint`);
      if (expired) where.push(`l.id ${op} ${b}::bigint`);
    }
    // The page is cut from the log (and its requests, for the status) before it is joined to sites.
    const page = `SELECT ${id} AS id, ${id} AS ord, ${id} AS list_at
           FROM ${expired ? 'impersonation_requests r JOIN impersonation_log l ON l.id = r.last_log_id' : 'impersonation_log l JOIN impersonation_requests r ON r.id = l.request_id'}
           ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY ${id} ${dir} LIMIT ${p(q.limit)}`;
    return (await db.query<LogEntryRow>(joinLogPage(page, dir), params)).rows;
  }
  const key = LOG_KEYS[order.key];
  const expired = q.status === 'Expired';
  if (q.status) {
    const now = `${p(q.now)}::timestamptz`;
    where.push(expired ? expiredEntry(now) : logStatusIs(q.status, now));
  }
  if (q.after)
    where.push(`(${key.sql}, l.id) ${cmp} (${p(q.after.key)}::${key.type}, ${p(q.after.id)}::bigint)`);
  if (q.upTo !== undefined) where.push(`l.id <= ${p(q.upTo)}::bigint`);
  const page = `SELECT l.id, ${key.sql} AS ord, ${key.sql} AS list_at
         FROM impersonation_log l${expired ? '' : ' JOIN impersonation_requests r ON r.id = l.request_id'}
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY ${key.sql} ${dir}, l.id ${dir} LIMIT ${p(q.limit)}`;
  return (await db.query<LogEntryRow>(joinLogPage(page, dir), params)).rows;
}

/**
 * A page of the log by site name (lower(AppName), then Id), after the entry `after.id` of site
 * `after.key`: the rest of that site, then the sites after it in name order, each site's entries
 * walked by Id (impersonation_log_app_idx) and cut to the page.
 */
async function logEntriesByApp(
  db: Queryable,
  q: LogSlice & { descending: boolean; after?: { key: string; id: string } },
): Promise<LogEntryRow[]> {
  const { params, p } = binder();
  const dir = q.descending ? 'DESC' : 'ASC';
  const cmp = q.descending ? '<' : '>';
  const where: string[] = [];
  const expired = q.status === 'Expired';
  if (q.status) {
    const now = `${p(q.now)}::timestamptz`;
    where.push(expired ? expiredEntry(now) : logStatusIs(q.status, now));
  }
  if (q.upTo !== undefined) where.push(`l.id <= ${p(q.upTo)}::bigint`);
  const from = `impersonation_log l ${q.status && !expired ? 'JOIN impersonation_requests r ON r.id = l.request_id' : ''}`;
  const and = where.map((w) => ` AND ${w}`).join('');
  const limit = p(q.limit);
  const afterApp = q.after ? p(q.after.key) : undefined;
  const afterName = afterApp && `(SELECT lower(app_name) FROM sites WHERE app_id = ${afterApp}::bigint)`;
  const sites = `SELECT app_id, lower(app_name) AS k FROM sites
      ${afterName ? `WHERE lower(app_name) ${cmp} ${afterName}` : ''} ORDER BY lower(app_name) ${dir}`;
  const rest = `SELECT x.id, s.k AS ord, s.app_id AS list_at FROM (${sites}) s
      CROSS JOIN LATERAL (SELECT l.id FROM ${from} WHERE l.app_id = s.app_id${and} ORDER BY l.id ${dir} LIMIT ${limit}) x
      ORDER BY s.k ${dir}, x.id ${dir} LIMIT ${limit}`;
  const page = afterName
    ? `SELECT * FROM ((SELECT l.id, ${afterName} AS ord, l.app_id AS list_at FROM ${from}
         WHERE l.app_id = ${afterApp}::bigint AND l.id ${cmp} ${p(q.after!.id)}::bigint${and}
         ORDER BY l.id ${dir} LIMIT ${limit})
       UNION ALL (${rest})) u ORDER BY ord ${dir}, id ${dir} LIMIT ${limit}`
    : rest;
  return (await db.query<LogEntryRow>(joinLogPage(page, dir), params)).rows;
}

/** How many entries the log holds under a status filter, up to entry `upTo` (an export's row count). */
export async function countLogEntries(
  db: Queryable,
  q: { now: Date; status?: LogStatus; upTo: string },
): Promise<number> {
  const { params, p } = binder();
  const where = [`l.id <= ${p(q.upTo)}::bigint`];
  if (q.status) where.push(logStatusIs(q.status, `${p(q.now)}::timestamptz`));
  const r = await db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM impersonation_log l JOIN impersonation_requests r ON r.id = l.request_id
       JOIN sites s ON s.app_id = r.app_id WHERE ${where.join(' AND ')}`,
    params,
  );
  return Number(r.rows[0]!.n);
}

/** The newest log entry's Id ('0' when none): where an export stops. */
export async function lastLogId(db: Queryable): Promise<string> {
  const r = await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM impersonation_log');
  return r.rows[0]?.id ?? '0';
}

export interface SiteLogRow {
  request_id: number;
  event: string;
  actor: string | null;
  at: Date;
  client_address: string | null;
}

/** The newest 1,000 log entries of a site's requests. */
export async function logOfSite(db: Queryable, appId: number): Promise<SiteLogRow[]> {
  const r = await db.query<SiteLogRow>(
    `SELECT l.request_id, l.event, l.actor, l.at, l.client_address FROM impersonation_log l
     JOIN impersonation_requests r ON r.id = l.request_id WHERE r.app_id = $1 ORDER BY l.id DESC LIMIT 1000`,
    [appId],
  );
  return r.rows;
}

export interface RequestSite {
  app_id: number;
  app_name: string;
  owner_email: string;
  first_name: string;
}

const REQUEST_SITE = `SELECT s.app_id, s.app_name, c.email AS owner_email, c.first_name
  FROM sites s JOIN customers c ON c.uid = s.owner_uid`;

/**
 * The lock of a request's site (`lock`): the site row FOR UPDATE (a request opened or edited on the
 * site waits for another's commit, so the roles other live requests hold are read under it) and
 * the owner's row FOR SHARE (the address the consent mail goes to is the owner's until commit).
 */
const SITE_LOCK = ' FOR UPDATE OF s FOR SHARE OF c';

/** A site and its owner, to whom requests for it are mailed; `lock` takes the site's lock. */
export async function findRequestSite(
  db: Queryable,
  appId: number,
  lock = false,
): Promise<RequestSite | undefined> {
  const r = await db.query<RequestSite>(`${REQUEST_SITE} WHERE s.app_id = $1${lock ? SITE_LOCK : ''}`, [
    appId,
  ]);
  return r.rows[0];
}

/**
 * The site whose API key and secret (its hash) these are, and its owner: the current secret, or
 * the one a rotation replaced while its grace lasts (at `now`).
 */
export async function findRequestSiteByKey(
  db: Queryable,
  apiKey: string,
  secretHash: Buffer,
  now: Date,
  lock = false,
): Promise<RequestSite | undefined> {
  const r = await db.query<RequestSite>(
    `${REQUEST_SITE} WHERE s.api_key = $1
       AND (s.secret_hash = $2 OR (s.previous_secret_hash = $2 AND s.previous_secret_until > $3))${lock ? SITE_LOCK : ''}`,
    [apiKey, secretHash, now],
  );
  return r.rows[0];
}

/** The emails of every staff member holding the SuperAdmin role, sorted. */
export async function superAdminEmails(db: Queryable): Promise<string[]> {
  return (await superAdmins(db)).map((x) => x.email);
}

/** The staff holding SuperAdmin, by email: the possible assignees of a request. */
export async function superAdmins(db: Queryable): Promise<Array<{ email: string; full_name: string }>> {
  const r = await db.query<{ email: string; full_name: string }>(
    "SELECT s.email, s.full_name FROM staff s JOIN staff_roles r ON r.uid = s.uid WHERE r.role = 'SuperAdmin' ORDER BY s.email",
  );
  return r.rows;
}
