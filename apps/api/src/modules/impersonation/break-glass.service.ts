import { reasonOut } from '@sac/contract/access-reasons';
import {
  BREAK_GLASS_CLOSED_DAYS,
  BREAK_GLASS_MAX_MINUTES,
  BREAK_GLASS_REVIEW_HOURS,
  BREAK_GLASS_REVIEWS_PAGE,
  type BreakGlassReviewItem,
  breakGlassReasons,
  type breakGlassReviewsQuery,
  type closeBreakGlassReviewBody,
  BREAK_GLASS_MESSAGES as M,
  type openBreakGlassBody,
  reviewDeadline,
} from '@sac/contract/break-glass';
import { consolePaths } from '@sac/contract/console-paths';
import { displayStatus, type StoredStatus } from '@sac/contract/impersonation';
import { formatExpiry } from '@sac/contract/impersonation-api';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { z } from 'zod';
import type { AppContext, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { DIGITS, decodeCursor, encodeCursor, literal, PG_TIMESTAMP } from '../../lib/keyset-cursor.ts';
import { outOfScope } from '../../lib/site-scope.ts';
import { runWrite } from '../../lib/write-path.ts';
import { superAdminOnly } from '../auth/staff.service.ts';
import {
  announceImpersonationChange,
  notifyStaff,
} from '../staff-notifications/staff-notifications.service.ts';
import { closeReview, openReviews, type ReviewKey, reviewsPage } from './break-glass.repo.ts';
import { breakGlassOwnerMail } from './impersonation.mails.ts';
import {
  findRequest,
  findRequestSite,
  insertRequest,
  type RequestRow,
  type RequestSite,
  type RequestWhy,
  superAdminEmails,
} from './impersonation.repo.ts';
import { toWire } from './impersonation.wire.ts';
import { checkRequestContents } from './impersonation-opening.service.ts';
import { liveGrantOfHolder } from './impersonation-sessions.repo.ts';
import { logEvent } from './impersonation-steps.ts';
import { checkedWhy, whyDetails, whyShown } from './impersonation-why.ts';
import { issueSiteAccessLink } from './site-access.service.ts';

/*
 * Break-glass access (docs/decisions.md "Break-glass access"; contract break-glass.ts): a SuperAdmin
 * opens a grant at once, without consent or approval, for at most 60 minutes; every other
 * SuperAdmin and the site's owner are told in the same transaction; another SuperAdmin closes its
 * review with a note. The grant is an impersonation request stored Approved, so sessions, scope,
 * expiry, the log of every call and revoke are the grants' own.
 */

/** Break-glass is the SuperAdmin's: the role, not only the approve permission a custom role may carry. */
function requireSuperAdmin(actor: StaffSession) {
  if (!actor.roles.includes(ROLE_SUPER_ADMIN)) throw superAdminOnly();
}

const isSame = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/** GET /admin/impersonation/break-glass: on or off, its reasons and bounds, the SuperAdmins told. */
export async function options(ctx: AppContext, call: StaffCall) {
  requireSuperAdmin(call.session);
  const others = (await superAdminEmails(ctx.db)).filter((e) => !isSame(e, call.session.email));
  return {
    Data: {
      Enabled: ctx.config.breakGlassEnabled,
      ReasonCodes: breakGlassReasons(ctx.config.impersonationReasons).codes.map((c) => ({ ...c })),
      MaxMinutes: BREAK_GLASS_MAX_MINUTES,
      ReviewHours: BREAK_GLASS_REVIEW_HOURS,
      SuperAdmins: others,
    },
  };
}

/**
 * POST /admin/impersonation/break-glass. Refused before anything is read: not a SuperAdmin (403),
 * turned off (1180), a reason not break-glass's (1140), no case (1141), over 60 minutes (1181).
 * Under the site's lock: the site in the actor's scope, no live grant of the actor's on the site
 * (1182: never extended or stacked), the roles not held by another live grant (945). Then the
 * grant, the owner's site-access link, and in the same transaction its trail rows, the bell and
 * mail of every other SuperAdmin and the owner's mail.
 */
export async function open(
  ctx: AppContext,
  call: StaffCall,
  body: z.output<typeof openBreakGlassBody> & { origin: string | undefined },
) {
  const actor = call.session;
  requireSuperAdmin(actor);
  if (!ctx.config.breakGlassEnabled) throw new AppError('breakGlassOff');
  const reasons = breakGlassReasons(ctx.config.impersonationReasons);
  const why = checkedWhy(reasons, body, '');
  if (body.Duration > BREAK_GLASS_MAX_MINUTES)
    throw new AppError('breakGlassDuration', M.durationRange, [
      { Field: 'Duration', Message: M.durationRange },
    ]);
  const now = ctx.clock.now();
  const { id, site } = await runWrite(ctx.db, {
    lock: async (tx) => {
      const site = await findRequestSite(tx, body.AppId, true, actor.scope);
      if (!site) throw new AppError('notFound', 'There is no site with that AppId.');
      if (site.in_scope === false) throw outOfScope('a site in scope');
      if (await liveGrantOfHolder(tx, now, body.AppId, actor.uid))
        throw new AppError('breakGlassNoExtension');
      const roles = {
        Assignees: [],
        ProxyRoles: body.ProxyRoles,
        AdditionalPermissions: body.AdditionalPermissions,
      };
      await checkRequestContents(tx, body.AppId, null, roles, now);
      const told = (await superAdminEmails(tx)).filter((e) => !isSame(e, actor.email));
      return { site, told };
    },
    change: async (tx, { site, told }) => {
      const opener = { uid: actor.uid, email: actor.email };
      const id = await insertRequest(tx, {
        appId: body.AppId,
        initiator: opener,
        isCustomerRequest: false,
        consent: null,
        priority: 'Critical',
        description: body.Description,
        why,
        assignees: told,
        proxyRoles: body.ProxyRoles,
        additionalPermissions: body.AdditionalPermissions,
        durationMinutes: body.Duration,
        at: now,
        breakGlass: { holder: opener },
      });
      const siteAccess = await issueSiteAccessLink(tx, ctx, body.AppId, body.origin, now);
      return { id, site, siteAccess };
    },
    trail: (tx, { id, siteAccess }, { site, told }) =>
      tellOfOpening(ctx, tx, call, { id, site, told, siteAccess, body, why, now }),
  });
  const row = (await findRequest(ctx.db, id))!;
  const wire = toWire(row, now, ctx.config.impersonationReasons);
  return { Data: wire, Message: M.opened(id, site.app_name, formatExpiry(wire.Action.ExpiresAt!)) };
}

/**
 * The opening's trail rows and who it tells, in its transaction: the opening (a webhook event),
 * every other SuperAdmin in the bell and by mail (unless they chose in-app only), the owner by
 * mail with the site-access link, and a trail row of who was told.
 */
async function tellOfOpening(
  ctx: AppContext,
  tx: Queryable,
  call: StaffCall,
  o: {
    id: number;
    site: RequestSite;
    told: string[];
    siteAccess: string;
    body: z.output<typeof openBreakGlassBody>;
    why: RequestWhy;
    now: Date;
  },
) {
  const { id, site, told, siteAccess, body, why, now } = o;
  const actor = call.session;
  const reasons = breakGlassReasons(ctx.config.impersonationReasons);
  const expires = formatExpiry(new Date(now.getTime() + body.Duration * 60_000).toISOString());
  const step = {
    requestId: id,
    at: now,
    actor: actor.email,
    status: 'Approved',
    clientAddress: call.clientAddress,
  };
  await logEvent(tx, {
    ...step,
    event: 'break-glass',
    details: {
      appId: body.AppId,
      roles: body.ProxyRoles,
      permissions: body.AdditionalPermissions,
      duration: body.Duration,
      ...whyDetails(why),
    },
  });
  announceImpersonationChange(tx, ctx);
  const shown = whyShown(reasons, why);
  await notifyStaff(tx, ctx, {
    kind: 'break-glass',
    to: told.map((email) => ({ email })),
    actorEmail: actor.email,
    requestId: id,
    appName: site.app_name,
    details: { expiresAt: new Date(now.getTime() + body.Duration * 60_000).toISOString() },
    mail: {
      subject: `Break-glass access ${id} to ${site.app_name} was opened by ${actor.email}`,
      lines: [
        `${actor.email} opened break-glass access ${id} to ${site.app_name} without the owner's consent, until ${expires}.`,
        ...(shown.reason ? [`Reason: ${shown.reason}`] : []),
        ...(shown.caseReference ? [`Case: ${shown.caseReference}`] : []),
        `Roles: ${body.ProxyRoles.join(', ')}`,
        `Another SuperAdmin must close its review with a note within ${BREAK_GLASS_REVIEW_HOURS} hours (the dashboard's break-glass card).`,
      ],
      path: consolePaths.dashboard(),
    },
  });
  await ctx.mailer.send(
    tx,
    breakGlassOwnerMail({
      to: site.owner_email,
      firstName: site.first_name,
      requestId: id,
      appName: site.app_name,
      opener: actor.email,
      why: shown,
      roles: body.ProxyRoles,
      expires,
      siteAccessUrl: siteAccess,
    }),
  );
  // Who was told, a trail row of its own: the SuperAdmins (bell; mail unless in-app only) and the owner.
  await logEvent(tx, {
    ...step,
    event: 'break-glass-told',
    details: {
      appId: body.AppId,
      superAdmins: told,
      owner: site.owner_email,
      channels: ['mail', 'bell', 'webhook'],
    },
  });
}

type ReviewRow = Pick<
  RequestRow,
  | 'id'
  | 'app_id'
  | 'app_name'
  | 'initiator_email'
  | 'created_at'
  | 'reason_code'
  | 'case_reference'
  | 'duration_minutes'
  | 'status'
  | 'expires_at'
  | 'review_closed_at'
  | 'review_closed_by'
  | 'review_note'
>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A break-glass access as its review shows it. */
function reviewItem(ctx: AppContext, r: ReviewRow, now: Date): BreakGlassReviewItem {
  const { dueAt, overdue } = reviewDeadline(r.created_at, r.review_closed_at !== null, now);
  const expiresAt = r.expires_at === null ? null : new Date(r.expires_at).getTime();
  return {
    RequestId: Number(r.id),
    AppId: Number(r.app_id),
    AppName: r.app_name,
    OpenedBy: r.initiator_email,
    OpenedAt: iso(r.created_at)!,
    ...reasonOut(breakGlassReasons(ctx.config.impersonationReasons), r),
    Minutes: r.duration_minutes,
    ExpiresAt: iso(r.expires_at),
    Status: displayStatus({ status: r.status as StoredStatus, expiresAt }, now.getTime()),
    DueAt: dueAt.toISOString(),
    Overdue: overdue,
    ClosedAt: iso(r.review_closed_at),
    ClosedBy: r.review_closed_by,
    Note: r.review_note,
  };
}

/** The dashboard's part (SuperAdmins): the open reviews, the oldest first, and the overdue count. */
export async function reviewQueue(ctx: AppContext) {
  const now = ctx.clock.now();
  const overdueBefore = new Date(now.getTime() - BREAK_GLASS_REVIEW_HOURS * 3_600_000);
  const open = await openReviews(ctx.db, overdueBefore);
  return {
    Enabled: ctx.config.breakGlassEnabled,
    Open: Number(open[0]?.open_count ?? 0),
    Overdue: Number(open[0]?.overdue_count ?? 0),
    Items: open.map((r) => reviewItem(ctx, r, now)),
  };
}

/**
 * GET /admin/impersonation/break-glass/reviews: a page of the open reviews (oldest first), of those
 * closed in the last BREAK_GLASS_CLOSED_DAYS days, or of both (newest opening first). A cursor
 * carries its state's name before the row's key, so one state's cursor is refused under another.
 */
export async function reviewList(
  ctx: AppContext,
  call: StaffCall,
  q: z.output<typeof breakGlassReviewsQuery>,
) {
  requireSuperAdmin(call.session);
  const now = ctx.clock.now();
  const state = q.state ?? 'open';
  let after: ReviewKey | undefined;
  if (q.cursor !== undefined) {
    const [, at, id] = decodeCursor(q.cursor, [literal(state), PG_TIMESTAMP, DIGITS]);
    after = { at, id };
  }
  const limit = q.limit ?? BREAK_GLASS_REVIEWS_PAGE;
  const found = await reviewsPage(ctx.db, {
    state,
    closedSince: new Date(now.getTime() - BREAK_GLASS_CLOSED_DAYS * 86_400_000),
    after,
    limit: limit + 1,
    scope: call.session.scope,
  });
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    Data: page.map((r) => reviewItem(ctx, r, now)),
    NextCursor: found.length > limit && last ? encodeCursor([state, last.at_key, String(last.id)]) : null,
  };
}

