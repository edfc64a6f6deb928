import type { AppContext, Caller, Refusal, StaffSession } from '../../app-context.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { currentRequest } from '../../lib/request-context.ts';
import type { WriteTx } from '../../lib/write-path.ts';
import { runWrite } from '../../lib/write-path.ts';
import {
  type ActivityAction,
  type ActivityEntry,
  appendActivityRow,
  appendImpersonationStepRow,
  insertPastCustomerActivity,
  type PastCustomerActivity,
} from './activity.repo.ts';
import { foldRefusal, takeClosedRepeats } from './refusals.repo.ts';

/**
 * Logs a staff write about a customer (the customer's activity list reads these rows); a write
 * made through an impersonation session names its request.
 */
export function writeCustomerActivity(
  db: WriteTx,
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

export type { ActivityAction } from './activity.repo.ts';

/**
 * The staff trail's row of an impersonation step (impersonation's logEvent writes the
 * impersonation log's row beside it, in the same transaction).
 */
export function recordImpersonationStep(
  db: Queryable,
  e: Parameters<typeof appendImpersonationStepRow>[1],
): Promise<void> {
  return appendImpersonationStepRow(db, e);
}

/**
 * The demo seed's made-up past staff actions about customers, loaded in bulk in the seed's
 * transaction (seed/customer-seed.ts): raw speed, no request, no write of anyone's now.
 */
export function bulkLoadPastCustomerActivity(tx: Queryable, rows: PastCustomerActivity[]): Promise<void> {
  return insertPastCustomerActivity(tx, rows);
}

/**
 * Appends the trail row of a change, in the change's own write (lib/write-path.ts): only runWrite
 * makes a WriteTx, so the row cannot be written after the change has committed without it.
 */
export function writeActivity(tx: WriteTx, e: ActivityEntry): Promise<void> {
  return appendActivityRow(tx, e);
}

/**
 * Appends a trail row that is the whole of what happened (a refused or throttled attempt, an
 * export, a reset link asked for): there is no change to keep with it, so it is one statement.
 */
export function recordEvent(db: Queryable, e: ActivityEntry): Promise<void> {
  return appendActivityRow(db, e);
}

/**
 * Refused staff calls fold per actor, endpoint and missing permission over this window: the first
 * is a trail row at once, the repeats one row with their count when the window has closed.
 */
export const REFUSAL_FOLD_MS = 10 * 60_000;

/** The summary rows one flush writes at most (the periodic job comes again for the rest). */
const FLUSH_BATCH = 500;

const refusalRow = (r: Refusal, at: Date, details: Record<string, unknown>) => ({
  at,
  action: 'access.refused' as const,
  actorUid: r.actorUid,
  actorEmail: r.actorEmail,
  targetType: 'endpoint',
  targetId: r.endpoint,
  clientAddress: r.clientAddress,
  details: { missing: r.missing, status: r.status, errorCode: r.errorCode, ...details },
});

/**
 * Records a refused staff call in the trail, folded (refusals.repo.ts): one statement, which
 * writes the first row (count 1) when it opens a window and the repeats of the window it closed
 * as one row.
 */
export async function recordRefusal(db: Queryable, at: Date, r: Refusal): Promise<void> {
  await foldRefusal(db, r, at, REFUSAL_FOLD_MS, currentRequest()?.requestId ?? null);
}

/** Writes the repeats of the refusal windows closed by `at` as one row each; answers how many rows. */
export async function flushRefusals(db: Db, at: Date): Promise<number> {
  // A job whose change is its trail rows: the closed repeats taken, and their rows written, in one
  // write; a trail insert that fails leaves the repeats to the next run.
  const due = await runWrite(db, {
    change: (tx) => takeClosedRepeats(tx, at, REFUSAL_FOLD_MS, FLUSH_BATCH),
    trail: async (tx, due) => {
      for (const d of due)
        await writeActivity(
          tx,
          refusalRow(d, at, { count: d.repeats, repeatsFrom: d.windowStart, repeatsTo: d.lastAt }),
        );
    },
  });
  return due.length;
}
