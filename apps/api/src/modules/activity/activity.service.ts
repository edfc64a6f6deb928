import type { AppContext, Caller, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { type ActivityAction, writeActivity } from './activity.repo.ts';

/**
 * Logs a staff write about a customer (the customer's activity list reads these rows); a write
 * made through an impersonation session names its request.
 */
export function writeCustomerActivity(
  db: Queryable,
  ctx: AppContext,
  caller: Caller,
  actor: StaffSession,
  uid: string,
  action: ActivityAction,
  details: Record<string, unknown>,
): Promise<void> {
  return writeActivity(db, {
    at: ctx.clock.now(),
    action,
    actorUid: actor.uid,
    actorEmail: actor.email,
    targetType: 'customer',
    targetId: uid,
    clientAddress: caller.clientAddress,
    details: {
      ...details,
      ...(actor.impersonation ? { impersonationRequestId: actor.impersonation.requestId } : {}),
    },
  });
}

/** Logs a staff event (sign-ins, team changes): the activity module's write for other modules. */
export { type ActivityAction, writeActivity } from './activity.repo.ts';
