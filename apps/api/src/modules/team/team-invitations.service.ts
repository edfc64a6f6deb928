import { INVITE_VTYPE } from '@sac/contract/auth';
import { consolePaths } from '@sac/contract/console-paths';
import { INVITATION_TTL_MS, TEAM_MESSAGES, touchesSuperAdmin } from '@sac/contract/team';
import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { recordVersion } from '../../db/record-versions.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { checkSettledSuperAdmin, issueInvitation, type StaffRowWithApprover } from '../auth/staff.service.ts';
import { invitationMail } from './team.mails.ts';
import { lockedParties, rolesRecord } from './team.service.ts';

/** What a bulk item adds to the single resend: its job, and its rule checked under the lock. */
export interface ResendOfJob {
  bulkJob: number;
  /** Throws when the item is refused: the member as locked, and the version of their roles. */
  check(target: StaffRowWithApprover, version: number): void;
}

/**
 * Separation of duties: an invitee who would become a SuperAdmin is one of the SuperAdmins' accounts,
 * and a new link lets them in, so a resend waits for the actor's SuperAdmin cool-down as every
 * other act on a SuperAdmin's account does (948). Throws it; nothing for another invitee.
 */
export async function checkResendCoolDown(
  ctx: AppContext,
  db: Queryable,
  actorUid: string,
  inviteeRoles: readonly string[],
): Promise<void> {
  if (touchesSuperAdmin(inviteeRoles)) await checkSettledSuperAdmin(ctx, db, actorUid, ctx.clock.now());
}

/**
 * The one resend of a pending invitation: the member's row locked with the actor's (the rights of
 * a role change: one the actor may manage, 936; never their own account, 1197), refused (1196) when
 * they are no pending invitee (accepted, deactivated) and, for a SuperAdmin invitee, during the
 * actor's cool-down (948); a new link (the old one void), the invitation mail again, and its
 * trail row (naming the bulk job when an item of one). Answers the invitee's email.
 */
export async function resendInvitation(
  ctx: AppContext,
  call: StaffCall,
  input: { uid: string; origin?: string | undefined },
  ofJob?: ResendOfJob,
): Promise<string> {
  const actor = call.session;
  const now = ctx.clock.now();
  const { email } = await runWrite(ctx.db, {
    lock: async (tx) => {
      const { target } = await lockedParties(tx, actor, input.uid, 'ownInvitation');
      ofJob?.check(target, await recordVersion(tx, rolesRecord(target.uid)));
      if (!target.invitation_pending || target.deactivated_at) throw new AppError('invitationNotPending');
      await checkResendCoolDown(ctx, tx, actor.uid, target.roles);
      return target;
    },
    change: async (tx, target) => ({
      token: await issueInvitation(tx, target.uid, now, INVITATION_TTL_MS),
      email: target.email,
    }),
    trail: async (tx, { token }, target) => {
      await writeActivity(tx, {
        at: now,
        action: 'team.invite.resend',
        actorUid: actor.uid,
        actorEmail: actor.email,
        targetType: 'staff',
        targetId: target.uid,
        clientAddress: call.clientAddress,
        details: { email: target.email, roles: target.roles, ...(ofJob ? { bulkJob: ofJob.bulkJob } : {}) },
      });
      // The mail is sent with the write, or neither (the outbox).
      const link = consolePageFor(ctx.config, input.origin, consolePaths.login());
      link.searchParams.set('vtype', INVITE_VTYPE);
      link.searchParams.set('vtoken', token);
      await ctx.mailer.send(
        tx,
        invitationMail({
          to: target.email,
          name: target.full_name,
          inviter: { name: actor.name, email: actor.email },
          roles: target.roles,
          invitationUrl: link.toString(),
        }),
      );
    },
  });
  return email;
}

/** POST /admin/team/invitation/resend: the single resend of the team list's row (its link goes to the console at the call's Origin). */
export async function resend(ctx: AppContext, call: StaffCall, input: { uid: string; origin: unknown }) {
  const email = await resendInvitation(ctx, call, {
    uid: input.uid,
    origin: typeof input.origin === 'string' ? input.origin : undefined,
  });
  return { Uid: input.uid, Email: email, Message: TEAM_MESSAGES.invitationResent(email) };
}
