import {
  displayStatus,
  type ImpersonationEvent,
  type RevokeAction,
  TRANSITION_ERRORS,
  type TransitionError,
  transition,
} from '@sac/contract/impersonation';
import {
  CONSENT_LINK_TTL_MS,
  type createImpersonationBody,
  type customerRequestBody,
  type DISPLAY_STATUSES,
  type editImpersonationBody,
  formatExpiry,
  type impersonationActionBody,
  type LOG_STATUSES,
  IMPERSONATION_MESSAGES as M,
  SITE_ACCESS_LINK_TTL_MS,
} from '@sac/contract/impersonation-api';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { z } from 'zod';
import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { findStaffByEmail } from '../auth/staff.repo.ts';
import { customerRoleCatalogue } from '../customers/customers.repo.ts';
import { approverStanding } from './approver-cool-down.ts';
import {
  findRequest,
  listRequests,
  logEvent,
  REQUEST_COLUMNS_FOR_SITE,
  type RequestRow,
  recordHolder,
  rolesHeldByOthers,
  saveState,
  stateOf,
} from './impersonation.repo.ts';
import { staffLabeller } from './staff-pseudonyms.ts';

type DisplayStatus = (typeof DISPLAY_STATUSES)[number];

export function toWire(r: RequestRow, now: Date) {
  return {
    Id: Number(r.id),
    AppId: Number(r.app_id),
    AppName: r.app_name,
    Initiator: r.initiator_email,
    Impersonation: r.consent === 'granted',
    Consent: r.consent,
    IsCustomerRequest: r.is_customer_request,
    Request: {
      Priority: r.priority,
      Description: r.description,
      Assignees: r.assignees,
      ProxyRoles: r.proxy_roles,
      AdditionalPermissions: r.additional_permissions,
      Duration: r.duration_minutes,
      RequestCreatedDate: isoOrNull(r.created_at)!,
      RequestModifiedDate: isoOrNull(r.modified_at)!,
    },
    Action: {
      Status: displayStatus(stateOf(r), now.getTime()) as DisplayStatus,
      ActionTakenBy: r.action_taken_by,
      ActionTakenAt: isoOrNull(r.action_taken_at),
      ExpiresAt: isoOrNull(r.expires_at),
      ApprovedProxyRoles: r.approved_roles,
      ApprovedAdditionalPermissions: r.approved_permissions,
      Reason: r.reason,
    },
  };
}

/** Spec section 4: pending and unexpired approved first, then by the newest action or change. */
export function orderForList(rows: ReturnType<typeof toWire>[]) {
  const live = (x: ReturnType<typeof toWire>) =>
    x.Action.Status === 'Pending' || x.Action.Status === 'Approved';
  const last = (x: ReturnType<typeof toWire>) => x.Action.ActionTakenAt ?? x.Request.RequestModifiedDate;
  return [...rows].sort(
    (a, b) => Number(live(b)) - Number(live(a)) || last(b).localeCompare(last(a)) || b.Id - a.Id,
  );
}

