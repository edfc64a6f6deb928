import type { ImpersonationStep } from '@sac/contract/audit';
import { consolePaths } from '@sac/contract/console-paths';
import {
  type ImpersonationEvent,
  type Priority,
  type RevokeAction,
  transition,
} from '@sac/contract/impersonation';
import {
  type createImpersonationBody,
  type customerRequestBody,
  DISPLAY_STATUSES,
  type editImpersonationBody,
  formatExpiry,
  IMPERSONATION_LIST_PAGE_SIZE,
  type impersonationActionBody,
  LOG_STATUSES,
  IMPERSONATION_MESSAGES as M,
} from '@sac/contract/impersonation-api';
import {
  type ListSort,
  type LOG_SORT_KEYS,
  type REQUEST_SORT_KEYS,
  sortParam,
} from '@sac/contract/list-sort';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { badCursor, DIGITS, decodeCursor, encodeCursor, PG_TIMESTAMP } from '../../lib/keyset-cursor.ts';
import { hashSecret } from '../../lib/secrets.ts';
import { runWrite } from '../../lib/write-path.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { approverStanding, COOL_DOWN, findStaffByEmail } from '../auth/staff.service.ts';
import { customerRoleCatalogue } from '../customers/sites.service.ts';
import { notifyStaff } from '../staff-notifications/staff-notifications.service.ts';
import {
  assignedRequestMail,
  consentRequestMail,
  customerRequestAssignedMail,
  customerRequestReceivedMail,
  decisionMail,
  ownerDecisionMail,
} from './impersonation.mails.ts';
import {
  findRequest,
  findRequestSite,
  findRequestSiteByKey,
  insertRequest,
  type RequestRow,
  type RequestSite,
  recordHolder,
  rolesHeldByOthers,
  saveState,
  stateOf,
  superAdminEmails,
  superAdmins,
} from './impersonation.repo.ts';
import { actionOut, type DisplayStatus, type LogStatus, logEntryOut, toWire } from './impersonation.wire.ts';
import { issueConsentLink } from './impersonation-consent.service.ts';
import {
  type ListedRequestRow,
  type LogEntryRow,
  type LogOrder,
  logEntries,
  pageRequests,
  pageRequestsByApp,
  type RequestOrder,
} from './impersonation-lists.repo.ts';
import { logEvent } from './impersonation-steps.ts';
import { issueSiteAccessLink } from './site-access.service.ts';
import { refuse } from './transition-refusal.ts';

/** What a request asks for, as both staff and customers send it. */
interface RequestContents {
  Priority: Priority;
  Description: string;
  Assignees: string[];
  ProxyRoles: string[];
  AdditionalPermissions: string[];
  Duration: number;
}

/** Assignees are SuperAdmins; roles and permissions are the customer roles' own. */
async function checkRequestContents(
  db: Queryable,
  appId: number,
  exceptId: number | null,
  d: { Assignees: string[]; ProxyRoles: string[]; AdditionalPermissions: string[] },
  now: Date,
) {
  for (const email of d.Assignees) {
    const s = await findStaffByEmail(db, email);
    if (!s?.roles.includes(ROLE_SUPER_ADMIN))
      throw new AppError('impersonationInvalid', `${M.notApproverAssignee} (${email})`);
  }
  const roles = await customerRoleCatalogue(db);
  const roleNames = roles.map((r) => r.name);
  const permissionNames = [...new Set(roles.flatMap((r) => Object.keys(r.permissions)))];
  const unknownRoles = d.ProxyRoles.filter((r) => !roleNames.includes(r));
  if (unknownRoles.length)
    throw new AppError('impersonationInvalid', `There is no customer role ${unknownRoles.join(', ')}.`);
  const unknownPerms = d.AdditionalPermissions.filter((p) => !permissionNames.includes(p));
  if (unknownPerms.length)
    throw new AppError('impersonationInvalid', `There is no permission ${unknownPerms.join(', ')}.`);
  const held = await rolesHeldByOthers(db, appId, exceptId, now);
  const taken = d.ProxyRoles.filter((r) => held.includes(r));
  if (taken.length) throw new AppError('impersonationConflict', `${M.roleTaken}: ${taken.join(', ')}.`);
}

