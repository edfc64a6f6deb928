import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@sac/contract/audit';
import { consolePaths } from '@sac/contract/console-paths';
import {
  WEBHOOK_HEADERS,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_SECONDS,
  webhookEventOf,
} from '@sac/contract/webhooks';
import type { AppContext } from '../../app-context.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { onTrailCommitted, readTrailAfter } from '../audit/trail-stream.service.ts';
import { notifyStaff } from '../staff-notifications/staff-notifications.service.ts';
import {
  type AttemptOutcome,
  claimDue,
  failStaleDeliveries,
  insertDeliveries,
  lockFanoutCursor,
  moveFanoutCursor,
  type NewDelivery,
  pruneDeliveries,
  recordAttempts,
  subscribedTypes,
} from './deliveries.repo.ts';
import { endpointShown } from './webhook-address.ts';
import { postDelivery } from './webhook-http.ts';
import { signatureHeader } from './webhook-signing.ts';

/** The signing, for the bench's bare client (the same headers as a delivery). */
export { signatureHeader } from './webhook-signing.ts';

import { pauseFailing, sendingKeys } from './webhooks.repo.ts';

/**
 * Webhook deliveries. The events are the trail's rows (the outbox: each change writes its row in
 * its own transaction): the fan-out reads them in commit order from its cursor and queues one
 * delivery per subscription of the event's type, cursor and deliveries in one write. The sender
 * claims due deliveries, posts them signed, and records each attempt; a failure is tried again
 * with backoff for WEBHOOK_RETRY_HOURS from the event.
 */

/** Trail rows one fan-out write reads at most. */
const FANOUT_ROWS = 1000;
/** Deliveries one claim takes, and how many are posted at once. */
const CLAIM_BATCH = 100;
const POSTS_AT_ONCE = 32;
/**
 * A claimed delivery is not claimed again for this long: a batch's posts, each within the timeout,
 * run in rounds of POSTS_AT_ONCE, and the lease outlasts the slowest batch by a minute. Attempts
 * are recorded only while the claim holds (recordAttempts), so a batch that overran it sends
 * nothing twice into the log.
 */
const CLAIM_LEASE_MS = Math.ceil(CLAIM_BATCH / POSTS_AT_ONCE) * WEBHOOK_TIMEOUT_SECONDS * 1000 + 60_000;
/** How long one run keeps sending before giving its tick back. */
const RUN_BUDGET_MS = 2_000;
/** The waits before each retry; the last repeats until the day is over. */
const BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000];

/** The body of a trail row's event: Standard Webhooks' envelope around the row as the trail API shows it. */
const payloadOf = (type: string, e: AuditEvent) => JSON.stringify({ type, timestamp: e.At, data: e });

/** Reads the trail after the fan-out's cursor and queues its events; answers how many deliveries. */
async function fanOutOnce(
  ctx: AppContext,
): Promise<{ queued: number; more: boolean; subscriptions?: number }> {
  return runWrite(ctx.db, {
    lock: (tx) => lockFanoutCursor(tx),
    change: async (tx, cursor) => {
      const read = await readTrailAfter(tx, cursor, FANOUT_ROWS);
      if (read.length === 0) return { queued: 0, more: false };
      const subs = await subscribedTypes(tx);
      const now = ctx.clock.now();
      const queue: NewDelivery[] = [];
      for (const { event } of read) {
        const type = webhookEventOf(event);
        if (!type) continue;
        const payload = payloadOf(type, event);
        for (const s of subs)
          if (s.event_types.includes(type))
            queue.push({
              subscriptionId: s.id,
              eventId: `evt_${event.Id}`,
              eventType: type,
              payload,
              occurredAt: event.At,
            });
      }
      await insertDeliveries(tx, queue, now);
      await moveFanoutCursor(tx, read[read.length - 1]!.cursor);
      return { queued: queue.length, more: read.length === FANOUT_ROWS, subscriptions: subs.length };
    },
    trail: {
      none: "the fan-out queues deliveries of rows already in the trail; each delivery's attempts are its log",
    },
  });
}

