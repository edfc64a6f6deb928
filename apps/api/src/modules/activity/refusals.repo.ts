import { sql } from 'kysely';
import type { Refusal } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { qb, rows } from '../../db/sql.ts';

const WITHIN = `r.window_start > $8::timestamptz - $9::double precision * interval '1 millisecond'`;

/** The details of a refusal row; `count` and the rest are added by each kind of row. */
const DETAILS = `jsonb_build_object('missing', $3::text, 'status', $6::int, 'errorCode', $7::int)`;

/**
 * Counts a refusal in its (actor, endpoint, missing) row and, when that opens a window, writes the
 * trail rows, in one statement (atomic without a transaction, and as cheap as an insert while a
 * flood repeats). Within the open window it only adds a repeat; otherwise it opens a new window
 * (the SET expressions read the row as it was) and appends the closed window's unwritten repeats
 * as one row with their count, then the new window's first refusal (count 1).
 */
export async function foldRefusal(
  db: Queryable,
  r: Refusal,
  at: Date,
  windowMs: number,
  requestId: string | null,
): Promise<void> {
  // A repeat within the open window, the whole of a flood: one small prepared update.
  const opensAfter = new Date(at.getTime() - windowMs);
  const repeat = await rows(
    db,
    qb
      .updateTable('staff_refusals')
      .set((eb) => ({ repeats: eb('repeats', '+', 1), last_at: at }))
      .where('actor_uid', '=', r.actorUid)
      .where('endpoint', '=', r.endpoint)
      .where('missing', '=', r.missing)
      .where('window_start', '>', opensAfter)
      .returning(sql.lit(1).as('one')),
    { prepared: true },
  );
  if (repeat.length > 0) return;
  await db.query(
    `WITH fold AS (
       INSERT INTO staff_refusals AS r (actor_uid, endpoint, missing, actor_email, client_address, status, error_code,
                                        window_start, last_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
       ON CONFLICT (actor_uid, endpoint, missing) DO UPDATE SET
         closed_repeats = CASE WHEN ${WITHIN} THEN 0 ELSE r.repeats END,
         closed_start = CASE WHEN ${WITHIN} THEN NULL ELSE r.window_start END,
         closed_last = CASE WHEN ${WITHIN} THEN NULL ELSE r.last_at END,
         repeats = CASE WHEN ${WITHIN} THEN r.repeats + 1 ELSE 0 END,
         window_start = CASE WHEN ${WITHIN} THEN r.window_start ELSE $8 END,
         last_at = $8, actor_email = $4, client_address = $5, status = $6, error_code = $7
       RETURNING repeats = 0 AS opened, closed_repeats, closed_start, closed_last)
     INSERT INTO activity_log (at, actor_uid, actor_email, action, target_type, target_id, client_address, details,
                               request_id)
     SELECT $8, $1, $4, 'access.refused', 'endpoint', $2, $5, row.details, $10
       FROM fold CROSS JOIN LATERAL (VALUES
         (1, CASE WHEN fold.closed_repeats > 0 THEN ${DETAILS} || jsonb_build_object(
               'count', fold.closed_repeats, 'repeatsFrom', fold.closed_start, 'repeatsTo', fold.closed_last) END),
         (2, ${DETAILS} || jsonb_build_object('count', 1))) AS row(ord, details)
      WHERE fold.opened AND row.details IS NOT NULL
      ORDER BY row.ord`,
    [
      r.actorUid,
      r.endpoint,
      r.missing,
      r.actorEmail,
      r.clientAddress,
      r.status,
      r.errorCode,
      at,
      windowMs,
      requestId,
    ],
  );
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
  const q = await rows(
    db,
    qb
      .with('due', (w) =>
        w
          .selectFrom('staff_refusals')
          .select(['actor_uid', 'endpoint', 'missing', 'repeats'])
          .where('repeats', '>', 0)
          .where('window_start', '<=', new Date(at.getTime() - windowMs))
          .orderBy('window_start')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .updateTable('staff_refusals as r')
      .from('due')
      .set({ repeats: 0 })
      .whereRef('r.actor_uid', '=', 'due.actor_uid')
      .whereRef('r.endpoint', '=', 'due.endpoint')
      .whereRef('r.missing', '=', 'due.missing')
      .returning([
        'r.actor_uid',
        'r.endpoint',
        'r.missing',
        'r.actor_email',
        'r.client_address',
        'r.status',
        'r.error_code',
        'due.repeats',
        'r.window_start',
        'r.last_at',
      ]),
  );
  return q.map((x) => ({
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
