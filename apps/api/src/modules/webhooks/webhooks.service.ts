import type { ActivityAction } from '@sac/contract/audit';
import {
  WEBHOOK_MESSAGES as M,
  WEBHOOK_DELIVERIES_PAGE,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_MANUAL_PER_HOUR,
  WEBHOOK_OVERLAP_HOURS_DEFAULT,
  WEBHOOK_SUBSCRIPTIONS_MAX,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@sac/contract/webhooks';
import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { Versioned } from '../../lib/record-version.ts';
import { runWrite, type WriteTx } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { deliveryOf, deliveryPage, manualDeliveriesSince } from './deliveries.repo.ts';
import { checkEndpoint, endpointShown } from './webhook-address.ts';
import { queueRedelivery, queueTest } from './webhook-delivery.service.ts';
import { newSigningSecret } from './webhook-signing.ts';
import {
  countSubscriptions,
  deleteSubscription,
  insertSubscription,
  listSubscriptions,
  lockSubscription,
  rotateSecret,
  type SubscriptionRow,
  setSubscriptionState,
  subscriptionExists,
  subscriptionRecord,
  updateSubscription,
} from './webhooks.repo.ts';

/**
 * Webhook subscriptions (webhooks.manage): an endpoint, the event types it takes, its signing
 * secret (answered once, when made or rotated), pause and resume, a test and a redelivery. Every
 * change is one write with its trail row (webhook.*).
 */

const subscriptionOut = (r: SubscriptionRow): WebhookSubscription => {
  return {
    Id: Number(r.id),
    Url: r.url,
    Description: r.description,
    EventTypes: r.event_types,
    State: r.state as WebhookSubscription['State'],
    PausedReason: r.paused_reason as WebhookSubscription['PausedReason'],
    PausedAt: r.paused_at,
    PausedBy: r.paused_by,
    FailingSince: r.failing_since,
    CreatedAt: r.created_at,
    CreatedBy: r.created_by,
    SecretRotatedAt: r.secret_rotated_at,
    PreviousSecretUntil: r.previous_secret_until,
    Delivered24h: r.delivered ?? 0,
    Failed24h: r.failed ?? 0,
    Pending: Number(r.pending ?? 0),
    LastDeliveredAt: r.last_delivered_at,
    Version: Number(r.version),
  };
};

const notFound = () => new AppError('webhookNotFound', M.noSuchSubscription);

async function readOne(ctx: AppContext, id: number): Promise<WebhookSubscription> {
  const [r] = await listSubscriptions(ctx.db, ctx.clock.now(), id);
  if (!r) throw notFound();
  return subscriptionOut(r);
}

export async function list(ctx: AppContext) {
  const found = await listSubscriptions(ctx.db, ctx.clock.now());
  return {
    Data: found.map(subscriptionOut),
    EventTypes: WEBHOOK_EVENT_TYPES.map((t) => ({ Type: t, Description: WEBHOOK_EVENTS[t].description })),
    PrivateAddressesAllowed: ctx.config.webhooks.allowPrivate,
  };
}

function trail(
  ctx: AppContext,
  call: StaffCall,
  tx: WriteTx,
  action: ActivityAction,
  id: number,
  details: Record<string, unknown>,
) {
  return writeActivity(tx, {
    at: ctx.clock.now(),
    action,
    actorUid: call.session.uid,
    actorEmail: call.session.email,
    targetType: 'webhook',
    targetId: String(id),
    clientAddress: call.clientAddress,
    details,
  });
}

/** Locks a subscription for a write and answers it (404 when there is none). */
async function locked(tx: WriteTx, id: number) {
  const s = await lockSubscription(tx, id);
  if (!s) throw notFound();
  return s;
}

interface SubscriptionInput {
  Url: string;
  Description?: string | undefined;
  EventTypes: string[];
}

export async function create(ctx: AppContext, call: StaffCall, input: SubscriptionInput) {
  const url = await checkEndpoint(input.Url, ctx.config.webhooks.allowPrivate);
  const secret = newSigningSecret();
  const fields = { url, description: input.Description ?? '', eventTypes: input.EventTypes };
  const id = await runWrite(ctx.db, {
    lock: async (tx) => {
      if ((await countSubscriptions(tx)) >= WEBHOOK_SUBSCRIPTIONS_MAX)
        throw new AppError('webhookLimit', M.tooMany);
    },
    change: (tx) =>
      insertSubscription(tx, {
        ...fields,
        secret: ctx.crypto.encrypt(secret),
        by: { uid: call.session.uid, email: call.session.email },
        at: ctx.clock.now(),
      }),
    trail: (tx, id) =>
      trail(ctx, call, tx, 'webhook.create', id, { url: endpointShown(url), eventTypes: fields.eventTypes }),
  });
  return { Data: await readOne(ctx, id), Secret: secret };
}

export async function update(ctx: AppContext, call: StaffCall, input: SubscriptionInput & { Id: number }) {
  const url = await checkEndpoint(input.Url, ctx.config.webhooks.allowPrivate);
  const after = { url, description: input.Description ?? '', eventTypes: input.EventTypes };
  const version = await runWrite(ctx.db, {
    lock: (tx) => locked(tx, input.Id),
    version: { record: subscriptionRecord(input.Id), expected: call.expectedVersion },
    change: async (tx, _before, version) => {
      await updateSubscription(tx, input.Id, after);
      return version ?? 0;
    },
    trail: (tx, _v, before) =>
      trail(ctx, call, tx, 'webhook.update', input.Id, {
        before: {
          url: endpointShown(before.url),
          description: before.description,
          eventTypes: before.event_types,
        },
        after: { ...after, url: endpointShown(after.url) },
      }),
  });
  return new Versioned({ Data: await readOne(ctx, input.Id) }, version);
}

export async function remove(ctx: AppContext, call: StaffCall, id: number) {
  await runWrite(ctx.db, {
    lock: (tx) => locked(tx, id),
    change: (tx) => deleteSubscription(tx, id),
    trail: (tx, _d, before) => trail(ctx, call, tx, 'webhook.delete', id, { url: endpointShown(before.url) }),
  });
  return { IsPosted: true };
}

export async function pause(ctx: AppContext, call: StaffCall, id: number) {
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const s = await locked(tx, id);
      if (s.state === 'paused') throw new AppError('webhookState', M.alreadyPaused);
      return s;
    },
    change: (tx) =>
      setSubscriptionState(tx, id, {
        state: 'paused',
        reason: 'manual',
        by: call.session.email,
        at: ctx.clock.now(),
      }),
    trail: (tx, _d, s) => trail(ctx, call, tx, 'webhook.pause', id, { url: endpointShown(s.url) }),
  });
  return { Data: await readOne(ctx, id) };
}

