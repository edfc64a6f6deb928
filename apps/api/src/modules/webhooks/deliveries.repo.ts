import { WEBHOOK_TEST_EVENT } from '@sac/contract/webhooks';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, isoText, qb, rows, statement } from '../../db/sql.ts';

/** Reads and writes of the webhook deliveries, their attempts and the fan-out's cursor. */

export interface FanoutCursor {
  txid: string;
  id: string;
}

/** The fan-out's place in the trail, locked for the run that moves it (one run at a time). */
export async function lockFanoutCursor(db: Queryable): Promise<FanoutCursor> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('webhook_fanout')
      .select((eb) => [
        eb.cast<string>('txid', 'text').as('txid'),
        eb.cast<string>('last_id', 'text').as('id'),
      ])
      .forUpdate(),
  );
  return r ?? { txid: '0', id: '0' };
}

export function moveFanoutCursor(db: Queryable, to: FanoutCursor) {
  return execute(
    db,
    qb.updateTable('webhook_fanout').set({
      txid: sql<number>`${to.txid}::bigint`,
      last_id: sql<number>`${to.id}::bigint`,
    }),
  );
}

/** The subscriptions (active or paused: a paused one keeps its events for when it resumes) and their types. */
export function subscribedTypes(db: Queryable) {
  return rows(
    db,
    qb
      .selectFrom('webhook_subscriptions')
      .select((eb) => [eb.cast<string>('id', 'text').as('id'), 'event_types']),
  );
}

export interface NewDelivery {
  subscriptionId: string;
  eventId: string;
  eventType: string;
  payload: string;
  occurredAt: string;
  redeliveryOf?: string | null;
}

/** Queues deliveries, due now, in one statement; answers their ids in order. */
export async function insertDeliveries(db: Queryable, ds: NewDelivery[], now: Date): Promise<string[]> {
  if (ds.length === 0) return [];
  const u = sql<{
    s: string;
    e: string;
    t: string;
    p: string;
    o: string;
    r: string | null;
    i: number;
  }>`unnest(
      ${ds.map((d) => d.subscriptionId)}::bigint[], ${ds.map((d) => d.eventId)}::text[],
      ${ds.map((d) => d.eventType)}::text[], ${ds.map((d) => d.payload)}::text[],
      ${ds.map((d) => d.occurredAt)}::timestamptz[], ${ds.map((d) => d.redeliveryOf ?? null)}::bigint[])
      WITH ORDINALITY`.as<'u'>(sql`u(s, e, t, p, o, r, i)`);
  const found = await rows(
    db,
    qb
      .insertInto('webhook_deliveries')
      .columns([
        'subscription_id',
        'event_id',
        'event_type',
        'payload',
        'occurred_at',
        'redelivery_of',
        'created_at',
        'next_attempt_at',
      ])
      .expression(
        qb
          .selectFrom(u)
          .select(['u.s', 'u.e', 'u.t', 'u.p', 'u.o', 'u.r'])
          .select([sql<Date>`${now}::timestamptz`.as('c'), sql<Date>`${now}::timestamptz`.as('n')])
          .orderBy('u.i'),
      )
      .returning((eb) => eb.cast<string>('id', 'text').as('id')),
  );
  return found.map((r) => r.id);
}

/**
 * Claims up to `limit` due deliveries of active subscriptions (a test goes out even while paused),
 * at most `perSubscription` of any one subscription and none of the subscriptions in `except`
 * (those the sender is still busy with): their next attempt is moved past `leaseMs` in the one
 * statement that picks them, so another run (another instance) does not take them meanwhile. The
 * candidates are read without locks (a window cannot share a SELECT with them, and locking the
 * rows a claim then leaves cost more than the claim); only the chosen rows are locked, skipping
 * those another run holds (no wait, no deadlock between two claims), and the UPDATE checks each
 * row again as it writes it, so a row another run claimed meanwhile is not taken twice. The cap is taken among the first candidates in due order, so a subscription with a long
 * queue at the front yields its cap and leaves the rest of the claim to the others.
 */