/** The site a request is opened on and what it asks, read under the site's lock. */
interface Opening {
  site: RequestSite;
  data: RequestContents;
}

/**
 * Opens a request through the write path: under the lock of its site (found and locked by `site`,
 * which refuses a site that is not there) the request's contents are checked, the roles other
 * live requests of the site hold among them; then the request is inserted with the owner's
 * consent link (unless the request carries the consent) and a site-access link, and logged, and
 * the notifications and mails are queued. The mails are kept with the request, or neither.
 * Answers the new request's id and its site as read under the lock.
 */
async function openRequest(
  ctx: AppContext,
  caller: Caller,
  o: {
    /** The request's site, read and locked in the write's transaction; throws when there is none. */
    site: (tx: Queryable) => Promise<RequestSite>;
    /** What the request asks, given its site (a customer's goes to every SuperAdmin, read under the lock). */
    data: (tx: Queryable, site: RequestSite) => Promise<RequestContents>;
    initiator: (site: RequestSite) => { uid: string | null; email: string };
    /** A customer's own request: it is their consent. */
    fromCustomer: boolean;
    origin: string | undefined;
    now: Date;
    /** The owner's mail, and the assignees' (left out for those who chose in-app only). */
    mails: (
      id: number,
      opened: Opening,
      links: { consent: string | null; siteAccess: string },
    ) => { owner: MailMessage; assignees: MailMessage[] };
  },
): Promise<{ id: number; site: RequestSite }> {
  const now = o.now;
  return runWrite(ctx.db, {
    lock: async (tx): Promise<Opening> => {
      const site = await o.site(tx);
      const data = await o.data(tx, site);
      await checkRequestContents(tx, Number(site.app_id), null, data, now);
      return { site, data };
    },
    change: async (tx, { site, data: d }) => {
      const appId = Number(site.app_id);
      const id = await insertRequest(tx, {
        appId,
        initiator: o.initiator(site),
        isCustomerRequest: o.fromCustomer,
        consent: o.fromCustomer ? { at: now, address: caller.clientAddress } : null,
        priority: d.Priority,
        description: d.Description,
        assignees: d.Assignees,
        proxyRoles: d.ProxyRoles,
        additionalPermissions: d.AdditionalPermissions,
        durationMinutes: d.Duration,
        at: now,
      });
      const consent = o.fromCustomer ? null : await issueConsentLink(tx, ctx, id, o.origin, now);
      const siteAccess = await issueSiteAccessLink(tx, ctx, appId, o.origin, now);
      return { id, site, links: { consent, siteAccess } };
    },
    trail: async (tx, { id, links }, opened) => {
      const d = opened.data;
      const initiator = o.initiator(opened.site);
      await logEvent(tx, {
        requestId: id,
        at: now,
        actor: initiator.email,
        event: o.fromCustomer ? 'customer-request' : 'request',
        status: 'Pending',
        clientAddress: caller.clientAddress,
        details: {
          appId: Number(opened.site.app_id),
          roles: d.ProxyRoles,
          permissions: d.AdditionalPermissions,
          duration: d.Duration,
          ...(o.fromCustomer ? { consent: 'given by the request' } : {}),
        },
      });
      // "Assigned to me", in the bell of each assignee but the one who asks.
      const inAppOnly = await notifyStaff(tx, ctx, {
        kind: 'assigned',
        to: d.Assignees.map((email) => ({ email })),
        actorEmail: o.fromCustomer ? null : initiator.email,
        requestId: id,
        appName: opened.site.app_name,
      });
      const mails = o.mails(id, opened, links);
      await ctx.mailer.send(tx, mails.owner);
      for (const mail of mails.assignees)
        if (!inAppOnly.has(mail.to.toLowerCase())) await ctx.mailer.send(tx, mail);
    },
  });
}

