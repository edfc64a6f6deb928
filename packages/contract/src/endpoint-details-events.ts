import { okResponse } from './auth.ts';
import { type DetailsPart, errors } from './endpoint-details.ts';
import {
  createWebhookBody,
  redeliverWebhookBody,
  rotateWebhookSecretBody,
  updateWebhookBody,
  webhookDeliveriesQuery,
  webhookDeliveriesResponse,
  webhookDeliveryResponse,
  webhookIdBody,
  webhookListResponse,
  webhookResponse,
  webhookWithSecretResponse,
} from './webhooks.ts';

/** Summary, tag and schemas of the webhook subscriptions (the events are in the document's `webhooks`). */
export const EVENTS_DETAILS = {
  webhookList: {
    summary:
      'The webhook subscriptions (never their secrets): endpoint, event types, state, when they began failing, and the last 24 hours of deliveries. Also every event type with what it means.',
    tag: 'Webhooks',
    responses: { 200: webhookListResponse, ...errors(401, 403) },
  },
  webhookCreate: {
    summary:
      'Subscribe an endpoint to event types. The endpoint must be https and must not be on a loopback, private or link-local address unless the operator allows those (WEBHOOK_ALLOW_PRIVATE); it is checked again at every delivery. Answers the signing secret (whsec_…) once. Recorded (webhook.create).',
    tag: 'Webhooks',
    body: createWebhookBody,
    responses: { 200: webhookWithSecretResponse, ...errors(400, 401, 403, 409) },
  },
  webhookUpdate: {
    summary:
      "Change a subscription's endpoint, description and event types (If-Match: the Version read). Deliveries still waiting go to the new endpoint (each attempt posts to the subscription's endpoint of that moment); events of types taken out are still sent if already queued. Recorded with before and after (webhook.update).",
    tag: 'Webhooks',
    versioned: 'if-match',
    body: updateWebhookBody,
    responses: { 200: webhookResponse, ...errors(400, 401, 403, 404, 409, 412) },
  },
  webhookDelete: {
    summary:
      'Delete a subscription and its delivery log; what was queued for it is not sent. Recorded (webhook.delete).',
    tag: 'Webhooks',
    body: webhookIdBody,
    responses: { 200: okResponse, ...errors(400, 401, 403, 404) },
  },
  webhookPause: {
    summary:
      'Pause a subscription: events go on being queued for it but nothing is sent until it is resumed (retries stop too; an event older than 24 hours at resume has failed). Recorded (webhook.pause).',
    tag: 'Webhooks',
    body: webhookIdBody,
    responses: { 200: webhookResponse, ...errors(400, 401, 403, 404, 409) },
  },
  webhookResume: {
    summary:
      'Resume a paused subscription (paused by hand, or by the console after failing for WEBHOOK_PAUSE_AFTER_HOURS): what is queued and under 24 hours old goes out at once. Recorded (webhook.resume).',
    tag: 'Webhooks',
    body: webhookIdBody,
    responses: { 200: webhookResponse, ...errors(400, 401, 403, 404, 409) },
  },
  webhookRotateSecret: {
    summary:
      'A new signing secret, answered once. The old one goes on signing beside it (a second signature in webhook-signature) for OverlapHours (default 24, at most 72; 0 ends it now), so the receiver can switch without losing a delivery. Recorded (webhook.rotate).',
    tag: 'Webhooks',
    body: rotateWebhookSecretBody,
    responses: { 200: webhookWithSecretResponse, ...errors(400, 401, 403, 404) },
  },
  webhookTest: {
    summary:
      'Send a test event (type webhook.test) to the endpoint now, even while paused; its delivery shows in the log. At most WEBHOOK_MANUAL_PER_HOUR (30) tests and redeliveries a subscription in an hour (429, 1164). Recorded (webhook.test).',
    tag: 'Webhooks',
    body: webhookIdBody,
    responses: { 200: webhookDeliveryResponse, ...errors(400, 401, 403, 404, 429) },
  },
  webhookDeliveries: {
    summary:
      "A subscription's delivery log, newest first, 50 a page (`before`: the page after): each event's type, state, every attempt with the answer code, error and time, and the body sent. Kept WEBHOOK_LOG_DAYS.",
    tag: 'Webhooks',
    query: webhookDeliveriesQuery,
    responses: { 200: webhookDeliveriesResponse, ...errors(400, 401, 403, 404) },
  },
  webhookRedeliver: {
    summary:
      'Send one delivered or failed event again, with the same webhook-id (receivers that keep ids see it once), signed anew. Refused while the subscription is paused (1162), and past WEBHOOK_MANUAL_PER_HOUR (30) tests and redeliveries a subscription in an hour (429, 1164). Recorded (webhook.redeliver).',
    tag: 'Webhooks',
    body: redeliverWebhookBody,
    responses: { 200: webhookDeliveryResponse, ...errors(400, 401, 403, 404, 409, 429) },
  },
} as const satisfies DetailsPart;
