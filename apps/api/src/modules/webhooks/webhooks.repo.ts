import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, isoText, qb, rows } from '../../db/sql.ts';

/** Reads and writes of the webhook subscriptions (webhook_subscriptions). */

/** The record whose version guards a subscription's edits (record_versions). */
export const subscriptionRecord = (id: number) => `webhook:${id}`;

const DAY_MS = 86_400_000;

/** Every subscription with its standing: counts of the last day, what waits, its version. */
export function listSubscriptions(db: Queryable, now: Date, id?: number) {
  const since = new Date(now.getTime() - DAY_MS);
  return rows(
    db,
    qb
      .selectFrom('webhook_subscriptions as s')
      .leftJoin('record_versions as v', (j) => j.on('v.record', '=', sql<string>`'webhook:' || s.id`))
      // the last day's outcomes: one pass over the subscription's deliveries, two counts
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('webhook_deliveries as d')
            .select([
              sql<number>`(count(*) FILTER (WHERE d.state = 'delivered'))::int`.as('delivered'),
              sql<number>`(count(*) FILTER (WHERE d.state = 'failed'))::int`.as('failed'),
            ])
            .whereRef('d.subscription_id', '=', 's.id')
            .where('d.created_at', '>=', since)
            .as('day'),
        (j) => j.onTrue(),
      )
      .select((eb) => [
        eb.cast<string>('s.id', 'text').as('id'),
        's.url',
        's.description',
        's.event_types',
        's.state',
        's.paused_reason',
        isoText('s.paused_at').as('paused_at'),
        's.paused_by',
        isoText('s.failing_since').as('failing_since'),
        isoText('s.created_at').as('created_at'),
        's.created_by',
        isoText('s.secret_rotated_at').as('secret_rotated_at'),
        isoText('s.previous_secret_until').as('previous_secret_until'),
        isoText('s.last_delivered_at').as('last_delivered_at'),
        sql<number>`coalesce(v.version, 0)`.as('version'),
        'day.delivered',
        'day.failed',
        sql<string>`(SELECT count(*)::text FROM webhook_deliveries d
          WHERE d.subscription_id = s.id AND d.state = 'pending')`.as('pending'),
      ])
      .$if(id !== undefined, (q) => q.where('s.id', '=', id ?? 0))
      .orderBy('s.id'),
  );
}
export type SubscriptionRow = Awaited<ReturnType<typeof listSubscriptions>>[number];

/** Whether a subscription exists: the 404 of a read that found none of its rows. */
export async function subscriptionExists(db: Queryable, id: number): Promise<boolean> {
  const r = await firstRow(
    db,
    qb.selectFrom('webhook_subscriptions').select(sql<number>`1`.as('one')).where('id', '=', id),
  );
  return r !== undefined;
}

export async function countSubscriptions(db: Queryable): Promise<number> {
  const r = await firstRow(
    db,
    qb.selectFrom('webhook_subscriptions').select((eb) => eb.fn.countAll<string>().as('n')),
  );
  return Number(r?.n ?? 0);
}

/** Locks a subscription for a write and answers what the write checks, or undefined. */
export function lockSubscription(db: Queryable, id: number) {
  return firstRow(
    db,
    qb
      .selectFrom('webhook_subscriptions')
      .select(['url', 'description', 'event_types', 'state', 'paused_reason'])
      .where('id', '=', id)
      .forUpdate(),
  );
}

export async function insertSubscription(
  db: Queryable,
  s: {
    url: string;
    description: string;
    eventTypes: string[];
    secret: Buffer;
    by: { uid: string; email: string };
    at: Date;
  },
): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .insertInto('webhook_subscriptions')
      .values({
        url: s.url,
        description: s.description,
        event_types: s.eventTypes,
        secret: s.secret,
        created_by_uid: s.by.uid,
        created_by: s.by.email,
        created_at: s.at,
      })
      .returning((eb) => eb.cast<string>('id', 'text').as('id')),
  );
  return Number(r?.id);
}

export function updateSubscription(
  db: Queryable,
  id: number,
  s: { url: string; description: string; eventTypes: string[] },
) {
  return execute(
    db,
    qb
      .updateTable('webhook_subscriptions')
      .set({ url: s.url, description: s.description, event_types: s.eventTypes })
      .where('id', '=', id),
  );
}

export function deleteSubscription(db: Queryable, id: number) {
  return execute(db, qb.deleteFrom('webhook_subscriptions').where('id', '=', id));
}

/** Pauses (with why and by whom) or resumes; resuming forgets the failure that paused it. */
export function setSubscriptionState(
  db: Queryable,
  id: number,
  to: { state: 'paused'; reason: 'manual' | 'failing'; by: string | null; at: Date } | { state: 'active' },
) {
  return execute(
    db,
    qb
      .updateTable('webhook_subscriptions')
      .set(
        to.state === 'paused'
          ? { state: 'paused', paused_reason: to.reason, paused_by: to.by, paused_at: to.at }
          : { state: 'active', paused_reason: null, paused_by: null, paused_at: null, failing_since: null },
      )
      .where('id', '=', id),
  );
}

/** A new secret; the old one signs beside it until `previousUntil` (null: forgotten now). */
export function rotateSecret(
  db: Queryable,
  id: number,
  secret: Buffer,
  previousUntil: Date | null,
  at: Date,
) {
  return execute(
    db,
    qb
      .updateTable('webhook_subscriptions')
      .set((eb) => ({
        previous_secret: previousUntil ? eb.ref('secret') : null,
        previous_secret_until: previousUntil,
        secret,
        secret_rotated_at: at,
      }))
      .where('id', '=', id),
  );
}

/** What the sender needs of the subscriptions of a batch: where, and the keys that sign. */
export function sendingKeys(db: Queryable, ids: string[]) {
  return rows(
    db,
    qb
      .selectFrom('webhook_subscriptions')
      .select((eb) => [
        eb.cast<string>('id', 'text').as('id'),
        'url',
        'secret',
        'previous_secret',
        'previous_secret_until',
      ])
      .where((eb) => eb('id', '=', eb.fn.any(sql<number[]>`${ids}::bigint[]`))),
  );
}

/**
 * Subscriptions failing for at least `pauseAfterMs` with nothing delivered since, paused (by the
 * console) in the one statement that finds them; answers them, for the trail and their owners.
 */
export function pauseFailing(db: Queryable, now: Date, pauseAfterMs: number) {
  return rows(
    db,
    qb
      .updateTable('webhook_subscriptions')
      .set({ state: 'paused', paused_reason: 'failing', paused_at: now, paused_by: null })
      .where('state', '=', 'active')
      .where('failing_since', '<=', new Date(now.getTime() - pauseAfterMs))
      .returning((eb) => [
        eb.cast<string>('id', 'text').as('id'),
        'url',
        'created_by_uid',
        isoText('failing_since').as('failing_since'),
      ]),
  );
}
