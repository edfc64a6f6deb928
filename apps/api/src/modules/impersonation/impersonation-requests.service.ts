import type { ImpersonationStep } from '@sac/contract/audit';
import { consolePaths } from '@sac/contract/console-paths';
import { type ImpersonationEvent, type RevokeAction, transition } from '@sac/contract/impersonation';
import {
  type editImpersonationBody,
  formatExpiry,
  type impersonationActionBody,
  IMPERSONATION_MESSAGES as M,
} from '@sac/contract/impersonation-api';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { outOfScope } from '../../lib/site-scope.ts';
import { runWrite } from '../../lib/write-path.ts';
import { approverStanding, COOL_DOWN, findStaffByEmail } from '../auth/staff.service.ts';
import { requireRecentProof } from '../auth/step-up.service.ts';
import {
  announceImpersonationChange,
  notifyStaff,
} from '../staff-notifications/staff-notifications.service.ts';
import { decisionMail, ownerDecisionMail } from './impersonation.mails.ts';
import {
  findRequest,
  findRequestSite,
  type RequestRow,
  type RequestWhy,
  recordHolder,
  rolesHeldByOthers,
  saveState,
  stateOf,
  superAdmins,
} from './impersonation.repo.ts';
import { actionOut, toWire } from './impersonation.wire.ts';
import { checkRequestContents } from './impersonation-opening.service.ts';
import { logEvent } from './impersonation-steps.ts';
import { checkedWhy, storedWhyDetails, whyDetails } from './impersonation-why.ts';
import { refuse } from './transition-refusal.ts';

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
    /** An edit's new reason code and case (else the stored ones go into the step's details). */
    why?: RequestWhy;
    action?: boolean;
    checkRoles?: string[];
    /** The request's Version the form was read at (If-Match); a newer one refuses the event (930). */
    expectedVersion?: number;
    /** Work of the same transaction once the new state is saved (the mails it causes). */
    alsoInTransaction?: (tx: Queryable, after: RequestRow, before: RequestRow) => Promise<void>;
    /** A bulk job's item: see ActionOfJob. */
    job?: ActionOfJob;
  },
): Promise<{ before: RequestRow; after: RequestRow }> {
  const now = ctx.clock.now();
  return runWrite(ctx.db, {
    lock: async (tx) => {
      const row = await findRequest(tx, requestId, true, actor.scope);
      if (!row) throw new AppError('notFound', 'There is no impersonation request with that id.');
      opts.job?.check(row);
      // A scoped requester or approver acts only on the requests of sites in their scope.
      if (row.in_scope === false) throw outOfScope('a request of a site in scope');
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
        ...(opts.why !== undefined ? { why: opts.why } : {}),
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
    trail: async (tx, done, { row, state }) => {
      await logEvent(tx, {
        requestId,
        at: now,
        actor: actor.email,
        event: opts.logEvent,
        status: state.deleted ? 'Deleted' : state.status,
        clientAddress: caller.clientAddress,
        // Every step names the request's reason and case (the edit's new ones).
        details: {
          ...(opts.details ?? {}),
          ...(opts.why ? whyDetails(opts.why) : storedWhyDetails(row)),
          ...(opts.job ? { bulkJob: opts.job.bulkJob } : {}),
        },
      });
      announceImpersonationChange(tx, ctx);
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
  const why = checkedWhy(ctx.config.impersonationReasons, body, '');
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
      why,
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
    Data: toWire(after as RequestRow, ctx.clock.now(), ctx.config.impersonationReasons),
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

type ActionBody = z.output<typeof impersonationActionBody>;

/**
 * What a bulk job's item adds to the single decision (modules/bulk): the job, named in the step's
 * log and trail rows, and its own check of the locked request (the state and version the dry run
 * saw, and the dry run's rule), which refuses the item by throwing.
 */
export interface ActionOfJob {
  bulkJob: number;
  check(row: RequestRow): void;
}

/** The machine event of an approval, rejection or revocation (a bulk job's dry run judges by it too). */
export function eventOfAction(
  actor: StaffSession,
  body: ActionBody,
  revokeAction: RevokeAction | undefined,
): ImpersonationEvent {
  const isApprover = actor.permissions.has('impersonation.approve');
  if (body.Status === 'Approve')
    return {
      type: 'approve',
      actor: actor.email,
      actorIsApprover: isApprover,
      roles: body.ProxyRoles,
      permissions: body.AdditionalPermissions,
      durationMinutes: body.Duration,
    };
  if (body.Status === 'Reject') return { type: 'reject', actor: actor.email, actorIsApprover: isApprover };
  return {
    type: 'revoke',
    actor: actor.email,
    actorIsApprover: isApprover,
    action: revokeAction ?? 'site',
    roles: body.ProxyRoles,
    permissions: body.AdditionalPermissions,
  };
}

/** What the actor is told of their decision (and the staff member concerned, by mail). */
function decisionMessage(
  status: ActionBody['Status'],
  requestId: number,
  after: RequestRow,
  wire: ReturnType<typeof toWire>,
  expires: string,
  newUser: boolean,
): string {
  if (status === 'Approve')
    return M.approved(
      requestId,
      after.app_name,
      wire.Action.ApprovedProxyRoles.length,
      wire.Action.ApprovedAdditionalPermissions.length,
      expires,
      newUser,
    );
  if (status === 'Reject') return M.rejected(requestId, after.app_name);
  return after.status === 'Revoked'
    ? M.revoked(requestId, after.app_name)
    : M.partlyRevoked(requestId, after.app_name);
}

/**
 * The mails and notification of a decision, written in its transaction (kept with the new state,
 * or neither): the staff member concerned in their bell and, unless they chose in-app only or
 * approved their own grant, by mail; the site's owner by mail but for a rejection. Answers the
 * message and whether that staff member has never signed in.
 */
async function tellOfDecision(
  ctx: AppContext,
  tx: Queryable,
  actor: StaffSession,
  requestId: number,
  body: ActionBody,
  after: RequestRow,
  now: Date,
): Promise<{ message: string; newUser: boolean }> {
  const wire = toWire(after, now, ctx.config.impersonationReasons);
  const initiator = await findStaffByEmail(tx, after.initiator_email);
  const newUser = !initiator?.last_login_at;
  const expires = wire.Action.ExpiresAt ? formatExpiry(wire.Action.ExpiresAt) : '';
  const message = decisionMessage(body.Status, requestId, after, wire, expires, newUser);
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
    await ctx.mailer.send(tx, decisionMail({ to: staffTo, requestId, status: wire.Action.Status, message }));
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
  return { message, newUser };
}

/** Approve, reject or revoke; the staff member concerned and the owner are mailed in the same transaction. */
export async function act(
  ctx: AppContext,
  call: StaffCall,
  input: {
    requestId: number;
    revokeAction?: RevokeAction | undefined;
    body: ActionBody;
  },
  job?: ActionOfJob,
) {
  const actor = call.session;
  const { requestId, revokeAction, body } = input;
  // An approval lets someone into a customer's site: it needs a recent proof (step-up).
  if (body.Status === 'Approve') requireRecentProof(ctx, actor);
  const now = ctx.clock.now();
  let told = { message: '', newUser: false };
  const { after } = await applyEvent(ctx, call, actor, requestId, eventOfAction(actor, body, revokeAction), {
    logEvent: STEP_OF_ACTION[body.Status],
    details: { ...body, ...(body.Status === 'Revoke' ? { revokeAction: revokeAction ?? 'site' } : {}) },
    reason: body.Comments,
    action: true,
    ...(job ? { job } : {}),
    alsoInTransaction: async (tx, after) => {
      told = await tellOfDecision(ctx, tx, actor, requestId, body, after, now);
    },
  });
  const wire = toWire(after as RequestRow, now, ctx.config.impersonationReasons);
  return {
    Data: actionOut(wire),
    userStatus: told.newUser ? 'newUser' : 'existingUser',
    Message: told.message,
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
/**
 * GET /admin/impersonation/approvers: the SuperAdmins a request may be assigned to, by name and
 * email, for anyone who may request (spec section 5: assignees are chosen among them).
 */
export async function approvers(ctx: AppContext) {
  return { Data: (await superAdmins(ctx.db)).map((s) => ({ Email: s.email, Name: s.full_name })) };
}
