import type { DisplayStatus, StoredStatus } from '@sac/contract/impersonation';
import { DISPLAY_STATUSES } from '@sac/contract/impersonation-api';
import type { SiteScope } from '@sac/contract/role-scopes';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, isoText, qb, rows } from '../../db/sql.ts';
import { REQUEST_COLUMNS } from './impersonation.repo.ts';

/**
 * The request list (and, in impersonation-log-list.repo.ts, the impersonation log), filtered,
 * ordered and paged in SQL with a keyset cursor. Each page is cut by a statement assembled from
 * the request's filters and sort (a walk per status, merged), then joined to its rows by a typed
 * statement.
 */
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
  /** With visibleTo: also the requests of the sites in this scope (a scoped approver's). */
  visibleIn?: readonly SiteScope[];
  customerOnly?: boolean;
  appId?: number;
  requestId?: number;
  /** Only these requests (an export of a selection). */
  ids?: readonly number[];
  /** The highest Id an export reads (the last when it began). */
  upTo?: number;
  /** Role scopes the request's site must be in, each of them (role-scopes.ts); none: every site. */
  scopes?: readonly (readonly SiteScope[])[];
  limit: number;
}

/**
 * The condition that the site `appId` (SQL) is in each of `scopes`, as text with `p`'s placeholders:
 * site-scope.ts's rule for these string-built lists. Nothing at all for an unscoped caller.
 */
export function inScopes(
  scopes: readonly (readonly SiteScope[])[] | undefined,
  appId: string,
  p: (v: unknown) => string,
) {
  return (scopes ?? []).map((scope) => {
    if (scope.length === 0) return 'false';
    const entries = scope.map((e) => {
      const parts: string[] = [];
      if (e.dataCenters) parts.push(`sc.data_center = ANY(${p([...e.dataCenters])}::text[])`);
      if (e.plans) parts.push(`sc.plan::text = ANY(${p([...e.plans])}::text[])`);
      return parts.length === 0 ? 'true' : `(${parts.join(' AND ')})`;
    });
    return `EXISTS (SELECT 1 FROM sites sc WHERE sc.app_id = ${appId} AND (${entries.join(' OR ')}))`;
  });
}

