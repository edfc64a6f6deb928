import type { Queryable } from '../../db/db.ts';
import { approverSince } from './staff.repo.ts';

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