function refuse(error: TransitionError): never {
  const text = TRANSITION_ERRORS[error];
  if (['notPending', 'notApproved', 'expired', 'deleted', 'consentGiven'].includes(error)) {
    throw new AppError('impersonationConflict', text);
  }
  if (['ownRequest', 'notApprover', 'notInitiator'].includes(error))
    throw new AppError('impersonationForbidden', text);
  throw new AppError('impersonationInvalid', text);
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

/** A link to the owner's page of every access to the site (stored hashed, 90 days). */
async function siteAccessLink(
  db: Queryable,
  ctx: AppContext,
  appId: number,
  origin: string | undefined,
  now: Date,
) {
  const token = randomSecret();
  await db.query(
    'INSERT INTO site_access_tokens (token_hash, app_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [hashSecret(token), appId, now, new Date(now.getTime() + SITE_ACCESS_LINK_TTL_MS)],
  );
  const url = consolePageFor(ctx.config, origin, '/impersonation/site-access');
  url.searchParams.set('token', token);
  return url.toString();
}

export async function create(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  body: z.output<typeof createImpersonationBody>,
  origin: string | undefined,
  isCustomerRequest = false,
) {
  const d = body.data;
  const now = ctx.clock.now();
  const site = await ctx.db.query<{ app_name: string; owner_email: string; first_name: string }>(
    'SELECT s.app_name, c.email AS owner_email, c.first_name FROM sites s JOIN customers c ON c.uid = s.owner_uid WHERE s.app_id = $1',
    [d.AppId],
  );
  const app = site.rows[0];
  if (!app) throw new AppError('notFound', 'There is no site with that AppId.');
  const token = randomSecret();
  const id = await ctx.db.transaction(async (tx) => {
    await checkRequestContents(tx, d.AppId, null, d, now);
    const r = await tx.query<{ id: number }>(
      `INSERT INTO impersonation_requests (app_id, initiator_uid, initiator_email, is_customer_request, priority, description,
         assignees, proxy_roles, additional_permissions, duration_minutes, created_at, modified_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id`,
      [
        d.AppId,
        actor.uid,
        actor.email,
        isCustomerRequest,
        d.Priority,
        d.Description,
        d.Assignees,
        d.ProxyRoles,
        d.AdditionalPermissions,
        d.Duration,
        now,
      ],
    );
    const newId = Number(r.rows[0]!.id);
    await tx.query(
      'INSERT INTO impersonation_consent_tokens (token_hash, request_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [hashSecret(token), newId, now, new Date(now.getTime() + CONSENT_LINK_TTL_MS)],
    );
    await logEvent(tx, {
      requestId: newId,
      at: now,
      actor: actor.email,
      event: isCustomerRequest ? 'customer-request' : 'request',
      status: 'Pending',
      clientAddress: caller.clientAddress,
      details: {
        appId: d.AppId,
        roles: d.ProxyRoles,
        permissions: d.AdditionalPermissions,
        duration: d.Duration,
      },
    });
    // The owner's consent mail and the assignees' mails are kept with the request, or neither.
    const consent = consolePageFor(ctx.config, origin, '/impersonation/consent');
    consent.searchParams.set('token', token);
    const accessPage = await siteAccessLink(tx, ctx, d.AppId, origin, now);
    const what = [
      `Site: ${app.app_name}`,
      `Requested by: ${actor.name ? `${actor.name} <${actor.email}>` : actor.email}`,
      `Why: ${d.Description}`,
      `Roles: ${d.ProxyRoles.join(', ')}`,
      `Additional permissions: ${d.AdditionalPermissions.join(', ') || 'none'}`,
      `For: ${d.Duration} minutes from approval`,
    ];
    await ctx.mailer.send(tx, {
      to: app.owner_email,
      subject: `Support asks to access your site ${app.app_name} (request ${newId})`,
      text: [
        `Hello ${app.first_name},`,
        '',
        isCustomerRequest
          ? 'Following your request for help, our support staff ask for temporary access to your site:'
          : 'Our support staff ask for temporary access to your site:',
        '',
        ...what,
        '',
        'Nothing happens unless you allow it. Open this link to allow or deny the access (it works once, for 7 days):',
        '',
        consent.toString(),
        '',
        'Every access to your site, past and present, is listed here (90 days):',
        accessPage,
      ].join('\n'),
    });
    for (const assignee of d.Assignees) {
      await ctx.mailer.send(tx, {
        to: assignee,
        subject: `Impersonation request ${newId} for ${app.app_name} needs your decision`,
        text: [
          `A new impersonation request is assigned to you.`,
          '',
          ...what,
          '',
          `Review it in the console: ${consolePageFor(ctx.config, origin, '/manage-superuser/impersonation/assigned-requests').toString()}`,
        ].join('\n'),
      });
    }
    return newId;
  });

  const row = await findRequest(ctx.db, id);
  return { Data: toWire(row!, now), Message: M.created(id, app.app_name) };
}

export async function list(
  ctx: AppContext,
  viewer: StaffSession,
  status: DisplayStatus | undefined,
  customerOnly = false,
) {
  const now = ctx.clock.now();
  const rows = await listRequests(ctx.db, {
    visibleTo: viewer.permissions.has('impersonation.approve') ? undefined : viewer.email,
    customerOnly,
  });
  let data = rows.map((r) => toWire(r, now));
  if (status) data = data.filter((x) => x.Action.Status === status);
  return { Data: customerOnly ? data : orderForList(data) };
}

/** Separation of duties: a new SuperAdmin approves only once the cool-down since the promotion has passed. */
async function checkCoolDown(ctx: AppContext, db: Queryable, actor: StaffSession, now: Date) {
  const s = await approverStanding(db, actor.uid, now, ctx.config.approverCoolDownMs);
  if (s.since && s.canApproveFrom) {
    throw new AppError(
      'approverCoolingDown',
      M.approverCoolingDown(
        formatExpiry(s.since.toISOString()),
        formatExpiry(s.canApproveFrom.toISOString()),
      ),
    );
  }
}

/** Applies one machine event to a request under its row lock; answers the saved row. */
async function applyEvent(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  requestId: number,
  event: ImpersonationEvent,
  opts: {
    logEvent: string;
    details?: Record<string, unknown>;
    reason?: string;
    action?: boolean;
    checkRoles?: string[];
    /** Work of the same transaction once the new state is saved (the mails it causes). */
    alsoInTransaction?: (tx: Queryable, after: RequestRow) => Promise<void>;
  },
) {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await findRequest(tx, requestId, true);
    if (!row) throw new AppError('notFound', 'There is no impersonation request with that id.');
    const r = transition(stateOf(row), event, now.getTime());
    if (!r.ok) refuse(r.error);
    if (event.type === 'approve') await checkCoolDown(ctx, tx, actor, now);
    if (opts.checkRoles) {
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
    await saveState(tx, requestId, r.state, {
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
    await logEvent(tx, {
      requestId,
      at: now,
      actor: actor.email,
      event: opts.logEvent,
      status: r.state.deleted ? 'Deleted' : r.state.status,
      clientAddress: caller.clientAddress,
      details: opts.details ?? {},
    });
    const after = (await findRequest(tx, requestId)) ?? { ...row, deleted_at: now };
    await opts.alsoInTransaction?.(tx, after as RequestRow);
    return { before: row, after };
  });
}

export async function edit(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  requestId: number,
  body: z.output<typeof editImpersonationBody>,
) {
  const { after } = await applyEvent(
    ctx,
    caller,
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
    },
  );
  return {
    Data: toWire(after as RequestRow, ctx.clock.now()),
    Message: M.updated(requestId, after.app_name),
  };
}

export async function remove(ctx: AppContext, caller: Caller, actor: StaffSession, requestId: number) {
  const { before } = await applyEvent(
    ctx,
    caller,
    actor,
    requestId,
    { type: 'delete', actor: actor.email },
    { logEvent: 'delete' },
  );
  return { IsDeleted: true, Id: requestId, Message: M.deleted(requestId, before.app_name) };
}

export async function act(
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  requestId: number,
  revokeAction: RevokeAction | undefined,
  body: z.output<typeof impersonationActionBody>,
) {
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
    if (!(body.Status === 'Approve' && staffTo.toLowerCase() === actor.email.toLowerCase())) {
      await ctx.mailer.send(tx, {
        to: staffTo,
        subject: `Impersonation request ${requestId}: ${wire.Action.Status}`,
        text: message,
      });
    }
    if (body.Status !== 'Reject') {
      await ctx.mailer.send(tx, {
        to: after.owner_email,
        subject: `Access to your site ${after.app_name}: ${wire.Action.Status}`,
        text:
          body.Status === 'Approve'
            ? `The access you allowed to ${after.app_name} was approved with the roles ${wire.Action.ApprovedProxyRoles.join(', ')} until ${expires}.`
            : `The access of our support staff to ${after.app_name} has been revoked${after.status === 'Approved' ? ' in part' : ''}.`,
      });
    }
  };
  const { after } = await applyEvent(ctx, caller, actor, requestId, event, {
    logEvent: body.Status.toLowerCase(),
    details: { ...body, ...(body.Status === 'Revoke' ? { revokeAction: revokeAction ?? 'site' } : {}) },
    reason: body.Comments,
    action: true,
    alsoInTransaction: mail,
  });
  const wire = toWire(after as RequestRow, now);
  return {
    Data: {
      Id: wire.Id,
      AppName: wire.AppName,
      Action: { Status: wire.Action.Status },
      ApprovedProxyRoles: wire.Action.ApprovedProxyRoles,
      ApprovedAdditionalPermissions: wire.Action.ApprovedAdditionalPermissions,
      ExpiresAt: wire.Action.ExpiresAt,
      Initiator: wire.Initiator,
    },
    userStatus: newUser ? 'newUser' : 'existingUser',
    Message: message,
    Request: wire,
  };
}

