import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '@sac/contract/audit';
import { consolePaths } from '@sac/contract/console-paths';
import { WEBHOOK_RETRY_HOURS, WEBHOOK_TEST_EVENT, webhookEventOf } from '@sac/contract/webhooks';
import type { AppContext } from '../../app-context.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { onTrailCommitted, readTrailAfter } from '../audit/trail-stream.service.ts';
import { notifyStaff } from '../staff-notifications/staff-notifications.service.ts';
import {
  failStaleDeliveries,
  insertDeliveries,
  lockFanoutCursor,
  moveFanoutCursor,
  type NewDelivery,
  pruneDeliveries,
  subscribedTypes,
} from './deliveries.repo.ts';
import { endpointShown } from './webhook-address.ts';
import { sendDue, TOO_OLD } from './webhook-sender.ts';
import { pauseFailing } from './webhooks.repo.ts';

/** The signing, for the bench's bare client (the same headers as a delivery). */
export { signatureHeader } from './webhook-signing.ts';

/**
 * Webhook deliveries. The events are the trail's rows (the outbox: each change writes its row in
 * its own transaction): the fan-out reads them in commit order from its cursor and queues one
 * delivery per subscription of the event's type, cursor and deliveries in one write. The sender
 * (webhook-sender.ts) claims due deliveries, posts them signed, and records each attempt; a
 * failure is tried again with backoff for WEBHOOK_RETRY_HOURS from the event.
 */

/** Trail rows one fan-out write reads at most. */
const FANOUT_ROWS = 1000;
/** How long one run keeps claiming before giving its tick back (what is in flight then finishes). */
const RUN_BUDGET_MS = 2_000;

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
  const sent = await sendDue(ctx, until);
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
