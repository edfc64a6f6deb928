import { z } from 'zod';
import { type AuditAction, auditEvent } from './audit.ts';
import { decimalInteger } from './validation.ts';

/**
 * Webhooks: a subscription sends the events of its types to an HTTPS endpoint, each delivery
 * signed as Standard Webhooks says (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256
 * over "id.timestamp.body" with the subscription's secret). The events are the staff trail's rows
 * of the actions below, so an event exists exactly when its change committed with its trail row.
 */

/** Each event type, what it means, and the trail actions it is sent for. */
export const WEBHOOK_EVENTS = {
  'impersonation.requested': {
    description: 'A staff member asked for access to a site, or a customer opened a request themselves.',
    actions: ['impersonation.request', 'impersonation.customer-request'],
  },
  'impersonation.consent_granted': {
    description: "The site's owner consented to the access.",
    actions: ['impersonation.consent-granted'],
  },
  'impersonation.consent_refused': {
    description: "The site's owner refused the access.",
    actions: ['impersonation.consent-denied'],
  },
  'impersonation.approved': {
    description: 'A SuperAdmin approved the request: the grant runs from now until its expiry.',
    actions: ['impersonation.approve'],
  },
  'impersonation.rejected': {
    description: 'A SuperAdmin rejected the request.',
    actions: ['impersonation.reject'],
  },
  'impersonation.edited': {
    description: 'The request was changed (roles, permissions, duration, assignees).',
    actions: ['impersonation.edit'],
  },
  'impersonation.withdrawn': {
    description: 'Its requester deleted the request before it was decided.',
    actions: ['impersonation.delete'],
  },
  'impersonation.revoked': {
    description: 'A grant was revoked, in whole or in part, before its expiry.',
    actions: ['impersonation.revoke'],
  },
  'impersonation.expired': { description: "A grant's time ran out.", actions: ['impersonation.expire'] },
  'impersonation.break_glass_opened': {
    description:
      'A SuperAdmin opened break-glass access to a site (no consent, no approval; at most 60 minutes), with its reason code and case.',
    actions: ['impersonation.break-glass'],
  },
  'impersonation.break_glass_reviewed': {
    description: 'Another SuperAdmin closed the review of a break-glass access, with a note.',
    actions: ['impersonation.break-glass-review'],
  },
  'impersonation.session_started': {
    description: 'The grant holder opened an impersonation session on the site.',
    actions: ['impersonation.session-start'],
  },
  'impersonation.session_ended': {
    description: 'An impersonation session was signed out.',
    actions: ['session.end'],
  },
  'impersonation.scope_refused': {
    description:
      'A call made in an impersonation session went beyond what the grant allows, and was refused.',
    actions: ['impersonation.call-refused'],
  },
  'staff.created': {
    description: 'A staff member was invited, or provisioned by SCIM.',
    actions: ['team.create', 'scim.user.create'],
  },
  'staff.roles_changed': { description: "A staff member's roles were changed.", actions: ['team.roles'] },
  'staff.factors_reset': {
    description: "A staff member's second factors were reset by a SuperAdmin.",
    actions: ['mfa.reset'],
  },
  'staff.deleted': {
    description: 'A staff member was deleted, or removed by SCIM.',
    actions: ['team.delete', 'scim.user.delete'],
  },
  'staff.token_created': { description: 'A staff API token was made.', actions: ['token.create'] },
  'customer.created': { description: 'A customer was created.', actions: ['customer.create'] },
  'customer.status_changed': {
    description: "A customer's status was changed.",
    actions: ['customer.status.update'],
  },
  'site.created': { description: 'A site was created.', actions: ['site.create'] },
  'site.status_changed': {
    description: 'A site was activated or deactivated.',
    actions: ['site.activate', 'site.deactivate'],
  },
  'site.secret_rotated': { description: "A site's secret was rotated.", actions: ['site.secret.rotate'] },
  'notice.sent': { description: 'A notice to site owners was sent.', actions: ['notice.send'] },
} as const satisfies Record<string, { description: string; actions: readonly AuditAction[] }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** The test delivery's type: sent only by "Send test event", to that subscription. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The headers of every delivery (Standard Webhooks' names). */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** The `data` of the test event. */
const webhookTestData = z.object({ Message: z.string(), SubscriptionId: z.number().int() });

/**
 * The body of a delivery of this type: Standard Webhooks' envelope, `timestamp` the time of the
 * trail row (of the test event: when it was sent), `data` the row as the trail API shows it.
 */