export async function logs(ctx: AppContext, status: (typeof LOG_STATUSES)[number] | undefined) {
  const now = ctx.clock.now();
  const r = await ctx.db.query<{
    id: number;
    request_id: number;
    app_name: string;
    status: string;
    event: string;
    actor: string | null;
    at: Date;
    details: Record<string, unknown>;
    expires_at: Date | null;
    current_status: string;
    latest: boolean;
  }>(
    `SELECT l.id, l.request_id, s.app_name, l.status, l.event, l.actor, l.at, l.details, r.expires_at, r.status AS current_status,
       l.id = max(l.id) OVER (PARTITION BY l.request_id) AS latest
     FROM impersonation_log l JOIN impersonation_requests r ON r.id = l.request_id JOIN sites s ON s.app_id = r.app_id
     ORDER BY l.id DESC LIMIT 1000`,
  );
  let data = r.rows.map((x) => {
    const expired =
      x.latest && x.current_status === 'Approved' && x.expires_at !== null && new Date(x.expires_at) <= now;
    return {
      Id: Number(x.id),
      RequestId: Number(x.request_id),
      AppName: x.app_name,
      Status: (expired ? 'Expired' : x.status) as (typeof LOG_STATUSES)[number],
      Event: x.event,
      Actor: x.actor,
      LastModified: isoOrNull(x.at)!,
      Details: x.details ?? {},
    };
  });
  if (status) data = data.filter((x) => x.Status === status);
  return { Data: data };
}