/** A test event for one subscription, queued in the caller's write. */
export async function queueTest(ctx: AppContext, tx: WriteTx, subscriptionId: number): Promise<string> {
  const now = ctx.clock.now();
  const id = `evt_test_${randomUUID().replaceAll('-', '')}`;
  const payload = JSON.stringify({
    type: WEBHOOK_TEST_EVENT,
    timestamp: now.toISOString(),
    data: { Message: 'A test event from the Super Admin Console.', SubscriptionId: subscriptionId },
  });
  const [deliveryId] = await insertDeliveries(
    tx,
    [
      {
        subscriptionId: String(subscriptionId),
        eventId: id,
        eventType: WEBHOOK_TEST_EVENT,
        payload,
        occurredAt: now.toISOString(),
      },
    ],
    now,
  );
  return deliveryId!;
}

/** One delivery queued again (same event id and body, its day of retries from now), in the caller's write. */
export async function queueRedelivery(
  ctx: AppContext,
  tx: WriteTx,
  subscriptionId: number,
  of: number,
  d: { event_id: string; event_type: string; payload: string },
): Promise<string> {
  const now = ctx.clock.now();
  const [deliveryId] = await insertDeliveries(
    tx,
    [
      {
        subscriptionId: String(subscriptionId),
        eventId: d.event_id,
        eventType: d.event_type,
        payload: d.payload,
        occurredAt: now.toISOString(),
        redeliveryOf: String(of),
      },
    ],
    now,
  );
  return deliveryId!;
}

/** Where a delivery goes after an attempt: delivered, tried again later, or failed for good. */
function nextOf(
  ok: boolean,
  attemptsBefore: number,
  occurredAt: string,
  now: Date,
): Pick<AttemptOutcome, 'state' | 'next'> {
  if (ok) return { state: 'delivered', next: null };
  const wait = BACKOFF_MS[Math.min(attemptsBefore, BACKOFF_MS.length - 1)]!;
  // a tenth either way, so the retries of many deliveries that failed together spread out
  const next = new Date(now.getTime() + wait * (0.9 + Math.random() * 0.2));
  const giveUpAt = Date.parse(occurredAt) + WEBHOOK_RETRY_HOURS * 3_600_000;
  return next.getTime() > giveUpAt ? { state: 'failed', next: null } : { state: 'pending', next };
}

const TOO_OLD = `not sent: the event is more than ${WEBHOOK_RETRY_HOURS} hours old`;

/** The outcome of an event kept unsent past its day of retries: failed, without calling the endpoint. */
const tooOld = (id: string, subscriptionId: string, at: Date): AttemptOutcome => ({
  id,
  subscriptionId,
  at,
  code: null,
  error: TOO_OLD,
  durationMs: 0,
  state: 'failed',
  next: null,
  tried: false,
});

/** Posts one claimed batch and records every attempt while the claim (held until `claimedUntil`) holds. */
async function sendBatch(
  ctx: AppContext,
  claimed: Awaited<ReturnType<typeof claimDue>>,
  claimedUntil: Date,
): Promise<void> {
  // each subscription's keys opened once a batch, not once a delivery
  const batchStart = ctx.clock.now();
  const keys = new Map(
    (await sendingKeys(ctx.db, [...new Set(claimed.map((c) => c.subscription_id))])).map((k) => {
      const secrets = [ctx.crypto.decrypt(k.secret)];
      if (k.previous_secret && k.previous_secret_until && new Date(k.previous_secret_until) > batchStart)
        secrets.push(ctx.crypto.decrypt(k.previous_secret));
      return [k.id, { url: k.url, secrets }];
    }),
  );
  const outcomes: AttemptOutcome[] = [];
  let at = 0;
  const worker = async () => {
    while (at < claimed.length) {
      const d = claimed[at++]!;
      const k = keys.get(d.subscription_id);
      if (!k) continue; // deleted meanwhile: its deliveries went with it
      const now = ctx.clock.now();
      // kept while paused for longer than its day of retries: failed, not sent late
      if (Date.parse(d.occurred_at) + WEBHOOK_RETRY_HOURS * 3_600_000 < now.getTime()) {
        outcomes.push(tooOld(d.id, d.subscription_id, now));
        continue;
      }
      const timestamp = Math.floor(now.getTime() / 1000);
      const headers = {
        [WEBHOOK_HEADERS.id]: d.event_id,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signatureHeader(k.secrets, d.event_id, timestamp, d.payload),
      };
      const r = await postDelivery(k.url, headers, d.payload, ctx.config.webhooks.allowPrivate);
      const ok = r.error === null;
      outcomes.push({
        id: d.id,
        subscriptionId: d.subscription_id,
        at: now,
        code: r.code,
        error: r.error,
        durationMs: r.durationMs,
        ...nextOf(ok, d.attempt_count, d.occurred_at, now),
        tried: true,
      });
      ctx.metrics.webhookDeliveries.inc({ outcome: ok ? 'delivered' : 'failed' });
    }
  };
  await Promise.all(Array.from({ length: Math.min(POSTS_AT_ONCE, claimed.length) }, worker));
  await recordAttempts(ctx.db, outcomes, claimedUntil);
}