export async function resume(ctx: AppContext, call: StaffCall, id: number) {
  await runWrite(ctx.db, {
    lock: async (tx) => {
      const s = await locked(tx, id);
      if (s.state !== 'paused') throw new AppError('webhookState', M.notPaused);
      return s;
    },
    change: (tx) => setSubscriptionState(tx, id, { state: 'active' }),
    trail: (tx, _d, s) =>
      trail(ctx, call, tx, 'webhook.resume', id, { url: endpointShown(s.url), wasPaused: s.paused_reason }),
  });
  return { Data: await readOne(ctx, id) };
}

export async function rotate(
  ctx: AppContext,
  call: StaffCall,
  input: { Id: number; OverlapHours?: number | undefined },
) {
  const hours = input.OverlapHours ?? WEBHOOK_OVERLAP_HOURS_DEFAULT;
  const secret = newSigningSecret();
  const now = ctx.clock.now();
  const until = hours > 0 ? new Date(now.getTime() + hours * 3_600_000) : null;
  await runWrite(ctx.db, {
    lock: (tx) => locked(tx, input.Id),
    change: (tx) => rotateSecret(tx, input.Id, ctx.crypto.encrypt(secret), until, now),
    trail: (tx) =>
      trail(ctx, call, tx, 'webhook.rotate', input.Id, { previousSecretUntil: until?.toISOString() ?? null }),
  });
  return { Data: await readOne(ctx, input.Id), Secret: secret };
}

