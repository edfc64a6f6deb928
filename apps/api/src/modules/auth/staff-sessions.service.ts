import { SESSION_MESSAGES } from '@sac/contract/auth';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { touchesSuperAdmin } from '@sac/contract/team';
import type { AppContext, StaffSession } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { isoOrNull } from '../../lib/iso.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { notifySessionsEnded } from '../staff-notifications/staff-notifications.service.ts';
import { checkSettledSuperAdmin, lockColleague, superAdminOnly } from './approver-cool-down.ts';
import { browserName } from './browser-name.ts';
import { type LiveSessionRow, liveSessionsOf, revokeSessionOf, revokeUserSessions } from './sessions.repo.ts';
import { findStaffByUid } from './staff.repo.ts';

/** Staff sessions as their owner manages them, and as a SuperAdmin manages a colleague's. */

const policyOf = (ctx: AppContext) => ({
  idleMs: ctx.config.sessionIdleMs,
  absoluteMs: ctx.config.sessionAbsoluteMs,
});

const sessionOut = (s: LiveSessionRow, currentId: number | undefined) => ({
  Id: s.id,
  StartedAt: isoOrNull(s.created_at)!,
  LastUsedAt: isoOrNull(s.last_used_at)!,
  ClientAddress: s.client_address,
  Browser: browserName(s.user_agent),
  Current: s.id === currentId,
  ImpersonatedSite: s.impersonated_site,
});

export async function mySessions(ctx: AppContext, me: StaffSession) {
  const rows = await liveSessionsOf(ctx.db, me.uid, ctx.clock.now(), policyOf(ctx));
  return { Data: rows.map((s) => sessionOut(s, me.sessionId)) };
}

/** Ends one of my sessions, or every other one; each end is in the staff activity. */
export async function endMySessions(
  ctx: AppContext,
  call: StaffCall,
  which: { Id?: number | undefined; AllOthers?: true | undefined },
) {
  const me = call.session;
  const now = ctx.clock.now();
  // No lock step: the change is the one statement on the caller's own sessions.
  const ended = await runWrite(ctx.db, {
    change: async (tx) => {
      if (which.Id === undefined) return revokeUserSessions(tx, me.uid, now, 'ended-by-user', me.sessionId);
      if (!(await revokeSessionOf(tx, me.uid, which.Id, now, 'ended-by-user')))
        throw new AppError('notFound', SESSION_MESSAGES.notYours);
      return 1;
    },
    trail: (tx, n) =>
      writeActivity(tx, {
        at: now,
        action: 'session.end',
        actorUid: me.uid,
        actorEmail: me.email,
        targetType: 'staff',
        targetId: me.uid,
        clientAddress: call.clientAddress,
        details: which.Id !== undefined ? { sessionId: which.Id } : { allOthers: true, ended: n },
      }),
  });
  return { Ended: ended, Message: SESSION_MESSAGES.ended(ended) };
}

/** A colleague's sessions are a SuperAdmin's to see and end, never their own account's this way. */
function mayActOn(actor: StaffSession, uid: string) {
  if (!actor.roles.includes(ROLE_SUPER_ADMIN)) throw superAdminOnly();
  if (uid === actor.uid) throw new AppError('ownAccount', 'Your own sessions are ended under My sessions.');
}

async function colleagueOf(ctx: AppContext, actor: StaffSession, uid: string) {
  mayActOn(actor, uid);
  const target = await findStaffByUid(ctx.db, uid);
  if (!target) throw new AppError('notFound', 'There is no super user with that id.');
  return target;
}

export async function staffSessions(ctx: AppContext, actor: StaffSession, uid: string) {
  await colleagueOf(ctx, actor, uid);
  const rows = await liveSessionsOf(ctx.db, uid, ctx.clock.now(), policyOf(ctx));
  return { Data: rows.map((s) => sessionOut(s, undefined)) };
}

/**
 * A colleague's session ended, or all of them: the one end of a colleague's sessions, whether the
 * profile's button or an item of a bulk job (`bulkJob`, named in its trail row).
 */
/**
 * A colleague's live sessions as a bulk end plans them (modules/bulk): the list's own read, and,
 * when the single end would refuse every one of them now, why (the actor's cool-down on another
 * SuperAdmin's account, 948, which the single end checks again under its lock).
 */
export async function colleagueSessionsToEnd(ctx: AppContext, actor: StaffSession, uid: string) {
  const target = await colleagueOf(ctx, actor, uid);
  const now = ctx.clock.now();
  const rows = await liveSessionsOf(ctx.db, uid, now, policyOf(ctx));
  let refusal: string | undefined;
  if (touchesSuperAdmin(target.roles)) {
    try {
      await checkSettledSuperAdmin(ctx, ctx.db, actor.uid, now);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      refusal = e.message;
    }
  }
  return { sessions: rows.map((s) => sessionOut(s, undefined)), refusal };
}

export async function endStaffSessions(
  ctx: AppContext,
  call: StaffCall,
  input: { uid: string; Id?: number | undefined },
  bulkJob?: number,
) {
  const actor = call.session;
  const { uid, Id: id } = input;
  mayActOn(actor, uid);
  const now = ctx.clock.now();
  const ended = await runWrite(ctx.db, {
    // The colleague's row and the actor's, locked; the role rules and the cool-down on them (948).
    lock: (tx) => lockColleague(ctx, tx, actor.uid, uid, now),
    change: async (tx) => {
      if (id === undefined) return revokeUserSessions(tx, uid, now, 'ended-by-superadmin');
      if (!(await revokeSessionOf(tx, uid, id, now, 'ended-by-superadmin')))
        throw new AppError('notFound', 'That colleague has no live session with that id.');
      return 1;
    },
    trail: async (tx, n, target) => {
      await writeActivity(tx, {
        at: now,
        action: 'session.end',
        actorUid: actor.uid,
        actorEmail: actor.email,
        targetType: 'staff',
        targetId: uid,
        clientAddress: call.clientAddress,
        details: {
          ...(id !== undefined
            ? { sessionId: id, of: target.email }
            : { all: true, ended: n, of: target.email }),
          ...(bulkJob !== undefined ? { bulkJob } : {}),
        },
      });
      // "My sessions ended by someone else": read at their next sign-in (or in another live tab).
      await notifySessionsEnded(tx, ctx, { uid, actorEmail: actor.email, count: n });
    },
  });
  return { Ended: ended, Message: SESSION_MESSAGES.ended(ended) };
}