/** A staff member asks for access: the owner is mailed a consent link, the assignees are told. */
/** The links of the mails go to the console at `origin` (the call's Origin header). */
export async function create(
  ctx: AppContext,
  call: StaffCall,
  input: z.output<typeof createImpersonationBody> & { origin: string | undefined },
) {
  const actor = call.session;
  const { origin } = input;
  const d = input.data;
  const now = ctx.clock.now();
  const { id, site } = await openRequest(ctx, call, {
    // The site and its owner under the site's lock: the consent mail goes to the owner at commit.
    site: async (tx) => {
      const site = await findRequestSite(tx, d.AppId, true);
      if (!site) throw new AppError('notFound', 'There is no site with that AppId.');
      return site;
    },
    data: async () => d,
    initiator: () => ({ uid: actor.uid, email: actor.email }),
    fromCustomer: false,
    origin,
    now,
    mails: (requestId, { site }, links) => {
      const access = {
        appName: site.app_name,
        requester: { name: actor.name, email: actor.email },
        description: d.Description,
        roles: d.ProxyRoles,
        permissions: d.AdditionalPermissions,
        durationMinutes: d.Duration,
      };
      return {
        owner: consentRequestMail({
          to: site.owner_email,
          firstName: site.first_name,
          requestId,
          access,
          consentUrl: links.consent!,
          siteAccessUrl: links.siteAccess,
        }),
        assignees: d.Assignees.map((to) =>
          assignedRequestMail({
            to,
            requestId,
            access,
            assignedRequestsUrl: consolePageFor(
              ctx.config,
              origin,
              consolePaths.impersonationRequests(),
            ).toString(),
          }),
        ),
      };
    },
  });
  const row = await findRequest(ctx.db, id);
  return { Data: toWire(row!, now), Message: M.created(id, site.app_name) };
}

/**
 * A customer asks for help: their site's API key and secret authenticate the call, and the
 * request itself is their consent. It goes to every SuperAdmin; the one who approves it helps.
 */