/**
 * POST /admin/impersonation/break-glass/review: under the request's lock, a break-glass access
 * (else 404) in the actor's scope, its review open (1184), and not the actor's own (1183); the
 * review closed with the note, its trail row carrying the note, the opener told in the bell.
 */
export async function close(
  ctx: AppContext,
  call: StaffCall,
  body: z.output<typeof closeBreakGlassReviewBody>,
) {
  const actor = call.session;
  requireSuperAdmin(actor);
  const now = ctx.clock.now();
  const after = await runWrite(ctx.db, {
    lock: async (tx) => {
      const row = await findRequest(tx, body.RequestId, true, actor.scope);
      if (!row?.break_glass) throw new AppError('notFound', 'There is no break-glass access with that id.');
      if (row.in_scope === false) throw outOfScope('a site in scope');
      if (row.review_closed_at !== null) throw new AppError('breakGlassReviewClosed');
      if (row.holder_uid === actor.uid || isSame(row.initiator_email, actor.email))
        throw new AppError('breakGlassOwnReview');
      return row;
    },
    change: async (tx, row) => {
      await closeReview(tx, Number(row.id), { by: actor.email, at: now, note: body.Note });
      return (await findRequest(tx, Number(row.id)))!;
    },
    trail: async (tx, after, row) => {
      await logEvent(tx, {
        requestId: Number(row.id),
        at: now,
        actor: actor.email,
        event: 'break-glass-review',
        status: after.status,
        clientAddress: call.clientAddress,
        details: { appId: Number(row.app_id), note: body.Note, openedBy: row.initiator_email },
      });
      announceImpersonationChange(tx, ctx);
      await notifyStaff(tx, ctx, {
        kind: 'break-glass-reviewed',
        to: [{ uid: row.holder_uid, email: row.initiator_email }],
        actorEmail: actor.email,
        requestId: Number(row.id),
        appName: row.app_name,
      });
    },
  });
  return { Data: reviewItem(ctx, after, now), Message: M.reviewClosed(Number(after.id)) };
}
