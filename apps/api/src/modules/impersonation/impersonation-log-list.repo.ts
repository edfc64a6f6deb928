import type { LOG_STATUSES } from '@sac/contract/impersonation-api';
import type { SiteScope } from '@sac/contract/role-scopes';
import { type Selectable, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { firstRow, isoText, qb, rows } from '../../db/sql.ts';
import { binder, displayStatusIs, fragment, inScopes, type PageRows } from './impersonation-lists.repo.ts';

/**
 * The impersonation log, filtered, ordered and paged in SQL with a keyset cursor, as the request
 * list is (impersonation-lists.repo.ts): each page cut by a statement assembled from the filters
 * and sort, which reads the entries with their requests (LogPageRow), then joined to its sites by a
 * typed statement.
 */

type LogStatus = (typeof LOG_STATUSES)[number];

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
  /** Role scopes the entry's site must be in (role-scopes.ts); none: every site. */
  scopes?: readonly (readonly SiteScope[])[];
  limit: number;
}

type Entry = Selectable<DB['impersonation_log']>;
type Request = Selectable<DB['impersonation_requests']>;

/**
 * A row of a cut page of the log: the entry, what its request gives its row (the site, and the
 * state its status at an instant is read from: logStatusOf), and the page's order keys (`ord`, and
 * `list_at` for a cursor). Every cut selects LOG_PAGE_COLUMNS and the two keys, from the entry l
 * joined to its request r: the entries are read once, where the page is cut, rather than cut as
 * Ids and each looked up again with its request (twice the page's time in the database).
 */
interface LogPageRow
  extends Pick<Entry, 'id' | 'request_id' | 'at' | 'actor' | 'event' | 'status' | 'details'> {
  site_id: Request['app_id'];
  current_status: Request['status'];
  expires_at: Request['expires_at'];
  /** Whether the entry is its request's newest (which reads Expired once its grant has). */
  latest: boolean;
  ord: unknown;
  list_at: unknown;
}
const LOG_PAGE_COLUMNS = `l.id, l.request_id, l.at, l.actor, l.event, l.status, l.details,
  r.app_id AS site_id, r.status AS current_status, r.expires_at, l.id = r.last_log_id AS latest`;

/** A cut page's entries with their sites, in the page's order (each site looked up by its key). */
const pageWithSites = (page: string, params: readonly unknown[], dir: 'asc' | 'desc') =>
  qb
    .selectFrom(sql<LogPageRow>`(${fragment(page, params)})`.as('l'))
    .orderBy('l.ord', dir)
    .orderBy('l.id', dir)
    .innerJoinLateral(
      (eb) =>
        eb.selectFrom('sites as x').selectAll('x').whereRef('x.app_id', '=', 'l.site_id').offset(0).as('s'),
      (join) => join.onTrue(),
    );

/** What every row of the log has: the entry and, for its status, its request's (logStatusOf). */
const ENTRY = [
  'l.id',
  'l.request_id',
  's.app_name',
  'l.status',
  'l.event',
  'l.actor',
  'l.current_status',
  'l.latest',
] as const;

/** The row's order key as PostgreSQL writes it, microseconds kept (a cursor carries it). */
const LOG_LIST_KEY = sql<string>`l.list_at::text`.as('list_key');

/** The log's rows: each entry whole, with what its status at an instant needs. */
export const logListRows = (db: Queryable, page: string, params: readonly unknown[], dir: 'asc' | 'desc') =>
  rows(
    db,
    pageWithSites(page, params, dir).select([...ENTRY, 'l.at', 'l.details', 'l.expires_at', LOG_LIST_KEY]),
  );

export type LogEntryRow = Awaited<ReturnType<typeof logListRows>>[number];

/**
 * An export file's rows: the fields its lines show, its times as the wire's ISO text made by the
 * database, without the details (as fileRows is to the request list).
 */