export function claimDue(
  db: Queryable,
  now: Date,
  limit: number,
  leaseMs: number,
  opts: { perSubscription: number; except: readonly string[] } = { perSubscription: limit, except: [] },
) {
  return rows<{
    id: string;
    subscription_id: string;
    event_id: string;
    payload: string;
    occurred_at: string;
    attempt_count: number;
  }>(
    db,
    statement(sql`WITH candidates AS (
       SELECT d.id, d.subscription_id, d.next_attempt_at FROM webhook_deliveries d
         JOIN webhook_subscriptions s ON s.id = d.subscription_id
       WHERE d.state = 'pending' AND d.next_attempt_at <= ${now.toISOString()}::timestamptz
         AND (s.state = 'active' OR d.event_type = 'webhook.test')
         AND NOT (d.subscription_id = ANY(${[...opts.except]}::bigint[]))
       ORDER BY d.next_attempt_at LIMIT ${limit * 4}
     ), chosen AS (
       SELECT id FROM (
         SELECT id, next_attempt_at,
           row_number() OVER (PARTITION BY subscription_id ORDER BY next_attempt_at, id) AS nth
         FROM candidates) c
       WHERE nth <= ${opts.perSubscription} ORDER BY next_attempt_at LIMIT ${limit}
     ), due AS (
       SELECT id FROM webhook_deliveries WHERE id IN (SELECT id FROM chosen)
       FOR UPDATE SKIP LOCKED
     )
     UPDATE webhook_deliveries w SET next_attempt_at = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz
     FROM due WHERE w.id = due.id
       AND w.state = 'pending' AND w.next_attempt_at <= ${now.toISOString()}::timestamptz
     RETURNING w.id::text AS id, w.subscription_id::text AS subscription_id, w.event_id, w.payload,
       ${isoText('w.occurred_at')} AS occurred_at, w.attempt_count`),
  );
}

export interface AttemptOutcome {
  id: string;
  subscriptionId: string;
  at: Date;
  code: number | null;
  error: string | null;
  durationMs: number;
  /** delivered, pending (tried again at `next`), or failed (given up). */
  state: 'delivered' | 'pending' | 'failed';
  next: Date | null;
  /**
   * Whether the endpoint was called: an event failed unsent (older than its day of retries, kept
   * through a pause) says nothing of the endpoint's health.
   */
  tried: boolean;
}

/**
 * Records a batch of attempts in one statement: each delivery's new state, its attempt in the log,
 * and each subscription's health from the attempts that called it (delivered: not failing; else
 * failing since its first failure). With `claimedUntil`, only deliveries still held by that claim
 * are recorded: one whose lease ran out and that another run claimed again is that run's to record.
 */
export async function recordAttempts(
  db: Queryable,
  os: AttemptOutcome[],
  claimedUntil: Date | null,
): Promise<void> {
  if (os.length === 0) return;
  const arr = <T>(f: (o: AttemptOutcome) => T) => os.map(f);
  await execute(
    db,
    statement(sql`WITH r AS (
       SELECT * FROM unnest(${arr((o) => o.id)}::bigint[], ${arr((o) => o.subscriptionId)}::bigint[],
         ${arr((o) => o.at.toISOString())}::timestamptz[], ${arr((o) => o.code)}::int[],
         ${arr((o) => o.error)}::text[], ${arr((o) => o.durationMs)}::int[], ${arr((o) => o.state)}::text[],
         ${arr((o) => o.next?.toISOString() ?? null)}::timestamptz[], ${arr((o) => o.tried)}::boolean[])
         AS r(id, sub, at, code, error, dur, state, next, tried)
     ), d AS (
       UPDATE webhook_deliveries w SET state = r.state, next_attempt_at = r.next,
         attempt_count = w.attempt_count + 1,
         delivered_at = CASE WHEN r.state = 'delivered' THEN r.at ELSE w.delivered_at END
       FROM r WHERE w.id = r.id AND w.state = 'pending'
         AND (${claimedUntil?.toISOString() ?? null}::timestamptz IS NULL
           OR w.next_attempt_at = ${claimedUntil?.toISOString() ?? null}::timestamptz)
       RETURNING w.id
     ), a AS (
       INSERT INTO webhook_attempts (delivery_id, at, code, error, duration_ms)
       SELECT r.id, r.at, r.code, r.error, r.dur FROM r JOIN d ON d.id = r.id
     ), h AS (
       SELECT r.sub, max(r.at) FILTER (WHERE r.state = 'delivered') AS ok,
         min(r.at) FILTER (WHERE r.state <> 'delivered') AS bad
       FROM r JOIN d ON d.id = r.id WHERE r.tried GROUP BY r.sub
     )
     UPDATE webhook_subscriptions s SET
       last_delivered_at = coalesce(h.ok, s.last_delivered_at),
       failing_since = CASE WHEN h.ok IS NOT NULL THEN NULL ELSE coalesce(s.failing_since, h.bad) END
     FROM h WHERE s.id = h.sub`),
  );
}

