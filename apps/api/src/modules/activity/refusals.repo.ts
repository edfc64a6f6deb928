import type { Queryable } from '../../db/db.ts';

/** One refused staff call: who, which endpoint ('METHOD /path'), and what they lacked. */
export interface Refusal {
  actorUid: string;
  actorEmail: string;
  endpoint: string;
  /** The permission missing, or what else refused the call ('a live session', 'SuperAdmin cool-down'). */
  missing: string;
  status: number;
  errorCode: number;
  clientAddress: string | null;
}

/** What counting one refusal found: whether it opened a window, and the window it closed. */
interface Fold {
  opened: boolean;
  closed_repeats: number;
  closed_start: Date | null;
  closed_last: Date | null;
}

const WITHIN = `r.window_start > $8::timestamptz - $9::double precision * interval '1 millisecond'`;

/**
 * Counts a refusal in its (actor, endpoint, missing) row, in one statement under the row's lock:
 * within the open window it adds a repeat; otherwise it opens a new window and hands back the
 * repeats of the one it closed (the SET expressions read the row as it was).
 */
export async function countRefusal(db: Queryable, r: Refusal, at: Date, windowMs: number): Promise<Fold> {
  const q = await db.query<Fold>(
    `INSERT INTO staff_refusals AS r (actor_uid, endpoint, missing, actor_email, client_address, status, error_code,
                                      window_start, last_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (actor_uid, endpoint, missing) DO UPDATE SET
       closed_repeats = CASE WHEN ${WITHIN} THEN 0 ELSE r.repeats END,
       closed_start = CASE WHEN ${WITHIN} THEN NULL ELSE r.window_start END,
       closed_last = CASE WHEN ${WITHIN} THEN NULL ELSE r.last_at END,
       repeats = CASE WHEN ${WITHIN} THEN r.repeats + 1 ELSE 0 END,
       window_start = CASE WHEN ${WITHIN} THEN r.window_start ELSE $8 END,
       last_at = $8, actor_email = $4, client_address = $5, status = $6, error_code = $7
     RETURNING repeats = 0 AS opened, closed_repeats, closed_start, closed_last`,
    [r.actorUid, r.endpoint, r.missing, r.actorEmail, r.clientAddress, r.status, r.errorCode, at, windowMs],
  );
  return q.rows[0]!;
}

/** A window whose repeats are due to be written. */
export interface DueRepeats extends Refusal {
  repeats: number;
  windowStart: Date;
  lastAt: Date;
}

/**
 * Takes the unwritten repeats of windows closed by `at` (up to `limit`), setting them to zero:
 * the caller writes them to the trail in the same transaction.
 */
export async function takeClosedRepeats(
  db: Queryable,
  at: Date,
  windowMs: number,
  limit: number,
): Promise<DueRepeats[]> {
  const q = await db.query<{
    actor_uid: string;
    endpoint: string;
    missing: string;
    actor_email: string;
    client_address: string | null;
    status: number;
    error_code: number;
    repeats: number;
    window_start: Date;
    last_at: Date;
  }>(
    `WITH due AS (
       SELECT actor_uid, endpoint, missing, repeats FROM staff_refusals
        WHERE repeats > 0 AND window_start <= $1::timestamptz - $2::double precision * interval '1 millisecond'
        ORDER BY window_start LIMIT $3 FOR UPDATE SKIP LOCKED)
     UPDATE staff_refusals r SET repeats = 0 FROM due
      WHERE r.actor_uid = due.actor_uid AND r.endpoint = due.endpoint AND r.missing = due.missing
     RETURNING r.actor_uid, r.endpoint, r.missing, r.actor_email, r.client_address, r.status, r.error_code,
               due.repeats, r.window_start, r.last_at`,
    [at, windowMs, limit],
  );
  return q.rows.map((x) => ({
    actorUid: x.actor_uid,
    endpoint: x.endpoint,
    missing: x.missing,
    actorEmail: x.actor_email,
    clientAddress: x.client_address,
    status: x.status,
    errorCode: x.error_code,
    repeats: x.repeats,
    windowStart: x.window_start,
    lastAt: x.last_at,
  }));
}
