import {
  DISPLAY_STATUSES,
  IMPERSONATION_LIST_PAGE_SIZE,
  LOG_STATUSES,
} from '@sac/contract/impersonation-api';
import {
  type ListSort,
  type LOG_SORT_KEYS,
  type REQUEST_SORT_KEYS,
  sortParam,
} from '@sac/contract/list-sort';
import { type SiteScope, scopeFor } from '@sac/contract/role-scopes';
import type { AppContext, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import {
  badCursor,
  DIGITS,
  decodeCursor,
  encodeCursor,
  literal,
  oneOf,
  type PartRule,
  PG_TIMESTAMP,
  text,
} from '../../lib/keyset-cursor.ts';
import { findRequests } from './impersonation.repo.ts';
import { type DisplayStatus, type LogStatus, logEntryOut, toWire } from './impersonation.wire.ts';
import {
  listRows,
  type PageRows,
  pageRequests,
  pageRequestsByApp,
  type RequestOrder,
} from './impersonation-lists.repo.ts';
import { type LogOrder, logEntries, logListRows } from './impersonation-log-list.repo.ts';

/** A group of the request list: the display statuses it lists, walked in the group's order. */
interface ListGroup {
  tag: string;
  statuses: readonly DisplayStatus[];
}
/** The groups of the request list in spec section 4's order: live first, then the rest. */
const LIST_GROUPS = [
  { tag: 'L', statuses: ['Pending', 'Approved'] },
  { tag: 'D', statuses: ['Rejected', 'Revoked', 'Expired'] },
] as const satisfies readonly ListGroup[];
/** A customers' list is one group by modified date. */
const CUSTOMER_GROUP = { tag: 'C', statuses: [] } as const;
/** The display statuses by name, the groups of sort=status (each by Id). */
const STATUSES_BY_NAME = [...DISPLAY_STATUSES].sort();

/** How a list is read: its groups in order, and the order within each. */
interface ListPlan {
  groups: readonly ListGroup[];
  /** Absent: the list's own order. */
  order?: RequestOrder;
  /** sort=app: by site name, then Id. */
  byApp?: boolean;
  /** What a cursor's key part must be. */
  key: PartRule<string>;
}

function listPlan(sort: RequestSort | undefined, customerOnly: boolean): ListPlan {
  if (customerOnly) return { groups: [CUSTOMER_GROUP], key: PG_TIMESTAMP };
  if (!sort) return { groups: LIST_GROUPS, key: PG_TIMESTAMP };
  const descending = sort.descending;
  const all = [{ tag: 'A', statuses: DISPLAY_STATUSES }];
  switch (sort.key) {
    case 'status': {
      const names = descending ? [...STATUSES_BY_NAME].reverse() : STATUSES_BY_NAME;
      return {
        groups: names.map((s) => ({ tag: s, statuses: [s] })),
        order: { key: 'id', descending },
        key: DIGITS,
      };
    }
    case 'app':
      // the cursor's key is the last row's site (app_id), whose name is read back
      return { groups: all, byApp: true, key: DIGITS };
    case 'priority':
      return { groups: all, order: { key: 'priority', descending }, key: text(/^[1-4]$/) };
    case 'modified':
      return { groups: all, order: { key: 'modified', descending }, key: PG_TIMESTAMP };
    case 'id':
      return { groups: all, order: { key: 'id', descending }, key: DIGITS };
  }
}

/**
 * A list cursor: kind, the instant the list is read at (its first page's: a grant expiring while
 * one pages neither repeats nor goes missing), under a sort its `sort` value, the group, the last
 * row's key and Id. The list's own order keeps the cursors it gave before sorting existed ('r1').
 */
/** The instant a list is read at, in milliseconds. */
const INSTANT = text(/^\d{1,15}$/);

function requestCursorOf(cursor: string, now: Date, plan: ListPlan, sort: RequestSort | undefined) {
  const group = oneOf(plan.groups.map((g) => g.tag));
  // under a sort, the sort's value comes after the instant
  let asOf: string, tag: string, key: string, id: string;
  if (sort) {
    const rules = [literal('r2'), INSTANT, literal(sortParam(sort)), group, plan.key, DIGITS] as const;
    [, asOf, , tag, key, id] = decodeCursor(cursor, rules);
  } else {
    [, asOf, tag, key, id] = decodeCursor(cursor, [literal('r1'), INSTANT, group, plan.key, DIGITS]);
  }
  if (Number(asOf) > now.getTime()) badCursor();
  return { asOf: new Date(Number(asOf)), group: tag, after: { key, id } };
}

const cursorOfRow = (
  sort: RequestSort | undefined,
  asOf: Date,
  group: string,
  key: string,
  id: number | string,
): string =>
  encodeCursor(
    sort
      ? ['r2', String(asOf.getTime()), sortParam(sort), group, key, String(id)]
      : ['r1', String(asOf.getTime()), group, key, String(id)],
  );

/**
 * Requests by Id, each with its machine state and whether it is in `scope`: what a bulk job's
 * dry run judges (modules/bulk), in one read.
 */
export function requestsById(db: Queryable, ids: readonly number[], scope?: readonly SiteScope[]) {
  return findRequests(db, ids, scope);
}
export { type RequestRow, stateOf } from './impersonation.repo.ts';

type RequestSort = ListSort<(typeof REQUEST_SORT_KEYS)[number]>;
type LogSort = ListSort<(typeof LOG_SORT_KEYS)[number]>;
export interface RequestListQuery {
  status?: DisplayStatus;
  appId?: number;
  requestId?: number;
  /** Only these requests (an export of a selection). */
  ids?: readonly number[];
  sort?: RequestSort;
}

/**
 * Which requests a viewer's list and export read: an approver every request, anyone else those
 * they made or are assigned; a scoped approver (role-scopes.ts) those and every request of the
 * sites in their approval scope; and a scoped viewer only requests of sites in their scope.
 * Nothing more for an unscoped caller, whose statements stay as they were.
 */
export function visibility(viewer: StaffSession) {
  const approver = viewer.permissions.has('impersonation.approve');
  const approveScope = approver ? scopeFor(viewer.scopes, 'impersonation.approve') : undefined;
  return {
    visibleTo: approver && !approveScope ? undefined : viewer.email,
    ...(approveScope ? { visibleIn: approveScope } : {}),
    ...(viewer.scope ? { scopes: [viewer.scope] } : {}),
  };
}

/** What a list read may be told: the instant its statuses are read at, and the statements' reader (an export's snapshot). */
interface ReadOptions {
  asOf?: Date;
  db?: Queryable;
}

/**
 * Rows of the request list from a position on (the start, or a cursor's), up to `limit` and one
 * more when there are more, each with its group: the pages and the export read through it, each
 * with the rows it shows (`read`: the list's whole requests, or an export file's fields).
 */
export async function readRequestList<R extends { id: string | number; list_key: string }>(
  ctx: AppContext,
  viewer: StaffSession,
  q: RequestListQuery & { cursor?: string; upTo?: number },
  limit: number,
  read: PageRows<R>,
  opts: ReadOptions & { customerOnly?: boolean } = {},
) {
  const customerOnly = opts.customerOnly ?? false;
  const db = opts.db ?? ctx.db;
  const now = opts.asOf ?? ctx.clock.now();
  const plan = listPlan(q.sort, customerOnly);
  const from = q.cursor ? requestCursorOf(q.cursor, now, plan, q.sort) : undefined;
  const asOf = from?.asOf ?? now;
  const start = from ? plan.groups.findIndex((g) => g.tag === from.group) : 0;
  const rows: Array<{ row: R; group: string }> = [];
  // One row more than a page tells whether a next page exists; a group continues into the next.
  for (const g of plan.groups.slice(start)) {
    if (rows.length > limit) break;
    const statuses = g.statuses.filter((s) => !q.status || s === q.status);
    if (!customerOnly && statuses.length === 0) continue;
    const slice = {
      now: asOf,
      statuses,
      ...visibility(viewer),
      customerOnly,
      appId: q.appId,
      requestId: q.requestId,
      ...(q.ids ? { ids: q.ids } : {}),
      upTo: q.upTo,
      after: from && g.tag === from.group ? from.after : undefined,
      limit: limit + 1 - rows.length,
    };
    const got = plan.byApp
      ? await pageRequestsByApp(db, { ...slice, descending: q.sort!.descending }, read)
      : await pageRequests(db, { ...slice, order: plan.order }, read);
    rows.push(...got.map((row) => ({ row, group: g.tag })));
  }
  const last = rows.length > limit ? rows[limit - 1]! : undefined;
  return {
    asOf,
    rows: rows.slice(0, limit).map((r) => r.row),
    next: last ? cursorOfRow(q.sort, asOf, last.group, last.row.list_key, last.row.id) : null,
  };
}

/** The Ids of the requests the list shows `viewer` under `q`, in its order, at most `limit`. */
export async function listedRequestIds(
  ctx: AppContext,
  viewer: StaffSession,
  q: RequestListQuery,
  limit: number,
): Promise<number[]> {
  return (await readRequestList(ctx, viewer, q, limit, listRows)).rows.map((r) => Number(r.id));
}

/**
 * GET /admin/impersonation/requests (and the customers' list): one page in spec section 4's order
 * or the asked sort, filtered and ordered in SQL, with the cursor of the next. Visibility:
 * approvers see every request; anyone else those they made or are assigned.
 */
export async function list(
  ctx: AppContext,
  viewer: StaffSession,
  q: RequestListQuery & { cursor?: string; limit?: number },
  customerOnly = false,
) {
  const page = await readRequestList(ctx, viewer, q, q.limit ?? IMPERSONATION_LIST_PAGE_SIZE, listRows, {
    customerOnly,
  });
  return {
    Data: page.rows.map((r) => toWire(r, page.asOf, ctx.config.impersonationReasons)),
    NextCursor: page.next,
  };
}

/** The log's groups under sort=status: each status shown, by name, walked by Id. */
const LOG_STATUSES_BY_NAME = [...LOG_STATUSES].sort();

/**
 * Entries of the log from a position on (the start, or a cursor's), up to `limit` and one more
 * when there are more: the pages and the export read through it. A cursor: kind, the instant the
 * log is read at, under a sort its `sort` value and group, the last entry's key and Id. The log's
 * own order keeps the cursors it gave before sorting existed ('l1').
 */
export async function readLog<R extends { id: string | number; list_key: string }>(
  ctx: AppContext,
  q: { status?: LogStatus; sort?: LogSort; cursor?: string; upTo?: string; scope?: readonly SiteScope[] },
  limit: number,
  read: PageRows<R>,
  opts: ReadOptions = {},
) {
  const now = opts.asOf ?? ctx.clock.now();
  const sort = q.sort;
  const groups: readonly string[] =
    sort?.key === 'status'
      ? sort.descending
        ? [...LOG_STATUSES_BY_NAME].reverse()
        : LOG_STATUSES_BY_NAME
      : ['A'];
  const order: LogOrder = !sort
    ? { key: 'id', descending: true }
    : { key: sort.key === 'status' ? 'id' : sort.key, descending: sort.descending };
  const keyRule = order.key === 'modified' ? PG_TIMESTAMP : DIGITS;
  let asOf = now;
  let from: { group: string; after: { key: string; id: string } } | undefined;
  if (q.cursor) {
    if (sort) {
      const [, at, , group, key, id] = decodeCursor(q.cursor, [
        literal('l2'),
        INSTANT,
        literal(sortParam(sort)),
        oneOf(groups),
        keyRule,
        DIGITS,
      ]);
      asOf = new Date(Number(at));
      from = { group, after: { key, id } };
    } else {
      const [, at, id] = decodeCursor(q.cursor, [literal('l1'), INSTANT, DIGITS]);
      asOf = new Date(Number(at));
      from = { group: 'A', after: { key: id, id } };
    }
    if (asOf.getTime() > now.getTime()) badCursor();
  }
  const rows: Array<{ row: R; group: string }> = [];
  for (const g of groups.slice(from ? groups.indexOf(from.group) : 0)) {
    if (rows.length > limit) break;
    const status = sort?.key === 'status' ? (g as LogStatus) : q.status;
    if (q.status && status !== q.status) continue;
    const got = await logEntries(
      opts.db ?? ctx.db,
      {
        now: asOf,
        status,
        order,
        upTo: q.upTo,
        ...(q.scope ? { scopes: [q.scope] } : {}),
        after: from && g === from.group ? from.after : undefined,
        limit: limit + 1 - rows.length,
      },
      read,
    );
    rows.push(...got.map((row) => ({ row, group: g })));
  }
  const last = rows.length > limit ? rows[limit - 1]! : undefined;
  const at = String(asOf.getTime());
  return {
    asOf,
    rows: rows.slice(0, limit).map((r) => r.row),
    next: !last
      ? null
      : sort
        ? encodeCursor(['l2', at, sortParam(sort), last.group, last.row.list_key, String(last.row.id)])
        : encodeCursor(['l1', at, String(last.row.id)]),
  };
}

/** GET /admin/impersonation/logs: one page, newest first or in the asked sort, with the cursor of the next. */
export async function logs(
  ctx: AppContext,
  viewer: StaffSession,
  q: { status?: LogStatus; sort?: LogSort; cursor?: string; limit?: number },
) {
  // a scoped reader reads the entries of the sites in their scope (role-scopes.ts)
  const page = await readLog(
    ctx,
    { ...q, scope: viewer.scope },
    q.limit ?? IMPERSONATION_LIST_PAGE_SIZE,
    logListRows,
  );
  return { Data: page.rows.map((x) => logEntryOut(x, page.asOf)), NextCursor: page.next };
}

/**
 * GET /admin/impersonation/reasons: the reason codes and the case's rule of the operator's
 * settings, for the request and edit forms (the server checks the same: access-reasons.ts).
 */
export async function reasonSettings(ctx: AppContext) {
  const r = ctx.config.impersonationReasons;
  return {
    Data: {
      ReasonCodes: r.codes.map((c) => ({ Code: c.Code, Label: c.Label })),
      CaseRequired: r.caseRequired,
      CaseUrlPattern: r.caseUrlPattern,
    },
  };
}