/** The public consent page: what is asked, from the single-use link's token. */
async function consentRow(db: Queryable, token: string, now: Date, lock = false) {
  const r = await db.query<{ request_id: number; expires_at: Date; used_at: Date | null }>(
    `SELECT request_id, expires_at, used_at FROM impersonation_consent_tokens WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
    [hashSecret(token)],
  );
  const t = r.rows[0];
  if (!t || t.used_at || new Date(t.expires_at) <= now)
    throw new AppError('invalidResetToken', M.consentLinkInvalid);
  const row = await findRequest(db, Number(t.request_id), lock);
  if (!row) throw new AppError('invalidResetToken', M.consentLinkInvalid);
  return row;
}

export async function consentDetails(ctx: AppContext, token: string) {
  const row = await consentRow(ctx.db, token, ctx.clock.now());
  return {
    Data: {
      RequestId: Number(row.id),
      AppName: row.app_name,
      RequestedBy: row.initiator_email,
      Description: row.description,
      ProxyRoles: row.proxy_roles,
      AdditionalPermissions: row.additional_permissions,
      Duration: row.duration_minutes,
      Consent: row.consent,
    },
  };
}

export async function answerConsent(ctx: AppContext, caller: Caller, token: string, granted: boolean) {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    const row = await consentRow(tx, token, now, true);
    const r = transition(stateOf(row), { type: 'consent', granted }, now.getTime());
    if (!r.ok) refuse(r.error);
    await tx.query('UPDATE impersonation_consent_tokens SET used_at = $2 WHERE token_hash = $1', [
      hashSecret(token),
      now,
    ]);
    await saveState(tx, Number(row.id), r.state, { at: now });
    await tx.query('UPDATE impersonation_requests SET consent_at = $2, consent_address = $3 WHERE id = $1', [
      row.id,
      now,
      caller.clientAddress,
    ]);
    await logEvent(tx, {
      requestId: Number(row.id),
      at: now,
      actor: row.owner_email,
      event: granted ? 'consent-granted' : 'consent-denied',
      status: r.state.status,
      clientAddress: caller.clientAddress,
    });
  });
  return { IsPosted: true, Message: granted ? M.consentGranted : M.consentDenied };
}

/**
 * A customer asks for help: their site's API key and secret authenticate the call, and the
 * request itself is their consent. It goes to every SuperAdmin; the one who approves it helps.
 */
export async function customerRequest(
  ctx: AppContext,
  caller: Caller,
  apiKey: string | undefined,
  apiSecret: string | undefined,
  body: z.output<typeof customerRequestBody>,
  origin: string | undefined,
) {
  const d = body.data;
  const now = ctx.clock.now();
  const valid = /^[0-9a-f-]{36}$/i.test(apiKey ?? '') && (apiSecret ?? '') !== '';
  const site = valid
    ? await ctx.db.query<{ app_id: number; app_name: string; owner_email: string; first_name: string }>(
        `SELECT s.app_id, s.app_name, c.email AS owner_email, c.first_name FROM sites s JOIN customers c ON c.uid = s.owner_uid
         WHERE s.api_key = $1 AND s.secret_hash = $2`,
        [apiKey!.toLowerCase(), hashSecret(apiSecret!)],
      )
    : { rows: [] };
  const app = site.rows[0];
  if (!app) throw new AppError('customerAuthFailed');
  const appId = Number(app.app_id);
  const approvers = await ctx.db.query<{ email: string }>(
    "SELECT s.email FROM staff s JOIN staff_roles r ON r.uid = s.uid WHERE r.role = 'SuperAdmin' ORDER BY s.email",
  );
  const assignees = approvers.rows.map((r) => r.email);
  const id = await ctx.db.transaction(async (tx) => {
    await checkRequestContents(tx, appId, null, { Assignees: assignees, ...d }, now);
    const r = await tx.query<{ id: number }>(
      `INSERT INTO impersonation_requests (app_id, initiator_email, is_customer_request, consent, consent_at, consent_address,
         priority, description, assignees, proxy_roles, additional_permissions, duration_minutes, created_at, modified_at)
       VALUES ($1, $2, true, 'granted', $3, $4, $5, $6, $7, $8, $9, $10, $3, $3) RETURNING id`,
      [
        appId,
        app.owner_email,
        now,
        caller.clientAddress,
        d.Priority,
        d.Description,
        assignees,
        d.ProxyRoles,
        d.AdditionalPermissions,
        d.Duration,
      ],
    );
    const newId = Number(r.rows[0]!.id);
    await logEvent(tx, {
      requestId: newId,
      at: now,
      actor: app.owner_email,
      event: 'customer-request',
      status: 'Pending',
      clientAddress: caller.clientAddress,
      details: {
        appId,
        roles: d.ProxyRoles,
        permissions: d.AdditionalPermissions,
        duration: d.Duration,
        consent: 'given by the request',
      },
    });
    const accessPage = await siteAccessLink(tx, ctx, appId, origin, now);
    await ctx.mailer.send(tx, {
      to: app.owner_email,
      subject: `Your request for help with ${app.app_name} (request ${newId})`,
      text: [
        `Hello ${app.first_name},`,
        '',
        `We received your request for help with ${app.app_name}. A SuperAdmin will review it; access, if approved, lasts at most ${d.Duration} minutes from approval.`,
        '',
        'Every access to your site, past and present, is listed here (90 days):',
        accessPage,
      ].join('\n'),
    });
    for (const assignee of assignees) {
      await ctx.mailer.send(tx, {
        to: assignee,
        subject: `Customer request ${newId} for ${app.app_name} needs your decision`,
        text: `${app.owner_email} asks for help with ${app.app_name}: ${d.Description}\nRoles: ${d.ProxyRoles.join(', ')}; ${d.Duration} minutes.`,
      });
    }
    return newId;
  });
  const row = await findRequest(ctx.db, id);
  return { Data: toWire(row!, now), Message: M.customerRequested(id, app.app_name) };
}

/** The owner's page: every request and step on their site, from the link in their email. */
export async function siteAccess(ctx: AppContext, token: string) {
  const now = ctx.clock.now();
  const t = await ctx.db.query<{ app_id: number; app_name: string }>(
    `SELECT a.app_id, s.app_name FROM site_access_tokens a JOIN sites s ON s.app_id = a.app_id
     WHERE a.token_hash = $1 AND a.expires_at > $2`,
    [hashSecret(token), now],
  );
  const site = t.rows[0];
  if (!site) throw new AppError('invalidResetToken', M.siteAccessLinkInvalid);
  const requests = await ctx.db.query<RequestRow>(
    `SELECT ${REQUEST_COLUMNS_FOR_SITE} WHERE r.app_id = $1 ORDER BY r.id DESC LIMIT 500`,
    [site.app_id],
  );
  const log = await ctx.db.query<{
    request_id: number;
    event: string;
    actor: string | null;
    at: Date;
    client_address: string | null;
  }>(
    `SELECT l.request_id, l.event, l.actor, l.at, l.client_address FROM impersonation_log l
     JOIN impersonation_requests r ON r.id = l.request_id WHERE r.app_id = $1 ORDER BY l.id DESC LIMIT 1000`,
    [site.app_id],
  );
  // Provider staff are named by role and pseudonym (staff-pseudonyms.ts), and their addresses are
  // not shown; the owner's own steps keep the owner's email and address.
  const owner = (
    await ctx.db.query<{ email: string }>(
      'SELECT c.email FROM sites s JOIN customers c ON c.uid = s.owner_uid WHERE s.app_id = $1',
      [site.app_id],
    )
  ).rows[0]?.email.toLowerCase();
  const isOwner = (email: string | null) => email !== null && email.toLowerCase() === owner;
  const named = requests.rows.flatMap((r) => [r.initiator_email, ...r.assignees, r.action_taken_by ?? '']);
  const label = await staffLabeller(
    ctx.db,
    (data) => ctx.crypto.mac('site-access-staff', data),
    [...named, ...log.rows.map((l) => l.actor ?? '')].filter((e) => e && !isOwner(e)),
    ctx.config.siteAccessStaffNames,
  );
  const person = (email: string | null) => (isOwner(email) ? email : label(email));
  return {
    Data: {
      AppName: site.app_name,
      Requests: requests.rows.map((r) => {
        const w = toWire(r, now);
        return {
          ...w,
          Initiator: person(w.Initiator)!,
          Request: { ...w.Request, Assignees: w.Request.Assignees.map((a) => person(a)!) },
          Action: { ...w.Action, ActionTakenBy: person(w.Action.ActionTakenBy) },
        };
      }),
      Log: log.rows.map((l) => ({
        RequestId: Number(l.request_id),
        Event: l.event,
        Actor: person(l.actor),
        Date: new Date(l.at).toISOString(),
        ClientAddress:
          isOwner(l.actor) || ctx.config.siteAccessStaffNames === 'email' ? l.client_address : null,
      })),
    },
  };
}