export const webhookPayload = (type: WebhookEventType | typeof WEBHOOK_TEST_EVENT) =>
  z.object({
    type: z.literal(type),
    timestamp: z.string(),
    data: type === WEBHOOK_TEST_EVENT ? webhookTestData : auditEvent,
  });

const BY_ACTION = new Map<string, WebhookEventType>(
  WEBHOOK_EVENT_TYPES.flatMap((t) => WEBHOOK_EVENTS[t].actions.map((a) => [a, t] as const)),
);

/**
 * The event type a trail row is sent as, or undefined. A signed-out session is an event only when
 * it was an impersonation session (the row names its request).
 */
export function webhookEventOf(row: { Action: string; ImpersonationRequestId: number | null }) {
  const type = BY_ACTION.get(row.Action);
  if (type === 'impersonation.session_ended' && row.ImpersonationRequestId === null) return undefined;
  return type;
}

/** Subscriptions at most (each event is one delivery per subscription). */
export const WEBHOOK_SUBSCRIPTIONS_MAX = 20;
const WEBHOOK_URL_MAX = 2000;
const WEBHOOK_DESCRIPTION_MAX = 200;
/** How long a rotated-out secret still signs (a second signature), hours. */
const WEBHOOK_OVERLAP_HOURS_MAX = 72;
export const WEBHOOK_OVERLAP_HOURS_DEFAULT = 24;
/** Retries go on for this long after an event, then the delivery has failed. */
export const WEBHOOK_RETRY_HOURS = 24;
/** The receiver must answer within this, else the attempt has failed. */
export const WEBHOOK_TIMEOUT_SECONDS = 15;
/**
 * Tests and redeliveries one subscription may be sent in an hour: each is an outbound request made
 * on a staff member's word, so a loop of clicks or a script cannot turn the sender on a receiver.
 */
export const WEBHOOK_MANUAL_PER_HOUR = 30;
/** Deliveries a page of the log shows. */
export const WEBHOOK_DELIVERIES_PAGE = 50;
/** The secret's prefix, as Standard Webhooks writes it (base64 of the key after it). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export const WEBHOOK_MESSAGES = {
  urlRequired: 'Endpoint URL is required.',
  urlTooLong: `Endpoint URL must be at most ${WEBHOOK_URL_MAX} characters.`,
  urlInvalid: 'Endpoint URL must be a full https:// address.',
  urlHasUser: 'Endpoint URL must not carry a user name or password.',
  urlHasFragment: 'Endpoint URL must not have a fragment (#).',
  urlHttpsOnly: 'Endpoint URL must be an https:// address.',
  urlPrivate: (host: string, address: string) =>
    `Endpoint URL's host ${host} is a loopback, private or link-local address (${address}); the operator has not allowed those.`,
  urlUnresolved: (host: string) => `Endpoint URL's host ${host} could not be resolved.`,
  descriptionTooLong: `Description must be at most ${WEBHOOK_DESCRIPTION_MAX} characters.`,
  typesRequired: 'Choose at least one event type.',
  typeUnknown: 'There is no such event type.',
  overlap: `The old secret's overlap must be 0 to ${WEBHOOK_OVERLAP_HOURS_MAX} hours.`,
  tooMany: `There can be at most ${WEBHOOK_SUBSCRIPTIONS_MAX} webhook subscriptions.`,
  noSuchSubscription: 'There is no such webhook subscription.',
  noSuchDelivery: 'There is no such delivery of this subscription.',
  paused: 'This subscription is paused: resume it first.',
  notPaused: 'This subscription is not paused.',
  alreadyPaused: 'This subscription is already paused.',
  manualLimit: `At most ${WEBHOOK_MANUAL_PER_HOUR} tests and redeliveries a subscription in an hour: try again later.`,
} as const;

const endpointUrl = z
  .string({ error: WEBHOOK_MESSAGES.urlRequired })
  .trim()
  .min(1, WEBHOOK_MESSAGES.urlRequired)
  .max(WEBHOOK_URL_MAX, WEBHOOK_MESSAGES.urlTooLong);
const description = z.string().trim().max(WEBHOOK_DESCRIPTION_MAX, WEBHOOK_MESSAGES.descriptionTooLong);
const eventTypes = z
  .array(
    z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]], {
      error: WEBHOOK_MESSAGES.typeUnknown,
    }),
  )
  .min(1, WEBHOOK_MESSAGES.typesRequired)
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((v) => WEBHOOK_EVENT_TYPES.filter((t) => v.includes(t)));
const subscriptionId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** POST /admin/webhooks */
export const createWebhookBody = z.object({
  Url: endpointUrl,
  Description: description.optional(),
  EventTypes: eventTypes,
});
/** PUT /admin/webhooks (If-Match: the version read) */
export const updateWebhookBody = createWebhookBody.extend({ Id: subscriptionId });
/** DELETE, pause, resume, test */
export const webhookIdBody = z.object({ Id: subscriptionId });
/** POST /admin/webhooks/rotate-secret */
export const rotateWebhookSecretBody = z.object({
  Id: subscriptionId,
  OverlapHours: z
    .number()
    .int(WEBHOOK_MESSAGES.overlap)
    .min(0, WEBHOOK_MESSAGES.overlap)
    .max(WEBHOOK_OVERLAP_HOURS_MAX, WEBHOOK_MESSAGES.overlap)
    .optional(),
});
/** POST /admin/webhooks/redeliver: one delivery sent again, with the same webhook-id. */
export const redeliverWebhookBody = z.object({ Id: subscriptionId, DeliveryId: subscriptionId });

