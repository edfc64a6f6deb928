import type { Readable } from 'node:stream';
import {
  ACCESS_REVIEW_EXPORT_COLUMNS,
  type MemberReview,
  memberReviewOf,
  type ReviewDecision,
} from '@sac/contract/access-review';
import { DASHBOARD_ITEMS } from '@sac/contract/dashboard';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { touchesSuperAdmin } from '@sac/contract/team';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import { csvFile, exportReading, fileStamp } from '../../lib/csv.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { claimVersionOrRefuse } from '../../lib/record-version.ts';
import { runWrite } from '../../lib/write-path.ts';
import { recordEvent, writeActivity } from '../activity/activity.service.ts';
import {
  changeStaffRoles,
  checkSettledSuperAdmin,
  confirmStaffRoles,
  findStaffByUid,
  listStaff,
  lockStaffRows,
  lockSuperAdmins,
  type StaffRowWithApprover,
  superAdminOnly,
} from '../auth/staff.service.ts';
import { notifySessionsEnded } from '../staff-notifications/staff-notifications.service.ts';
import { lockedParties, reviewOf, rolesRecord } from './team.service.ts';

/*
 * The periodic access review (docs/decisions.md, "Periodic access review"): a SuperAdmin other than
 * the member confirms or removes the member's roles; an overdue member's roles are removed by a
 * periodic job when the operator turned it on (never the last SuperAdmin's); the review is
 * exported as CSV for auditors.
 */

/** Who the trail names as the actor of the automatic removal (there is no staff actor). */
export const AUTOMATIC_REVIEWER = 'access review (automatic)';

/**
 * POST /admin/team/review: under the lock of a role change (the SuperAdmin role's rows, the
 * actor's roles as they are now, the member's row), the actor still a SuperAdmin (902) and not
 * the member (1170), the member holding roles (1171); the roles' version claimed from If-Match
 * (930; a confirmation must send it, 1172), so it never confirms roles that changed since they
 * were read. A revocation
 * removes every role through the role change's own act (sessions end; API tokens lose the
 * permissions at once), keeping the last SuperAdmin (934).
 */
export async function decide(
  ctx: AppContext,
  call: StaffCall,
  body: { Uid: string; Decision: ReviewDecision },
) {
  const actor = call.session;
  if (!actor.roles.includes(ROLE_SUPER_ADMIN)) throw superAdminOnly();
  const now = ctx.clock.now();
  const revoke = body.Decision === 'revoke';
  // A confirmation says which roles it confirms: those of the version the reviewer read.
  if (!revoke && call.expectedVersion === undefined) throw new AppError('reviewVersionRequired');
  return runWrite(ctx.db, {
    lock: async (tx) => {
      const parties = await lockedParties(tx, actor, body.Uid, 'reviewOwnRoles');
      if (!parties.actorRoles.includes(ROLE_SUPER_ADMIN)) throw superAdminOnly();
      if (parties.target.roles.length === 0) throw new AppError('reviewNoRoles');
      return parties;
    },
    version: { record: rolesRecord(body.Uid), expected: call.expectedVersion },
    change: async (tx, { superAdmins, target }, version) => {
      // Another SuperAdmin's roles wait for the actor's cool-down (948), as a role change does.
      if (touchesSuperAdmin(target.roles)) await checkSettledSuperAdmin(ctx, tx, actor.uid, now);
      let ended = 0;
      if (revoke) {
        if (superAdmins.includes(target.uid) && superAdmins.length <= 1) throw new AppError('lastSuperAdmin');
        ended = await changeStaffRoles(tx, target.uid, [], now);
      } else await confirmStaffRoles(tx, target.uid, now, actor.email);
      const updated = (await findStaffByUid(tx, target.uid))!;
      return {
        ended,
        answer: {
          Data: {
            Uid: target.uid,
            Decision: body.Decision,
            Roles: updated.roles,
            Version: version!,
            Review: reviewOf(ctx, updated),
          },
        },
      };
    },
    trail: async (tx, { ended }, { target }) => {
      await writeActivity(tx, {
        at: now,
        action: revoke ? 'team.review.revoke' : 'team.review.confirm',
        actorUid: actor.uid,
        actorEmail: actor.email,
        targetType: 'staff',
        targetId: target.uid,
        clientAddress: call.clientAddress,
        details: { email: target.email, roles: target.roles, ...(revoke ? { sessionsEnded: ended } : {}) },
      });
      if (revoke)
        await notifySessionsEnded(tx, ctx, {
          uid: target.uid,
          actorEmail: actor.email,
          count: ended,
          because: 'removed your roles in an access review',
        });
    },
  }).then((r) => r.answer);
}

/** Every member with their review, the most urgent first (the earliest deadline). */
async function reviewList(
  ctx: AppContext,
): Promise<{ member: StaffRowWithApprover; review: MemberReview }[]> {
  const staff = await listStaff(ctx.db);
  return staff
    .map((member) => ({ member, review: reviewOf(ctx, member) }))
    .sort((a, b) => a.review.DueAt.localeCompare(b.review.DueAt));
}

