import { formatExpiry } from '@sac/contract/impersonation-api';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { TEAM_MESSAGES, touchesSuperAdmin } from '@sac/contract/team';
import type { AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { approverSince, lockStaffRow, lockStaffRows, type StaffRowWithApprover } from './staff.repo.ts';

/**
 * Separation of duties: a staff member who was just given a role that approves impersonation
 * (SuperAdmin) may approve only once `approverCoolDownMs` has passed since they got it. A role
 * whose grant time is not recorded (held before it was recorded, or given at the first start, as
 * the demo staff are) counts as held long enough.
 */
export interface ApproverStanding {
  /** When they got a role that approves impersonation; null when not recorded or not an approver. */
  since: Date | null;
  /** While they are in the cool-down: when it ends; otherwise null. */
  canApproveFrom: Date | null;
}

export function standing(since: Date | string | null, now: Date, coolDownMs: number): ApproverStanding {
  const at = since === null ? null : new Date(since);
  const end = at === null ? null : new Date(at.getTime() + coolDownMs);
  return { since: at, canApproveFrom: end !== null && end > now ? end : null };
}

export async function approverStanding(
  db: Queryable,
  uid: string,
  now: Date,
  coolDownMs: number,
): Promise<ApproverStanding> {
  return standing(await approverSince(db, uid), now, coolDownMs);
}

/** What a refusal by the cool-down names as missing in the trail. */
export const COOL_DOWN = 'SuperAdmin cool-down';

/** 902 for an act only a SuperAdmin may take, naming the role as missing in the trail. */
export const superAdminOnly = (): AppError =>
  Object.assign(new AppError('forbidden'), { missing: ROLE_SUPER_ADMIN });

/**
 * The same cool-down holds for acts on another SuperAdmin's account (their factors, sessions,
 * roles, the account itself) and on the SuperAdmin role (giving or taking it): otherwise a
 * SuperAdmin made minutes ago could lock the others out before any of them looked. Throws 948.
 */
export async function checkSettledSuperAdmin(ctx: AppContext, db: Queryable, actorUid: string, now: Date) {
  refuseWithinCoolDown(ctx, await approverSince(db, actorUid), now);
}

/** Throws 948 while an approver who got the role at `since` is in the cool-down (see checkSettledSuperAdmin). */
function refuseWithinCoolDown(ctx: AppContext, since: Date | string | null, now: Date) {
  const s = standing(since, now, ctx.config.approverCoolDownMs);
  if (s.since && s.canApproveFrom)
    throw Object.assign(
      new AppError(
        'approverCoolingDown',
        TEAM_MESSAGES.superAdminCoolingDown(
          formatExpiry(s.since.toISOString()),
          formatExpiry(s.canApproveFrom.toISOString()),
        ),
      ),
      { missing: COOL_DOWN },
    );
}

/**
 * The lock of a SuperAdmin's act on a colleague's account (ending their sessions, resetting their
 * second factors), in the write's transaction: both staff rows locked FOR UPDATE, then, on the
 * rows as they are now, the actor still a SuperAdmin (401 when their account is gone, 902 when
 * the role is), the colleague there (404) and, when the colleague is a SuperAdmin, the actor past
 * the cool-down (948). A promotion, demotion or deletion of either committing meanwhile (it locks
 * the same row) waits for the act or is seen by it. Answers the colleague's row.
 */
export async function lockColleague(
  ctx: AppContext,
  tx: Queryable,
  actorUid: string,
  uid: string,
  now: Date,
): Promise<StaffRowWithApprover> {
  const rows = await lockStaffRows(tx, [actorUid, uid]);
  const me = rows.find((r) => r.uid === actorUid);
  if (!me) throw new AppError('unauthenticated');
  if (!me.roles.includes(ROLE_SUPER_ADMIN)) throw superAdminOnly();
  const target = rows.find((r) => r.uid === uid);
  if (!target) throw new AppError('notFound', 'There is no super user with that id.');
  // Separation of duties: another SuperAdmin's account waits for the actor's cool-down (948).
  if (touchesSuperAdmin(target.roles)) refuseWithinCoolDown(ctx, me.approver_since, now);
  return target;
}

/**
 * The lock of a change to one's own account (one's second factors): the staff row, FOR UPDATE, so
 * two such changes of one account (and a SuperAdmin's reset of it) run one after the other and
 * each decides on what the one before left.
 */
export const lockOwnAccount = (tx: Queryable, uid: string): Promise<void> => lockStaffRow(tx, uid);