const WEBHOOK_STATES = ['active', 'paused'] as const;
const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

const subscription = z.object({
  Id: z.number().int(),
  Url: z.string(),
  Description: z.string(),
  EventTypes: z.array(z.string()),
  State: z.enum(WEBHOOK_STATES),
  /** Why it is paused: 'manual' (by PausedBy) or 'failing' (by the console, after failing that long). */
  PausedReason: z.enum(['manual', 'failing']).nullable(),
  PausedAt: z.string().nullable(),
  PausedBy: z.string().nullable(),
  /** Its deliveries have failed since then, none delivered (null: the last one went through). */
  FailingSince: z.string().nullable(),
  CreatedAt: z.string(),
  CreatedBy: z.string().nullable(),
  SecretRotatedAt: z.string().nullable(),
  /** A rotated-out secret still signs until then (a second signature). */
  PreviousSecretUntil: z.string().nullable(),
  /** The last 24 hours' deliveries. */
  Delivered24h: z.number().int(),
  Failed24h: z.number().int(),
  Pending: z.number().int(),
  LastDeliveredAt: z.string().nullable(),
  /** The record's version, for If-Match on a change. */
  Version: z.number().int(),
});
export type WebhookSubscription = z.infer<typeof subscription>;

export const webhookListResponse = z.object({
  Data: z.array(subscription),
  /** Event types with what each means, for the form. */
  EventTypes: z.array(z.object({ Type: z.string(), Description: z.string() })),
  /** Whether loopback and private addresses may be used (the operator's WEBHOOK_ALLOW_PRIVATE). */
  PrivateAddressesAllowed: z.boolean(),
});
export const webhookResponse = z.object({ Data: subscription });
/** The secret is answered here only, when it is made (and by a rotation). */
export const webhookWithSecretResponse = z.object({ Data: subscription, Secret: z.string() });

const attempt = z.object({
  At: z.string(),
  /** The receiver's status code; null when no answer came (see Error). */
  Code: z.number().int().nullable(),
  Error: z.string().nullable(),
  DurationMs: z.number().int(),
});
const delivery = z.object({
  Id: z.number().int(),
  /** webhook-id: the same for a redelivery of the event. */
  EventId: z.string(),
  EventType: z.string(),
  CreatedAt: z.string(),
  State: z.enum(DELIVERY_STATES),
  Attempts: z.array(attempt),
  NextAttemptAt: z.string().nullable(),
  DeliveredAt: z.string().nullable(),
  /** The body sent (the trail row), as JSON text. */
  Payload: z.string(),
  /** A redelivery names the delivery it repeats. */
  RedeliveryOf: z.number().int().nullable(),
});
export type WebhookDelivery = z.infer<typeof delivery>;

export const webhookDeliveriesQuery = z.object({
  id: decimalInteger(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)),
  /** Older than this delivery id (the next page). */
  before: decimalInteger(z.number().int().positive().max(Number.MAX_SAFE_INTEGER)).optional(),
  state: z.enum(DELIVERY_STATES).optional(),
});
export const webhookDeliveriesResponse = z.object({
  Data: z.array(delivery),
  /** The `before` of the next page; null on the last. */
  Before: z.number().int().nullable(),
});
export const webhookDeliveryResponse = z.object({ DeliveryId: z.number().int() });