/**
 * Refuses a test or redelivery past WEBHOOK_MANUAL_PER_HOUR of the subscription's last hour; counted
 * under the subscription's lock, so requests racing each other cannot pass the limit together.
 */
async function withinManualLimit(ctx: AppContext, tx: WriteTx, id: number): Promise<void> {
  const since = new Date(ctx.clock.now().getTime() - 3_600_000);
  if ((await manualDeliveriesSince(tx, id, since, WEBHOOK_MANUAL_PER_HOUR)) >= WEBHOOK_MANUAL_PER_HOUR)
    throw new AppError('webhookManualLimit', M.manualLimit);
}

export async function test(ctx: AppContext, call: StaffCall, id: number) {
  const deliveryId = await runWrite(ctx.db, {
    lock: async (tx) => {
      await locked(tx, id);
      await withinManualLimit(ctx, tx, id);
    },
    change: (tx) => queueTest(ctx, tx, id),
    trail: (tx, deliveryId) => trail(ctx, call, tx, 'webhook.test', id, { deliveryId: Number(deliveryId) }),
  });
  return { DeliveryId: Number(deliveryId) };
}

export async function redeliver(ctx: AppContext, call: StaffCall, input: { Id: number; DeliveryId: number }) {
  const deliveryId = await runWrite(ctx.db, {
    lock: async (tx) => {
      const s = await locked(tx, input.Id);
      if (s.state === 'paused') throw new AppError('webhookState', M.paused);
      const d = await deliveryOf(tx, input.Id, input.DeliveryId);
      if (!d) throw new AppError('webhookNotFound', M.noSuchDelivery);
      await withinManualLimit(ctx, tx, input.Id);
      return d;
    },
    change: (tx, d) => queueRedelivery(ctx, tx, input.Id, input.DeliveryId, d),
    trail: (tx, newId, d) =>
      trail(ctx, call, tx, 'webhook.redeliver', input.Id, {
        deliveryId: input.DeliveryId,
        redeliveryId: Number(newId),
        eventId: d.event_id,
      }),
  });
  return { DeliveryId: Number(deliveryId) };
}

export async function deliveries(
  ctx: AppContext,
  q: { id: number; before?: number | undefined; state?: string | undefined },
) {
  const found = await deliveryPage(ctx.db, q.id, {
    before: q.before,
    state: q.state,
    limit: WEBHOOK_DELIVERIES_PAGE,
  });
  // an empty page of a subscription that does not exist is a 404, on any page
  if (found.length === 0 && !(await subscriptionExists(ctx.db, q.id))) throw notFound();
  const page = found.slice(0, WEBHOOK_DELIVERIES_PAGE);
  const more = found.length > WEBHOOK_DELIVERIES_PAGE;
  return {
    Data: page.map(
      (d): WebhookDelivery => ({
        Id: Number(d.id),
        EventId: d.event_id,
        EventType: d.event_type,
        CreatedAt: d.created_at,
        State: d.state as WebhookDelivery['State'],
        Attempts: d.attempts.map((a) => ({ At: a.at, Code: a.code, Error: a.error, DurationMs: a.ms })),
        NextAttemptAt: d.state === 'pending' ? d.next_attempt_at : null,
        DeliveredAt: d.delivered_at,
        Payload: d.payload,
        RedeliveryOf: d.redelivery_of === null ? null : Number(d.redelivery_of),
      }),
    ),
    Before: more ? Number(page[page.length - 1]!.id) : null,
  };
}
