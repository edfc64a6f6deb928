import { sql } from 'kysely';
import type { Refusal } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { execute, qb, rows } from '../../db/sql.ts';
import { TRAIL_COLUMNS } from './activity.repo.ts';

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
  await execute(db, openWindowStatement(r, at, windowMs, requestId));
}

/**
 * The statement that counts a refusal outside an open window: opens one and writes the trail rows
 * (see foldRefusal).
 */
function openWindowStatement(r: Refusal, at: Date, windowMs: number, requestId: string | null) {
  // Whether the row's window is still open at `at` (read in the SET expressions as the row was).
  const within = sql<boolean>`staff_refusals.window_start > ${at}::timestamptz - ${windowMs}::double precision * interval '1 millisecond'`;
  /** The details of a refusal row; `count` and the rest are added by each kind of row. */
  const details = r.apiToken
    ? sql`jsonb_build_object('missing', ${r.missing}::text, 'status', ${r.status}::int, 'errorCode', ${r.errorCode}::int, 'apiToken', ${JSON.stringify(r.apiToken)}::jsonb)`
    : sql`jsonb_build_object('missing', ${r.missing}::text, 'status', ${r.status}::int, 'errorCode', ${r.errorCode}::int)`;
  // The closed window's unwritten repeats (when any), then the new window's first refusal.
  const trailRows = sql<{ ord: number; details: unknown }>`(VALUES
      (1, CASE WHEN fold.closed_repeats > 0 THEN ${details} || jsonb_build_object(
            'count', fold.closed_repeats, 'repeatsFrom', fold.closed_start, 'repeatsTo', fold.closed_last) END),
      (2, ${details} || jsonb_build_object('count', 1)))`.as<'row'>(sql`row(ord, details)`);
  return qb
    .with('fold', (w) =>
      w
        .insertInto('staff_refusals')
        .values({
          actor_uid: r.actorUid,
          endpoint: r.endpoint,
          missing: r.missing,
          actor_email: r.actorEmail,
          client_address: r.clientAddress,
          status: r.status,
          error_code: r.errorCode,
          window_start: at,
          last_at: at,
        })
        .onConflict((oc) =>
          oc.columns(['actor_uid', 'endpoint', 'missing']).doUpdateSet({
            closed_repeats: sql<number>`CASE WHEN ${within} THEN 0 ELSE staff_refusals.repeats END`,
            closed_start: sql<Date | null>`CASE WHEN ${within} THEN NULL ELSE staff_refusals.window_start END`,
            closed_last: sql<Date | null>`CASE WHEN ${within} THEN NULL ELSE staff_refusals.last_at END`,
            repeats: sql<number>`CASE WHEN ${within} THEN staff_refusals.repeats + 1 ELSE 0 END`,
            window_start: sql<Date>`CASE WHEN ${within} THEN staff_refusals.window_start ELSE ${at} END`,
            last_at: at,
            actor_email: r.actorEmail,
            client_address: r.clientAddress,
            status: r.status,
            error_code: r.errorCode,
          }),
        )
        .returning([sql<boolean>`repeats = 0`.as('opened'), 'closed_repeats', 'closed_start', 'closed_last']),
    )
    .insertInto('activity_log')
    .columns([...TRAIL_COLUMNS, 'request_id', 'api_token_id', 'api_token_name'])
    .expression((eb) =>
      eb
        .selectFrom('fold')
        .crossJoinLateral(trailRows)
        .select([
          sql<Date>`${at}`.as('at'),
          sql<string>`${r.actorUid}`.as('actor_uid'),
          sql<string>`${r.actorEmail}`.as('actor_email'),
          sql.lit('access.refused').as('action'),
          sql.lit('endpoint').as('target_type'),
          sql<string>`${r.endpoint}`.as('target_id'),
          sql<string | null>`${r.clientAddress}`.as('client_address'),
          'row.details',
          sql<string | null>`${requestId}`.as('request_id'),
          sql<number | null>`${r.apiToken?.id ?? null}::bigint`.as('api_token_id'),
          sql<string | null>`${r.apiToken?.name ?? null}::text`.as('api_token_name'),
        ])
        .where((eb) => eb.ref('fold.opened'))
        .where('row.details', 'is not', null)
        .orderBy('row.ord'),
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