/** Subscriptions failing too long are paused, each with its trail row, and their makers told. */
async function pauseTheFailing(ctx: AppContext): Promise<void> {
  await runWrite(ctx.db, {
    change: (tx) => pauseFailing(tx, ctx.clock.now(), ctx.config.webhooks.pauseAfterMs),
    trail: async (tx, paused) => {
      for (const s of paused) {
        await writeActivity(tx, {
          at: ctx.clock.now(),
          action: 'webhook.pause',
          targetType: 'webhook',
          targetId: s.id,
          details: { url: endpointShown(s.url), reason: 'failing', failingSince: s.failing_since },
        });
        await notifyStaff(tx, ctx, {
          kind: 'webhook-paused',
          to: [{ uid: s.created_by_uid }],
          actorEmail: null,
          appName: s.url,
          mail: {
            subject: 'A webhook subscription was paused',
            lines: [
              `The webhook subscription to ${s.url} has failed every delivery since ${s.failing_since} and was paused.`,
              'Its events are kept: resume it once the endpoint answers again, and what is under a day old goes out.',
            ],
            path: consolePaths.webhook({ id: Number(s.id) }),
          },
        });
      }
    },
  });
}

/**
 * One run: the trail's new events queued, then what is due sent, until nothing waits or the run's
 * budget is spent. Answers the deliveries sent.
 */
export async function deliverWebhooks(ctx: AppContext, seen?: { subscriptions: boolean }): Promise<number> {
  const until = Date.now() + RUN_BUDGET_MS;
  for (;;) {
    const f = await fanOutOnce(ctx);
    if (seen && f.subscriptions !== undefined) seen.subscriptions = f.subscriptions > 0;
    if (!f.more || Date.now() > until) break;
  }
  let sent = 0;
  for (;;) {
    const at = ctx.clock.now();
    const claimed = await claimDue(ctx.db, at, CLAIM_BATCH, CLAIM_LEASE_MS);
    if (claimed.length === 0) break;
    await sendBatch(ctx, claimed, new Date(at.getTime() + CLAIM_LEASE_MS));
    sent += claimed.length;
    if (Date.now() > until) break;
  }
  // every run, not only one with failures: the last retry of a day comes before the day is over
  await pauseTheFailing(ctx);
  return sent;
}

/**
 * The webhook job (ops/periodic.ts): a run every WEBHOOK_SEND_SECONDS, and one as soon as trail
 * rows commit while there is a subscription to send them to (with none, a commit wakes nothing and
 * the poll keeps the fan-out's cursor moving).
 */
export function webhookJob(ctx: AppContext) {
  const seen = { subscriptions: true };
  return {
    name: 'webhooks',
    everyMs: ctx.config.webhooks.everyMs,
    run: () => deliverWebhooks(ctx, seen),
    wakeOn: (wake: () => void) =>
      onTrailCommitted(ctx, () => {
        if (seen.subscriptions) wake();
      }),
  };
}

/** Rows one prune statement takes at most. */
const PRUNE_ROWS = 5000;

/**
 * The hourly tidy: events kept unsent past their day of retries (a subscription paused for longer)
 * are failed, as a resume would fail them, so the queue of a subscription paused for weeks stays
 * a day long; then deliveries older than WEBHOOK_LOG_DAYS go, with their attempts, batch after
 * batch until none is left. Answers how many went.
 */
export async function pruneWebhookLog(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  for (;;) {
    const dayAgo = new Date(now.getTime() - WEBHOOK_RETRY_HOURS * 3_600_000);
    const failed = await failStaleDeliveries(ctx.db, dayAgo, now, TOO_OLD, PRUNE_ROWS);
    if (failed < PRUNE_ROWS) break;
  }
  const before = new Date(now.getTime() - ctx.config.webhooks.logMs);
  let gone = 0;
  for (;;) {
    const n = await pruneDeliveries(ctx.db, before, PRUNE_ROWS);
    gone += n;
    if (n < PRUNE_ROWS) return gone;
  }
}
