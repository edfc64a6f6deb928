import { API_VERSION } from '@sac/contract/constants';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_SECONDS,
} from '@sac/contract/webhooks';
import { esc } from './docs-html.ts';

/**
 * How a receiver verifies a delivery, with node:crypto only: the page shows exactly this text,
 * and the docs test runs exactly this text against deliveries signed by the API's own code and by
 * the Standard Webhooks reference library.
 */
export const VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Checks a delivery from the Super Admin Console and answers its event; throws when it is not
 * genuine. rawBody: the body exactly as received (a string or a Buffer), before any JSON parsing.
 * headers: the request's headers (Node's lower-case names). secret: the subscription's
 * "${WEBHOOK_SECRET_PREFIX}..." secret.
 */
export function verifyWebhook(rawBody, headers, secret, toleranceSeconds = 300) {
  const id = headers['${WEBHOOK_HEADERS.id}'];
  const timestamp = headers['${WEBHOOK_HEADERS.timestamp}'];
  const signatures = headers['${WEBHOOK_HEADERS.signature}'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string')
    throw new Error('Not a webhook: a webhook header is missing.');
  // an old (or future) timestamp: a replay, refused
  const now = Math.floor(Date.now() / 1000);
  if (!/^\\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > toleranceSeconds)
    throw new Error('The webhook timestamp is too far from now.');
  const key = Buffer.from(secret.replace(/^${WEBHOOK_SECRET_PREFIX}/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\`).update(rawBody).digest();
  // one signature per secret: two while a rotated-out secret still signs
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) continue;
    const given = Buffer.from(signature, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected))
      return JSON.parse(String(rawBody));
  }
  throw new Error('No webhook signature matches.');
}

// With node:http: read the body as it came, verify, answer 2xx at once, then do the work.
//   const event = verifyWebhook(body, req.headers, process.env.WEBHOOK_SECRET);
// A webhook-id may come again (a retry, a redelivery): skip one you have already handled.
`;

function eventRows(): string {
  const row = (type: string, meaning: string, actions: readonly string[]) =>
    `<tr><td><code>${esc(type)}</code></td><td>${esc(meaning)}</td><td>${actions.map((a) => `<code>${esc(a)}</code>`).join(', ')}</td></tr>`;
  return [
    ...WEBHOOK_EVENT_TYPES.map((t) => row(t, WEBHOOK_EVENTS[t].description, WEBHOOK_EVENTS[t].actions)),
    row(WEBHOOK_TEST_EVENT, 'A test event, sent only by "Send test event" to that subscription.', []),
  ].join('\n');
}

const EXAMPLE_BODY = `{
  "type": "site.created",
  "timestamp": "2026-01-15T09:30:00.000Z",
  "data": {
    "Id": "4711", "At": "2026-01-15T09:30:00.000Z",
    "ActorUid": "3f2b8c1e-7d4a-4e6b-9c2d-1a5e8f0b7c3d", "ActorEmail": "ada@example.com",
    "Action": "site.create", "TargetType": "site", "TargetId": "1042",
    "CustomerUid": "6a1f0e2d-5c4b-4a39-8e7d-2b1c0f9e8d7a", "AppId": 1042,
    "ClientAddress": "203.0.113.7", "RequestId": "req-8c1e", "ImpersonationRequestId": null,
    "Details": {}
  }
}`;

/** The webhooks page: the events, the headers, the delivery rules and how to verify a signature. */
export function renderWebhooksPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Webhooks: events and signatures</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/docs.css"></head>
<body><main class="page">
<p><a href="/docs">Admin API reference</a> · <a href="/docs#tag-webhooks">Webhook subscriptions</a> · <a href="/docs/openapi.json">OpenAPI document</a></p>
<h1>Webhooks <small>${API_VERSION}</small></h1>
<p>A webhook subscription (the console's Webhooks screen, or <code>POST /admin/webhooks</code>) posts the events of
the types it chose to its HTTPS endpoint, signed as <a href="https://www.standardwebhooks.com">Standard Webhooks</a>
says. An event is a row of the staff audit trail: it is sent only once its change has committed. The
OpenAPI document's <code>webhooks</code> section gives each event's body as JSON Schema.</p>
<h2 id="body">The body</h2>
<p>JSON: <code>type</code> (the event type), <code>timestamp</code> (when the trail row was written) and
<code>data</code>, the trail row as <code>GET /admin/audit/events</code> shows it. The test event's
<code>data</code> is a message and the subscription's id.</p>
<pre>${esc(EXAMPLE_BODY)}</pre>
<h2 id="events">Event types</h2>
<table><thead><tr><th>Type</th><th>Meaning</th><th>Trail actions</th></tr></thead><tbody>
${eventRows()}
</tbody></table>
<h2 id="headers">Headers</h2>
<table><thead><tr><th>Header</th><th>Value</th></tr></thead><tbody>
<tr><td><code>${WEBHOOK_HEADERS.id}</code></td><td><code>evt_</code> and the trail row's id: the same on every retry and redelivery of the event, so a receiver can skip one it has handled.</td></tr>
<tr><td><code>${WEBHOOK_HEADERS.timestamp}</code></td><td>When this attempt was signed, in Unix seconds.</td></tr>
<tr><td><code>${WEBHOOK_HEADERS.signature}</code></td><td>Space-separated <code>v1,&lt;base64&gt;</code> signatures: HMAC-SHA256 over <code>&lt;webhook-id&gt;.&lt;webhook-timestamp&gt;.&lt;raw body&gt;</code>, keyed by the base64-decoded part of the secret after <code>${WEBHOOK_SECRET_PREFIX}</code>.</td></tr>
</tbody></table>
<h2 id="delivery">Delivery</h2>
<ul>
<li><strong>Success</strong> is any 2xx answer within ${WEBHOOK_TIMEOUT_SECONDS} seconds. Anything else, or no answer, is tried again with backoff (5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, then every 8 h) until ${WEBHOOK_RETRY_HOURS} hours after the event; then the delivery has failed. No order is promised between deliveries.</li>
<li><strong>Pause.</strong> A subscription whose deliveries have all failed for a day (the operator can set how long) is paused by the console, and its maker is told; events are still queued, and resuming sends those under a day old. It can be paused and resumed by hand too.</li>
<li><strong>Redelivery.</strong> Any delivery in the log can be sent again, with the same <code>${WEBHOOK_HEADERS.id}</code> and body.</li>
<li><strong>Rotation.</strong> Rotating the secret answers a new one; the old one goes on signing beside it (a second signature) for the overlap chosen (24 hours by default), so the receiver can switch without losing a delivery.</li>
</ul>
<h2 id="verify">Verifying a signature</h2>
<p>Verify over the raw body, before parsing it, and refuse a timestamp more than 5 minutes from your clock. In Node.js, with <code>node:crypto</code> only:</p>
<pre><code>${esc(VERIFY_SNIPPET)}</code></pre>
<p>The official <a href="https://github.com/standard-webhooks/standard-webhooks">Standard Webhooks libraries</a>
(JavaScript's <code>standardwebhooks</code>, and those for Python, Go, Ruby, PHP, Java and others) verify these
deliveries too: <code>new Webhook(secret).verify(rawBody, headers)</code>.</p>
</main></body></html>`;
}
