import type { DisplayStatus, StoredStatus } from '@sac/contract/impersonation';
import { DISPLAY_STATUSES, type LOG_STATUSES } from '@sac/contract/impersonation-api';
import { type InferResult, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, qb, rows } from '../../db/sql.ts';
import { REQUEST_COLUMNS } from './impersonation.repo.ts';

/**
 * The request list and the impersonation log, filtered, ordered and paged in SQL with a keyset
 * cursor. Each page is cut by a statement assembled from the request's filters and sort (a walk
 * per status, merged), then joined to its rows by a typed statement.
 */

type LogStatus = (typeof LOG_STATUSES)[number];
const DISPLAY_STATUS_COUNT = DISPLAY_STATUSES.length;

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

/**
 * The conditions a list walks, one branch each, for the display statuses asked. Approved and
 * Expired together are every stored approval: one walk of the approvals in order, rather than two
 * that each step over the other's rows (a page of live approvals read every expired one after the
 * cursor, so an export of every status grew with the square of the approvals).
 */
function statusWalks(statuses: readonly DisplayStatus[]): Array<(now: () => string) => string> {
  const both = statuses.includes('Approved') && statuses.includes('Expired');
  return [
    ...(both ? [() => `r.status = 'Approved'`] : []),
    ...statuses
      .filter((s) => !both || (s !== 'Approved' && s !== 'Expired'))
      .map((s) => (now: () => string) => displayStatusIs('r', now, s)),
  ];
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

/** Parameters of one statement, bound in order: `p(v)` binds v and answers its placeholder. */
function binder() {
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  return { params, p };
}

/**
 * SQL text assembled with binder()'s placeholders as a fragment of a typed statement: each
 * placeholder becomes its value, bound where the statement puts it.
 */
function fragment(text: string, params: readonly unknown[]) {
  const parts = text.split(/\$(\d+)/);
  return sql.join(
    parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${params[Number(part) - 1]}`)),
    sql.raw(''),
  );
}

/** A page of Ids, in its order by `ord`; `list_at` is the key a cursor carries. */
const pageOf = (page: string, params: readonly unknown[]) =>
  sql<{ id: number; ord: unknown; list_at: unknown }>`(${fragment(page, params)})`.as('page');

/**
 * The page's rows, with their sites and owners, in the page's order. Each is looked up by its key
 * for each row of the page, a nested loop that OFFSET 0 keeps: joined plainly, an export's page of
 * 2,000 was hashed against every request (and merged with the sites in key order), reading the
 * whole table for every page.
 */
const joinPage = (page: string, params: readonly unknown[], dir: 'asc' | 'desc') =>
  qb
    .selectFrom(pageOf(page, params))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('impersonation_requests as x')
          .selectAll('x')
          .whereRef('x.id', '=', 'page.id')
          .offset(0)
          .as('r'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb.selectFrom('sites as x').selectAll('x').whereRef('x.app_id', '=', 'r.app_id').offset(0).as('s'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('customers as x')
          .selectAll('x')
          .whereRef('x.uid', '=', 's.owner_uid')
          .offset(0)
          .as('o'),
      (join) => join.onTrue(),
    )
    // The row's order key as PostgreSQL writes it, microseconds kept (a cursor carries it).
    .select([...REQUEST_COLUMNS, sql<string>`page.list_at::text`.as('list_key')])
    .orderBy('page.ord', dir)
    .orderBy('page.id', dir);

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
) {
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
  const shown = q.customerOnly ? [''] : statusWalks(q.statuses).map((s) => ` AND ${s(now)}`);
  const branches = shown.flatMap((status) =>
    visible.map((v) => `(${keys} WHERE ${where.join(' AND ')}${status}${v} ${orderBy})`),
  );
  if (branches.length === 0) return [];
  const page = `SELECT id, ord, ord AS list_at FROM (${branches.join(' UNION ALL ')}) x ORDER BY ord ${dir}, id ${dir} LIMIT ${limit}`;
  return rows(db, joinPage(page, params, order.descending ? 'desc' : 'asc'));
}

export type ListedRequestRow = Awaited<ReturnType<typeof pageRequests>>[number];

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
  return rows(db, joinPage(page, params, q.descending ? 'desc' : 'asc'));
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
  const r = await firstRow(
    db,
    qb
      .selectFrom('impersonation_requests as r')
      .innerJoin('sites as s', 's.app_id', 'r.app_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(sql<boolean>`${fragment(where.join(' AND '), params)}`),
  );
  return Number(r?.n ?? 0);
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

/**
 * The page's entries with their requests and sites, in the page's order, each looked up by its key
 * for each entry (a nested loop, as joinPage's).
 */
const joinLogPage = (page: string, params: readonly unknown[], dir: 'asc' | 'desc') =>
  qb
    .selectFrom(pageOf(page, params))
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('impersonation_log as x')
          .selectAll('x')
          .whereRef('x.id', '=', 'page.id')
          .offset(0)
          .as('l'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('impersonation_requests as x')
          .selectAll('x')
          .whereRef('x.id', '=', 'l.request_id')
          .offset(0)
          .as('r'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb.selectFrom('sites as x').selectAll('x').whereRef('x.app_id', '=', 'r.app_id').offset(0).as('s'),
      (join) => join.onTrue(),
    )
    .select([
      'l.id',
      'l.request_id',
      's.app_name',
      'l.status',
      'l.event',
      'l.actor',
      'l.at',
      'l.details',
      'r.expires_at',
      'r.status as current_status',
      // Whether this is the request's newest entry.
      sql<boolean>`l.id = r.last_log_id`.as('latest'),
      // The entry's order key as PostgreSQL writes it (a cursor carries it).
      sql<string>`page.list_at::text`.as('list_key'),
    ])
    .orderBy('page.ord', dir)
    .orderBy('page.id', dir);

export type LogEntryRow = InferResult<ReturnType<typeof joinLogPage>>[number];

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
    return rows(db, joinLogPage(page, params, order.descending ? 'desc' : 'asc'));
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
  return rows(db, joinLogPage(page, params, order.descending ? 'desc' : 'asc'));
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
  return rows(db, joinLogPage(page, params, q.descending ? 'desc' : 'asc'));
}

/** How many entries the log holds under a status filter, up to entry `upTo` (an export's row count). */
export async function countLogEntries(
  db: Queryable,
  q: { now: Date; status?: LogStatus; upTo: string },
): Promise<number> {
  const { params, p } = binder();
  const where = [`l.id <= ${p(q.upTo)}::bigint`];
  if (q.status) where.push(logStatusIs(q.status, `${p(q.now)}::timestamptz`));
  const r = await firstRow(
    db,
    qb
      .selectFrom('impersonation_log as l')
      .innerJoin('impersonation_requests as r', 'r.id', 'l.request_id')
      .innerJoin('sites as s', 's.app_id', 'r.app_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(sql<boolean>`${fragment(where.join(' AND '), params)}`),
  );
  return Number(r?.n ?? 0);
}