export const logFileRows = (db: Queryable, page: string, params: readonly unknown[], dir: 'asc' | 'desc') =>
  rows(
    db,
    pageWithSites(page, params, dir).select([
      ...ENTRY,
      isoText('l.at').as('at'),
      isoText('l.expires_at').$castTo<string | null>().as('expires_at'),
      LOG_LIST_KEY,
    ]),
  );

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
export async function logEntries<R>(
  db: Queryable,
  q: LogSlice & { order?: LogOrder; after?: { key: string; id: string } },
  read: PageRows<R>,
): Promise<R[]> {
  const order = q.order ?? { key: 'id', descending: true };
  if (order.key === 'app') return logEntriesByApp(db, { ...q, descending: order.descending }, read);
  const { params, p } = binder();
  const dir = order.descending ? 'DESC' : 'ASC';
  const cmp = order.descending ? '<' : '>';
  const where: string[] = [];
  if (order.key === 'id') {
    const expired = q.status === 'Expired';
    // Expired entries are the approved requests' newest ones, found and ordered through the request.
    const id = expired ? 'r.last_log_id' : 'l.id';
    if (q.status) where.push(logStatusIs(q.status, `${p(q.now)}::timestamptz`));
    where.push(...inScopes(q.scopes, 'l.app_id', p));
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
    const page = `SELECT ${LOG_PAGE_COLUMNS}, ${id} AS ord, ${id} AS list_at
           FROM ${expired ? 'impersonation_requests r JOIN impersonation_log l ON l.id = r.last_log_id' : 'impersonation_log l JOIN impersonation_requests r ON r.id = l.request_id'}
           ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY ${id} ${dir} LIMIT ${p(q.limit)}`;
    return read(db, page, params, order.descending ? 'desc' : 'asc');
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
  where.push(...inScopes(q.scopes, 'l.app_id', p));
  const page = `SELECT ${LOG_PAGE_COLUMNS}, ${key.sql} AS ord, ${key.sql} AS list_at
         FROM impersonation_log l JOIN impersonation_requests r ON r.id = l.request_id
         ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY ${key.sql} ${dir}, l.id ${dir} LIMIT ${p(q.limit)}`;
  return read(db, page, params, order.descending ? 'desc' : 'asc');
}

/**
 * A page of the log by site name (lower(AppName), then Id), after the entry `after.id` of site
 * `after.key`: the rest of that site, then the sites after it in name order, each site's entries
 * walked by Id (impersonation_log_app_idx) and cut to the page.
 */
async function logEntriesByApp<R>(
  db: Queryable,
  q: LogSlice & { descending: boolean; after?: { key: string; id: string } },
  read: PageRows<R>,
): Promise<R[]> {
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
  where.push(...inScopes(q.scopes, 'l.app_id', p));
  const from = 'impersonation_log l JOIN impersonation_requests r ON r.id = l.request_id';
  const and = where.map((w) => ` AND ${w}`).join('');
  const limit = p(q.limit);
  const afterApp = q.after ? p(q.after.key) : undefined;
  const afterName = afterApp && `(SELECT lower(app_name) FROM sites WHERE app_id = ${afterApp}::bigint)`;
  const sites = `SELECT app_id, lower(app_name) AS k FROM sites
      ${afterName ? `WHERE lower(app_name) ${cmp} ${afterName}` : ''} ORDER BY lower(app_name) ${dir}`;
  const rest = `SELECT x.*, s.k AS ord, s.app_id AS list_at FROM (${sites}) s
      CROSS JOIN LATERAL (SELECT ${LOG_PAGE_COLUMNS} FROM ${from} WHERE l.app_id = s.app_id${and} ORDER BY l.id ${dir} LIMIT ${limit}) x
      ORDER BY s.k ${dir}, x.id ${dir} LIMIT ${limit}`;
  const page = afterName
    ? `SELECT * FROM ((SELECT ${LOG_PAGE_COLUMNS}, ${afterName} AS ord, l.app_id AS list_at FROM ${from}
         WHERE l.app_id = ${afterApp}::bigint AND l.id ${cmp} ${p(q.after!.id)}::bigint${and}
         ORDER BY l.id ${dir} LIMIT ${limit})
       UNION ALL (${rest})) u ORDER BY ord ${dir}, id ${dir} LIMIT ${limit}`
    : rest;
  return read(db, page, params, q.descending ? 'desc' : 'asc');
}

/** How many entries the log holds under a status filter, up to entry `upTo` (an export's row count). */
export async function countLogEntries(
  db: Queryable,
  q: { now: Date; status?: LogStatus; upTo: string; scopes?: readonly (readonly SiteScope[])[] },
): Promise<number> {
  const { params, p } = binder();
  const where = [`l.id <= ${p(q.upTo)}::bigint`];
  if (q.status) where.push(logStatusIs(q.status, `${p(q.now)}::timestamptz`));
  where.push(...inScopes(q.scopes, 'l.app_id', p));
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