/** The dashboard's part (SuperAdmins): due and overdue counts and the most urgent members. */
export async function reviewSummary(ctx: AppContext) {
  const all = await reviewList(ctx);
  const pending = all.filter((x) => x.review.State === 'due' || x.review.State === 'overdue');
  return {
    Days: ctx.config.accessReview.days,
    AutoRevoke: ctx.config.accessReview.autoRevoke,
    Due: pending.filter((x) => x.review.State === 'due').length,
    Overdue: pending.filter((x) => x.review.State === 'overdue').length,
    Items: pending.slice(0, DASHBOARD_ITEMS).map(({ member, review }) => ({
      Uid: member.uid,
      FullName: member.full_name,
      Email: member.email,
      Roles: member.roles,
      State: review.State as 'due' | 'overdue',
      DueAt: review.DueAt,
    })),
  };
}

/**
 * Removes the roles of one overdue member, rechecked under the locks (a confirmation or a role
 * change may have committed since the list was read): never the last SuperAdmin who can sign in,
 * so the console always keeps someone who can give roles back. Answers whether it removed them.
 */
async function expireOne(ctx: AppContext, uid: string): Promise<boolean> {
  const now = ctx.clock.now();
  const done = await runWrite(ctx.db, {
    lock: async (tx) => {
      const superAdmins = await lockSuperAdmins(tx, ROLE_SUPER_ADMIN);
      const [target] = await lockStaffRows(tx, [uid]);
      if (!target || reviewOf(ctx, target).State !== 'overdue') return null;
      if (superAdmins.includes(uid) && superAdmins.length <= 1) return null;
      return target;
    },
    change: async (tx, target) => {
      if (!target) return null;
      await claimVersionOrRefuse(tx, rolesRecord(uid), undefined);
      return { ended: await changeStaffRoles(tx, uid, [], now) };
    },
    trail: async (tx, done, target) => {
      if (!done || !target) return;
      const review = reviewOf(ctx, target);
      await writeActivity(tx, {
        at: now,
        action: 'team.review.expire',
        actorEmail: AUTOMATIC_REVIEWER,
        targetType: 'staff',
        targetId: uid,
        details: {
          email: target.email,
          roles: target.roles,
          dueAt: review.DueAt,
          days: ctx.config.accessReview.days,
          sessionsEnded: done.ended,
        },
      });
      await notifySessionsEnded(tx, ctx, {
        uid,
        actorEmail: AUTOMATIC_REVIEWER,
        count: done.ended,
        because: `removed your roles: nobody confirmed them within ${ctx.config.accessReview.days} days`,
      });
    },
  });
  return done !== null;
}

/**
 * The periodic job (ACCESS_REVIEW_AUTO_REVOKE): every overdue member loses their roles, one write
 * each. A member whose removal is refused (the break-glass account of single sign-on, 1105) keeps
 * them and is tried again at the next run. Answers how many lost their roles.
 */
export async function expireOverdueRoles(ctx: AppContext): Promise<number> {
  if (!ctx.config.accessReview.autoRevoke) return 0;
  const overdue = (await reviewList(ctx)).filter((x) => x.review.State === 'overdue');
  let removed = 0;
  for (const { member } of overdue) {
    try {
      if (await expireOne(ctx, member.uid)) removed++;
    } catch (e) {
      if (!(e instanceof AppError && e.errorName === 'breakGlassNeeded')) throw e;
    }
  }
  return removed;
}

/** GET /admin/team/review/export: every member's review as CSV, for auditors. */
export async function exportReview(
  ctx: AppContext,
  call: StaffCall,
  release: () => void,
): Promise<{ rows: number; body: Readable; filename: string }> {
  const viewer = call.session;
  return exportReading(ctx.db, release, async (db, end) => {
    const at = ctx.clock.now();
    const staff = await listStaff(db);
    // The export's trail row is its only write: one statement, on its own.
    await recordEvent(ctx.db, {
      at,
      action: 'access-review.export',
      actorUid: viewer.uid,
      actorEmail: viewer.email,
      clientAddress: call.clientAddress,
      details: { rows: staff.length, days: ctx.config.accessReview.days },
    });
    const body = csvFile({
      header: ACCESS_REVIEW_EXPORT_COLUMNS,
      page: async () => ({ rows: staff, next: null }),
      line: (s) => {
        const r = memberReviewOf(
          {
            created: s.created_at,
            confirmedAt: s.roles_confirmed_at,
            confirmedBy: s.roles_confirmed_by,
            roles: s.roles,
          },
          at,
          ctx.config.accessReview.days,
        );
        return [
          s.uid,
          s.full_name,
          s.email,
          s.kind === 'service' ? 'yes' : 'no',
          s.roles.join('; ') || null,
          new Date(s.created_at).toISOString(),
          r.ConfirmedAt,
          r.ConfirmedBy,
          r.DueAt,
          r.State,
        ];
      },
      release: end,
    });
    return { rows: staff.length, body, filename: `access-review-${fileStamp(at)}.csv` };
  });
}