export async function customerRequest(
  ctx: AppContext,
  call: Caller,
  input: z.output<typeof customerRequestBody> & {
    apiKey: string | undefined;
    apiSecret: string | undefined;
    origin: string | undefined;
  },
) {
  const { apiKey, apiSecret, origin } = input;
  const d = input.data;
  const now = ctx.clock.now();
  const valid = /^[0-9a-f-]{36}$/i.test(apiKey ?? '') && (apiSecret ?? '') !== '';
  if (!valid) throw new AppError('customerAuthFailed');
  const { id, site } = await openRequest(ctx, call, {
    // The key and secret are checked under the site's lock: a rotation that ends them waits.
    site: async (tx) => {
      const site = await findRequestSiteByKey(tx, apiKey!.toLowerCase(), hashSecret(apiSecret!), now, true);
      if (!site) throw new AppError('customerAuthFailed');
      return site;
    },
    data: async (tx) => ({ ...d, Assignees: await superAdminEmails(tx) }),
    initiator: (site) => ({ uid: null, email: site.owner_email }),
    fromCustomer: true,
    origin,
    now,
    mails: (requestId, { site, data }, links) => ({
      owner: customerRequestReceivedMail({
        to: site.owner_email,
        firstName: site.first_name,
        requestId,
        appName: site.app_name,
        durationMinutes: d.Duration,
        siteAccessUrl: links.siteAccess,
      }),
      assignees: data.Assignees.map((to) =>
        customerRequestAssignedMail({
          to,
          requestId,
          appName: site.app_name,
          ownerEmail: site.owner_email,
          description: d.Description,
          roles: d.ProxyRoles,
          durationMinutes: d.Duration,
        }),
      ),
    }),
  });
  const row = await findRequest(ctx.db, id);
  return { Data: toWire(row!, now), Message: M.customerRequested(id, site.app_name) };
}

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
  key: { test(part: string): boolean };
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
      return { groups: all, order: { key: 'priority', descending }, key: /^[1-4]$/ };
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
function requestCursorOf(cursor: string, now: Date, plan: ListPlan, sort: RequestSort | undefined) {
  const group = { test: (x: string) => plan.groups.some((g) => g.tag === x) };
  const parts = sort
    ? decodeCursor(cursor, [
        /^r2$/,
        /^\d{1,15}$/,
        { test: (x: string) => x === sortParam(sort) },
        group,
        plan.key,
        DIGITS,
      ])
    : decodeCursor(cursor, [/^r1$/, /^\d{1,15}$/, group, plan.key, DIGITS]);
  // under a sort, the sort's value comes after the instant
  const [asOf, tag, key, id] = sort ? [parts[1], parts[3], parts[4], parts[5]] : parts.slice(1);
  if (Number(asOf) > now.getTime()) badCursor();
  return { asOf: new Date(Number(asOf)), group: tag!, after: { key: key!, id: id! } };
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

type RequestSort = ListSort<(typeof REQUEST_SORT_KEYS)[number]>;
type LogSort = ListSort<(typeof LOG_SORT_KEYS)[number]>;
export interface RequestListQuery {
  status?: DisplayStatus;
  appId?: number;
  requestId?: number;
  sort?: RequestSort;
}

/** What a list read may be told: the instant its statuses are read at, and the statements' reader (an export's snapshot). */
interface ReadOptions {
  asOf?: Date;
  db?: Queryable;
}

/**
 * Rows of the request list from a position on (the start, or a cursor's), up to `limit` and one
 * more when there are more, each with its group: the pages and the export read through it.
 */
export async function readRequestList(
  ctx: AppContext,
  viewer: StaffSession,
  q: RequestListQuery & { cursor?: string; upTo?: number },
  limit: number,
  opts: ReadOptions & { customerOnly?: boolean } = {},
) {
  const customerOnly = opts.customerOnly ?? false;
  const db = opts.db ?? ctx.db;
  const now = opts.asOf ?? ctx.clock.now();
  const plan = listPlan(q.sort, customerOnly);
  const from = q.cursor ? requestCursorOf(q.cursor, now, plan, q.sort) : undefined;
  const asOf = from?.asOf ?? now;
  const start = from ? plan.groups.findIndex((g) => g.tag === from.group) : 0;
  const rows: Array<{ row: ListedRequestRow; group: string }> = [];
  // One row more than a page tells whether a next page exists; a group continues into the next.
  for (const g of plan.groups.slice(start)) {
    if (rows.length > limit) break;
    const statuses = g.statuses.filter((s) => !q.status || s === q.status);
    if (!customerOnly && statuses.length === 0) continue;
    const slice = {
      now: asOf,
      statuses,
      visibleTo: viewer.permissions.has('impersonation.approve') ? undefined : viewer.email,
      customerOnly,
      appId: q.appId,
      requestId: q.requestId,
      upTo: q.upTo,
      after: from && g.tag === from.group ? from.after : undefined,
      limit: limit + 1 - rows.length,
    };
    const got = plan.byApp
      ? await pageRequestsByApp(db, { ...slice, descending: q.sort!.descending })
      : await pageRequests(db, { ...slice, order: plan.order });
    rows.push(...got.map((row) => ({ row, group: g.tag })));
  }
  const last = rows.length > limit ? rows[limit - 1]! : undefined;
  return {
    asOf,
    rows: rows.slice(0, limit).map((r) => r.row),
    next: last ? cursorOfRow(q.sort, asOf, last.group, last.row.list_key, last.row.id) : null,
  };
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
  const page = await readRequestList(ctx, viewer, q, q.limit ?? IMPERSONATION_LIST_PAGE_SIZE, {
    customerOnly,
  });
  return { Data: page.rows.map((r) => toWire(r, page.asOf)), NextCursor: page.next };
}

/** Separation of duties: a new SuperAdmin approves only once the cool-down since the promotion has passed. */
async function checkCoolDown(ctx: AppContext, db: Queryable, actor: StaffSession, now: Date) {
  const s = await approverStanding(db, actor.uid, now, ctx.config.approverCoolDownMs);
  if (s.since && s.canApproveFrom) {
    throw Object.assign(
      new AppError(
        'approverCoolingDown',
        M.approverCoolingDown(
          formatExpiry(s.since.toISOString()),
          formatExpiry(s.canApproveFrom.toISOString()),
        ),
      ),
      { missing: COOL_DOWN },
    );
  }
}

/** The log step of each decision. */
const STEP_OF_ACTION = { Approve: 'approve', Reject: 'reject', Revoke: 'revoke' } as const satisfies Record<
  string,
  ImpersonationStep
>;

/**
 * Applies one machine event to a request through the write path: the request's row locked
 * FOR UPDATE and every check that decides the event made under that lock (the transition, the
 * version the form was read at, the approver's cool-down, for an edit the roles other requests of
 * the site hold, under the site's lock too); then the new state, the log and trail rows and the
 * mails it causes, in one transaction. Answers the row before and after.
 */
async function applyEvent(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  requestId: number,
  event: ImpersonationEvent,
  opts: {
    logEvent: ImpersonationStep;
    details?: Record<string, unknown>;
    reason?: string;
    action?: boolean;
    checkRoles?: string[];
    /** The request's Version the form was read at (If-Match); a newer one refuses the event (930). */
    expectedVersion?: number;
    /** Work of the same transaction once the new state is saved (the mails it causes). */
    alsoInTransaction?: (tx: Queryable, after: RequestRow, before: RequestRow) => Promise<void>;
  },
): Promise<{ before: RequestRow; after: RequestRow }> {
  const now = ctx.clock.now();
  return runWrite(ctx.db, {
    lock: async (tx) => {
      const row = await findRequest(tx, requestId, true);
      if (!row) throw new AppError('notFound', 'There is no impersonation request with that id.');
      const r = transition(stateOf(row), event, now.getTime());
      if (!r.ok) refuse(r.error);
      // After the transition's own refusal, which says more (an edit of a request approved meanwhile).
      if (opts.expectedVersion !== undefined && row.version !== opts.expectedVersion)
        throw new AppError('conflict');
      if (event.type === 'approve') await checkCoolDown(ctx, tx, actor, now);
      if (opts.checkRoles) {
        // The roles other live requests of the site hold, read under the site's lock: a request
        // opened or edited on the site at the same moment waits, and then sees this one's roles.
        await findRequestSite(tx, Number(row.app_id), true);
        await checkRequestContents(
          tx,
          Number(row.app_id),
          requestId,
          {
            Assignees: r.state.assignees,
            ProxyRoles: opts.checkRoles,
            AdditionalPermissions: r.state.additionalPermissions,
          },
          now,
        );
      }
      return { row, state: r.state };
    },
    change: async (tx, { row, state }) => {
      await saveState(tx, requestId, state, {
        at: now,
        ...(opts.action ? { actionBy: actor.email } : {}),
        ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
      });
      if (event.type === 'approve') {
        // The grant's holder, once and for all: the requester, or on a customer's own request (no
        // staff requester) the approver. Later actions change action_taken_by, never the holder.
        await recordHolder(
          tx,
          requestId,
          row.is_customer_request
            ? { uid: actor.uid, email: actor.email }
            : { uid: row.initiator_uid, email: row.initiator_email },
        );
      }
      const after = (await findRequest(tx, requestId)) ?? { ...row, deleted_at: now };
      return { before: row, after };
    },
    trail: async (tx, done, { state }) => {
      await logEvent(tx, {
        requestId,
        at: now,
        actor: actor.email,
        event: opts.logEvent,
        status: state.deleted ? 'Deleted' : state.status,
        clientAddress: caller.clientAddress,
        details: opts.details ?? {},
      });
      await opts.alsoInTransaction?.(tx, done.after, done.before);
    },
  });
}

/** The request's Version the form was read at is the call's If-Match. */
export async function edit(
  ctx: AppContext,
  call: StaffCall,
  input: { requestId: number } & z.output<typeof editImpersonationBody>,
) {
  const actor = call.session;
  const { requestId } = input;
  const body = input;
  const { after } = await applyEvent(
    ctx,
    call,
    actor,
    requestId,
    {
      type: 'edit',
      actor: actor.email,
      proxyRoles: body.ProxyRoles,
      additionalPermissions: body.AdditionalPermissions,
      assignees: body.Assignees,
      priority: body.Priority,
      description: body.Description,
    },
    {
      logEvent: 'edit',
      details: { roles: body.ProxyRoles, permissions: body.AdditionalPermissions, assignees: body.Assignees },
      checkRoles: body.ProxyRoles,
      expectedVersion: call.expectedVersion,
      // "Assigned to me" for those the edit adds.
      alsoInTransaction: async (tx, after, before) => {
        const had = new Set(before.assignees.map((a) => a.toLowerCase()));
        const added = after.assignees.filter((a) => !had.has(a.toLowerCase()));
        await notifyStaff(tx, ctx, {
          kind: 'assigned',
          to: added.map((email) => ({ email })),
          actorEmail: actor.email,
          requestId,
          appName: after.app_name,
          mail: {
            subject: `Impersonation request ${requestId} on ${after.app_name} is assigned to you`,
            lines: [`${actor.email} assigned you impersonation request ${requestId} on ${after.app_name}.`],
            path: consolePaths.impersonationRequests({ request: requestId }),
          },
        });
      },
    },
  );
  return {
    Data: toWire(after as RequestRow, ctx.clock.now()),
    Message: M.updated(requestId, after.app_name),
  };
}

export async function remove(ctx: AppContext, call: StaffCall, input: { requestId: number }) {
  const actor = call.session;
  const { requestId } = input;
  const { before } = await applyEvent(
    ctx,
    call,
    actor,
    requestId,
    { type: 'delete', actor: actor.email },
    { logEvent: 'delete' },
  );
  return { IsDeleted: true, Id: requestId, Message: M.deleted(requestId, before.app_name) };
}

/** Approve, reject or revoke; the staff member concerned and the owner are mailed in the same transaction. */
export async function act(
  ctx: AppContext,
  call: StaffCall,
  input: {
    requestId: number;
    revokeAction?: RevokeAction | undefined;
    body: z.output<typeof impersonationActionBody>;
  },
) {
  const actor = call.session;
  const { requestId, revokeAction, body } = input;
  const isApprover = actor.permissions.has('impersonation.approve');
  let event: ImpersonationEvent;
  if (body.Status === 'Approve') {
    event = {
      type: 'approve',
      actor: actor.email,
      actorIsApprover: isApprover,
      roles: body.ProxyRoles,
      permissions: body.AdditionalPermissions,
      durationMinutes: body.Duration,
    };
  } else if (body.Status === 'Reject') {
    event = { type: 'reject', actor: actor.email, actorIsApprover: isApprover };
  } else {
    event = {
      type: 'revoke',
      actor: actor.email,
      actorIsApprover: isApprover,
      action: revokeAction ?? 'site',
      roles: body.ProxyRoles,
      permissions: body.AdditionalPermissions,
    };
  }
  const now = ctx.clock.now();
  let message = '';
  let newUser = false;
  /** The mails of the action, written in its transaction: kept with the new state, or neither. */
  const mail = async (tx: Queryable, after: RequestRow) => {
    const wire = toWire(after, now);
    const initiator = await findStaffByEmail(tx, after.initiator_email);
    newUser = !initiator?.last_login_at;
    const expires = wire.Action.ExpiresAt ? formatExpiry(wire.Action.ExpiresAt) : '';
    message =
      body.Status === 'Approve'
        ? M.approved(
            requestId,
            after.app_name,
            wire.Action.ApprovedProxyRoles.length,
            wire.Action.ApprovedAdditionalPermissions.length,
            expires,
            newUser,
          )
        : body.Status === 'Reject'
          ? M.rejected(requestId, after.app_name)
          : after.status === 'Revoked'
            ? M.revoked(requestId, after.app_name)
            : M.partlyRevoked(requestId, after.app_name);
    // The staff member told: the grant's holder once there is one (on a customer's own request the
    // approving SuperAdmin, who needs no mail of their own approval), else the requester.
    const staffTo =
      body.Status === 'Reject' ? after.initiator_email : (after.holder_email ?? after.initiator_email);
    // In their bell too (never the actor's own): approved or rejected, or revoked.
    const inAppOnly = await notifyStaff(tx, ctx, {
      kind: body.Status === 'Revoke' ? 'revoked' : 'decided',
      to: [{ email: staffTo }],
      actorEmail: actor.email,
      requestId,
      appName: after.app_name,
      details: {
        status:
          body.Status === 'Revoke'
            ? after.status === 'Revoked'
              ? 'Revoked'
              : 'PartlyRevoked'
            : body.Status === 'Approve'
              ? 'Approved'
              : 'Rejected',
        ...(body.Status === 'Approve' && wire.Action.ExpiresAt ? { expiresAt: wire.Action.ExpiresAt } : {}),
      },
    });
    if (
      !(body.Status === 'Approve' && staffTo.toLowerCase() === actor.email.toLowerCase()) &&
      !inAppOnly.has(staffTo.toLowerCase())
    ) {
      await ctx.mailer.send(
        tx,
        decisionMail({ to: staffTo, requestId, status: wire.Action.Status, message }),
      );
    }
    if (body.Status !== 'Reject') {
      const owner = { to: after.owner_email, appName: after.app_name, status: wire.Action.Status };
      await ctx.mailer.send(
        tx,
        body.Status === 'Approve'
          ? ownerDecisionMail({ ...owner, approved: true, roles: wire.Action.ApprovedProxyRoles, expires })
          : ownerDecisionMail({ ...owner, approved: false, inPart: after.status === 'Approved' }),
      );
    }
  };
  const { after } = await applyEvent(ctx, call, actor, requestId, event, {
    logEvent: STEP_OF_ACTION[body.Status],
    details: { ...body, ...(body.Status === 'Revoke' ? { revokeAction: revokeAction ?? 'site' } : {}) },
    reason: body.Comments,
    action: true,
    alsoInTransaction: mail,
  });
  const wire = toWire(after as RequestRow, now);
  return {
    Data: actionOut(wire),
    userStatus: newUser ? 'newUser' : 'existingUser',
    Message: message,
    Request: wire,
  };
}

/**
 * The roles other live requests of a site hold, for the request and edit forms of anyone who may
 * request impersonation: the same rule the create and edit calls enforce (945), told up front.
 */
export async function takenRoles(ctx: AppContext, appId: number, exceptId: number | undefined) {
  const roles = await rolesHeldByOthers(ctx.db, appId, exceptId ?? null, ctx.clock.now());
  return { Data: { AppId: appId, Roles: roles.sort() } };
}

/** GET /admin/impersonation/logs: a page of the log, newest first, filtered in SQL, read as of the first page. */
/** The log's groups under sort=status: each status shown, by name, walked by Id. */
const LOG_STATUSES_BY_NAME = [...LOG_STATUSES].sort();

/**
 * Entries of the log from a position on (the start, or a cursor's), up to `limit` and one more
 * when there are more: the pages and the export read through it. A cursor: kind, the instant the
 * log is read at, under a sort its `sort` value and group, the last entry's key and Id. The log's
 * own order keeps the cursors it gave before sorting existed ('l1').
 */
export async function readLog(
  ctx: AppContext,
  q: { status?: LogStatus; sort?: LogSort; cursor?: string; upTo?: string },
  limit: number,
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
        /^l2$/,
        /^\d{1,15}$/,
        { test: (x: string) => x === sortParam(sort) },
        { test: (x: string) => groups.includes(x) },
        keyRule,
        DIGITS,
      ]);
      asOf = new Date(Number(at));
      from = { group: group!, after: { key: key!, id: id! } };
    } else {
      const [, at, id] = decodeCursor(q.cursor, [/^l1$/, /^\d{1,15}$/, DIGITS]);
      asOf = new Date(Number(at));
      from = { group: 'A', after: { key: id!, id: id! } };
    }
    if (asOf.getTime() > now.getTime()) badCursor();
  }
  const rows: Array<{ row: LogEntryRow; group: string }> = [];
  for (const g of groups.slice(from ? groups.indexOf(from.group) : 0)) {
    if (rows.length > limit) break;
    const status = sort?.key === 'status' ? (g as LogStatus) : q.status;
    if (q.status && status !== q.status) continue;
    const got = await logEntries(opts.db ?? ctx.db, {
      now: asOf,
      status,
      order,
      upTo: q.upTo,
      after: from && g === from.group ? from.after : undefined,
      limit: limit + 1 - rows.length,
    });
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
  q: { status?: LogStatus; sort?: LogSort; cursor?: string; limit?: number },
) {
  const page = await readLog(ctx, q, q.limit ?? IMPERSONATION_LIST_PAGE_SIZE);
  return { Data: page.rows.map((x) => logEntryOut(x, page.asOf)), NextCursor: page.next };
}

/**
 * GET /admin/impersonation/approvers: the SuperAdmins a request may be assigned to, by name and
 * email, for anyone who may request (spec section 5: assignees are chosen among them).
 */
export async function approvers(ctx: AppContext) {
  return { Data: (await superAdmins(ctx.db)).map((s) => ({ Email: s.email, Name: s.full_name })) };
}