/** Parameters of one statement, bound in order: `p(v)` binds v and answers its placeholder. */
export function binder() {
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
export function fragment(text: string, params: readonly unknown[]) {
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
 * The page's requests with their sites, in the page's order. Each is looked up by its key for each
 * row of the page, a nested loop that OFFSET 0 keeps: joined plainly, an export's page of 2,000
 * was hashed against every request (and merged with the sites in key order), reading the whole
 * table for every page.
 */
const pageWithSites = (page: string, params: readonly unknown[], dir: 'asc' | 'desc') =>
  qb
    .selectFrom(pageOf(page, params))
    .orderBy('page.ord', dir)
    .orderBy('page.id', dir)
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
    );

/** The row's order key as PostgreSQL writes it, microseconds kept (a cursor carries it). */
const LIST_KEY = sql<string>`page.list_at::text`.as('list_key');

/** How a page of Ids (its SQL and parameters) becomes its rows, in the page's order. */
export type PageRows<R> = (
  db: Queryable,
  page: string,
  params: readonly unknown[],
  dir: 'asc' | 'desc',
) => Promise<R[]>;

/** The list's rows: whole requests with their sites and the sites' owners. */
export const listRows = (db: Queryable, page: string, params: readonly unknown[], dir: 'asc' | 'desc') =>
  rows(
    db,
    pageWithSites(page, params, dir)
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
      .select([...REQUEST_COLUMNS, LIST_KEY]),
  );

/**
 * An export file's rows: the fields its lines show, its times as the wire's ISO text made by the
 * database and the assignees joined as the file writes them, rather than whole requests parsed
 * (Dates, arrays, the owner) to be written back for every row.
 */
export const fileRows = (db: Queryable, page: string, params: readonly unknown[], dir: 'asc' | 'desc') =>
  rows(
    db,
    pageWithSites(page, params, dir).select([
      'r.id',
      's.app_name',
      'r.priority',
      'r.status',
      'r.initiator_email',
      sql<string>`array_to_string(r.assignees, '; ')`.as('assignees'),
      isoText('r.created_at').as('created_at'),
      isoText('r.modified_at').as('modified_at'),
      isoText('r.expires_at').$castTo<string | null>().as('expires_at'),
      'r.reason_code',
      'r.case_reference',
      LIST_KEY,
    ]),
  );

/**
 * One slice of the request list, in its order, after the key `after`: the requests (not deleted)
 * showing one of `statuses` at `now`, each status read off an index through its stored status,
 * merged by the order's key, then Id (by default newest first by the last action or change;
 * customers' own requests: by modified date). Visibility is the caller's: requests they made or
 * are assigned.
 */
export async function pageRequests<R>(
  db: Queryable,
  q: RequestSlice & { order?: RequestOrder; after?: { key: string; id: string } },
  read: PageRows<R>,
): Promise<R[]> {
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
    const assigned = `r.assignees @> ARRAY[${v}::text]`;
    visible = [` AND ${asked}`, ` AND ${assigned} AND NOT ${asked}`];
    // a scoped approver's third walk: the rest of the requests of the sites in their scope
    if (q.visibleIn)
      visible.push(` AND ${inScopes([q.visibleIn], 'r.app_id', p)[0]} AND NOT ${asked} AND NOT ${assigned}`);
  }
  if (q.customerOnly) where.push('r.is_customer_request');
  if (q.appId !== undefined) where.push(`r.app_id = ${p(q.appId)}`);
  if (q.requestId !== undefined) where.push(`r.id = ${p(q.requestId)}`);
  if (q.ids) where.push(`r.id = ANY(${p(q.ids)}::bigint[])`);
  if (q.upTo !== undefined) where.push(`r.id <= ${p(q.upTo)}::bigint`);
  where.push(...inScopes(q.scopes, 'r.app_id', p));
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
  return read(db, page, params, order.descending ? 'desc' : 'asc');
}

/**
 * One slice of the request list by site name (sort=app: lower(AppName), then Id), after the row of
 * site `after.key` and Id `after.id`: the rest of that site, then the sites after it in name order,
 * each site's requests walked by Id (impersonation_requests_app_id_idx) and cut to the page. A
 * requester's few requests are found through their indexes and sorted instead.
 */
export async function pageRequestsByApp<R>(
  db: Queryable,
  q: RequestSlice & { descending: boolean; after?: { key: string; id: string } },
  read: PageRows<R>,
): Promise<R[]> {
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
    const within = q.visibleIn ? ` OR ${inScopes([q.visibleIn], 'r.app_id', p)[0]}` : '';
    where.push(`(lower(r.initiator_email) = lower(${v}) OR r.assignees @> ARRAY[${v}::text]${within})`);
  }
  if (q.appId !== undefined) where.push(`r.app_id = ${p(q.appId)}`);
  if (q.requestId !== undefined) where.push(`r.id = ${p(q.requestId)}`);
  if (q.ids) where.push(`r.id = ANY(${p(q.ids)}::bigint[])`);
  if (q.upTo !== undefined) where.push(`r.id <= ${p(q.upTo)}::bigint`);
  where.push(...inScopes(q.scopes, 'r.app_id', p));
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
  return read(db, page, params, q.descending ? 'desc' : 'asc');
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
    const within = q.visibleIn ? ` OR ${inScopes([q.visibleIn], 'r.app_id', p)[0]}` : '';
    where.push(`(lower(r.initiator_email) = lower(${v}) OR r.assignees @> ARRAY[${v}::text]${within})`);
  }
  if (q.customerOnly) where.push('r.is_customer_request');
  if (q.appId !== undefined) where.push(`r.app_id = ${p(q.appId)}`);
  if (q.requestId !== undefined) where.push(`r.id = ${p(q.requestId)}`);
  if (q.ids) where.push(`r.id = ANY(${p(q.ids)}::bigint[])`);
  if (q.upTo !== undefined) where.push(`r.id <= ${p(q.upTo)}::bigint`);
  where.push(...inScopes(q.scopes, 'r.app_id', p));
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