/**
 * Fails, in one statement, up to `limit` pending deliveries of events that happened before
 * `before` (past their day of retries: kept through a pause that outlasted it), each with its
 * attempt in the log saying why, without calling the endpoint or touching its health. Rows a
 * running batch holds are left to it. Answers how many.
 */
export async function failStaleDeliveries(
  db: Queryable,
  before: Date,
  now: Date,
  error: string,
  limit: number,
): Promise<number> {
  const r = await rows<{ id: string }>(
    db,
    statement(sql`WITH s AS (
       SELECT id FROM webhook_deliveries WHERE state = 'pending' AND occurred_at < ${before.toISOString()}::timestamptz
       LIMIT ${limit} FOR UPDATE SKIP LOCKED
     ), d AS (
       UPDATE webhook_deliveries w SET state = 'failed', next_attempt_at = NULL, attempt_count = w.attempt_count + 1
       FROM s WHERE w.id = s.id RETURNING w.id
     )
     INSERT INTO webhook_attempts (delivery_id, at, code, error, duration_ms)
     SELECT d.id, ${now.toISOString()}::timestamptz, NULL, ${error}, 0 FROM d
     RETURNING delivery_id::text AS id`),
  );
  return r.length;
}

/** A page of a subscription's log, newest first, with every attempt of each delivery. */
export function deliveryPage(
  db: Queryable,
  subscriptionId: number,
  opts: { before?: number; state?: string; limit: number },
) {
  return rows(
    db,
    qb
      .selectFrom('webhook_deliveries as d')
      .select((eb) => [
        eb.cast<string>('d.id', 'text').as('id'),
        'd.event_id',
        'd.event_type',
        isoText('d.created_at').as('created_at'),
        'd.state',
        isoText('d.next_attempt_at').as('next_attempt_at'),
        isoText('d.delivered_at').as('delivered_at'),
        'd.payload',
        eb.cast<string | null>('d.redelivery_of', 'text').as('redelivery_of'),
        sql<Array<{ at: string; code: number | null; error: string | null; ms: number }>>`coalesce((
          SELECT json_agg(json_build_object('at', ${isoText('a.at')}, 'code', a.code, 'error', a.error,
            'ms', a.duration_ms) ORDER BY a.at)
          FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json)`.as('attempts'),
      ])
      .where('d.subscription_id', '=', subscriptionId)
      .$if(opts.before !== undefined, (q) => q.where('d.id', '<', opts.before ?? 0))
      .$if(opts.state !== undefined, (q) => q.where('d.state', '=', opts.state as 'pending'))
      .orderBy('d.id', 'desc')
      .limit(opts.limit + 1),
  );
}

/** One delivery of a subscription, to send again. */
export function deliveryOf(db: Queryable, subscriptionId: number, deliveryId: number) {
  return firstRow(
    db,
    qb
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'event_type', 'payload', isoText('occurred_at').as('occurred_at'), 'state'])
      .where('subscription_id', '=', subscriptionId)
      .where('id', '=', deliveryId),
  );
}

/**
 * How many tests and redeliveries of a subscription were made since `since`, counted up to `limit`
 * (the partial index webhook_deliveries_manual_idx holds those rows only).
 */
export async function manualDeliveriesSince(
  db: Queryable,
  subscriptionId: number,
  since: Date,
  limit: number,
): Promise<number> {
  const row = await firstRow(
    db,
    qb
      .selectFrom((eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('subscription_id', '=', subscriptionId)
          .where('created_at', '>', since)
          .where((w) => w.or([w('event_type', '=', WEBHOOK_TEST_EVENT), w('redelivery_of', 'is not', null)]))
          .limit(limit)
          .as('m'),
      )
      .select((eb) => eb.fn.countAll<string>().as('n')),
  );
  return Number(row?.n ?? 0);
}

/**
 * Deliveries made before `before` (their attempts with them), up to `limit`; answers how many. A
 * pending one goes too: made before the retention, its event is past its day of retries.
 */
export async function pruneDeliveries(db: Queryable, before: Date, limit: number): Promise<number> {
  const gone = await rows(
    db,
    qb
      .deleteFrom('webhook_deliveries')
      .where('id', 'in', (eb) =>
        eb.selectFrom('webhook_deliveries').select('id').where('created_at', '<', before).limit(limit),
      )
      .returning('id'),
  );
  return gone.length;
}
