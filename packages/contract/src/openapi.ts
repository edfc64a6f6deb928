import { z } from 'zod';
import { API_TOKEN_MAX_DAYS, API_TOKEN_PREFIX, NOT_FOR_TOKENS } from './api-tokens.ts';
import { API_VERSION, HEADERS } from './constants.ts';
import { ENDPOINT_LIST, ENDPOINT_TAGS, type EndpointDef } from './endpoints.ts';
import { errorEnvelopeSchema } from './errors.ts';
import { CUSTOMER_AUTH_HEADERS } from './impersonation-api.ts';
import { endpointExamples, exampleOf } from './openapi-examples.ts';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_SECONDS,
  type WebhookEventType,
  webhookPayload,
} from './webhooks.ts';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

/**
 * The credentials a call can take, as OpenAPI security schemes: the staff session pair (both
 * headers, from POST /admin/login or an impersonation session's GET /account/switchapp), a staff
 * API token (a bearer token), and a
 * site's API key and secret, which the public customer-request call takes instead.
 */
const SECURITY_SCHEMES = {
  SessionToken: {
    type: 'apiKey',
    in: 'header',
    name: HEADERS.token,
    description: `The session token, answered by POST /admin/login as \`xtoken\`; sent with \`${HEADERS.sign}\`.`,
  },
  SessionSign: {
    type: 'apiKey',
    in: 'header',
    name: HEADERS.sign,
    description: `The session signature, answered by POST /admin/login as \`xsign\`; sent with \`${HEADERS.token}\`.`,
  },
  ApiToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: `${API_TOKEN_PREFIX}…`,
    description: `A staff API token (\`Authorization: Bearer ${API_TOKEN_PREFIX}…\`), made by POST /admin/api-tokens: it acts as its owner with the token's permissions the owner still holds, from its allowed addresses, until it expires (at most ${API_TOKEN_MAX_DAYS} days) or is revoked. A call that takes the session pair only does not list it.`,
  },
  SiteApiKey: {
    type: 'apiKey',
    in: 'header',
    name: CUSTOMER_AUTH_HEADERS.apiKey,
    description: "A site's API key; sent with its secret.",
  },
  SiteApiSecret: {
    type: 'apiKey',
    in: 'header',
    name: CUSTOMER_AUTH_HEADERS.apiSecret,
    description: "A site's API secret; sent with its key.",
  },
} as const;

/**
 * One requirement naming two schemes (both headers together, as the server checks them), or an
 * API token instead, on every signed-in call a token may make (NOT_FOR_TOKENS: those it may not).
 */
function securityOf(e: EndpointDef) {
  if (e.siteCredentials) return [{ SiteApiKey: [], SiteApiSecret: [] }];
  if (e.access === 'public') return [];
  const pair = { SessionToken: [], SessionSign: [] };
  return (NOT_FOR_TOKENS as readonly string[]).includes(e.id) ? [pair] : [pair, { ApiToken: [] }];
}

const ERROR_ENVELOPE_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

function operation(e: EndpointDef) {
  const parameters: unknown[] = [];
  if (e.query) {
    for (const [name, schema] of Object.entries(e.query.shape)) {
      parameters.push({
        name,
        in: 'query',
        required: !(schema as z.ZodType).safeParse(undefined).success,
        schema: json(schema as z.ZodType),
      });
    }
  }
  parameters.push({
    name: HEADERS.ajaxMarker,
    in: 'header',
    required: true,
    schema: { type: 'string', enum: [HEADERS.ajaxMarkerValue] },
  });
  if (e.versioned === 'if-match') {
    parameters.push({
      name: HEADERS.ifMatch,
      in: 'header',
      required: false,
      description:
        'The version the form was read at: the ETag of the read, or a listed row\'s Version as "7". An older one than stored answers 412 (930) and writes nothing; none or * writes whatever is stored.',
      schema: { type: 'string' },
    });
  }
  const bodySchema = e.body ? json(e.body) : undefined;
  const success = e.responses[200];
  const successSchema = success ? json(success) : undefined;
  const examples = endpointExamples(e.id, { body: bodySchema, response: successSchema });
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(e.responses)) {
    const isSuccess = status === '200';
    responses[status] = {
      description: isSuccess ? 'Success' : 'Error envelope',
      ...(isSuccess && e.versioned
        ? {
            headers: {
              [HEADERS.etag]: {
                description: 'The version of the record answered, to send back as If-Match.',
                schema: { type: 'string' },
              },
            },
          }
        : {}),
      content:
        isSuccess && e.produces
          ? Object.fromEntries(
              e.produces.map((type) => [type, { schema: successSchema, example: examples.response }]),
            )
          : {
              'application/json': isSuccess
                ? { schema: successSchema, example: examples.response }
                : { schema: schema === errorEnvelopeSchema ? ERROR_ENVELOPE_REF : json(schema) },
            },
    };
  }
  return {
    operationId: e.id,
    summary: e.summary,
    tags: [e.tag],
    description: `Access: ${e.access === 'public' ? 'anyone' : e.access === 'session' ? 'any signed-in staff member' : `permission \`${e.access}\``}.${e.stepUp ? ' A sensitive action: it needs a sign-in or a step-up (POST /admin/step-up) within STEP_UP_MINUTES, else it answers 403 with error 911.' : ''}`,
    security: securityOf(e),
    parameters,
    ...(bodySchema
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodySchema, example: examples.body } },
          },
        }
      : {}),
    responses,
  };
}

/** The headers of a delivery, as the receiver gets them. */
const WEBHOOK_PARAMETERS = [
  {
    name: WEBHOOK_HEADERS.id,
    in: 'header',
    required: true,
    description:
      "The event's id: `evt_` and the trail row's id; the same on every retry and on a redelivery, so a receiver that has seen it can answer 2xx and skip it.",
    schema: { type: 'string', example: 'evt_4711' },
  },
  {
    name: WEBHOOK_HEADERS.timestamp,
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in Unix seconds: refuse one far from your clock (5 minutes).',
    schema: { type: 'string', pattern: '^[0-9]+$', example: '1768469400' },
  },
  {
    name: WEBHOOK_HEADERS.signature,
    in: 'header',
    required: true,
    description:
      "Space-separated signatures `v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed by the base64-decoded part of the secret after `whsec_`. During a rotation's overlap there are two (the new secret and the old); accept the delivery when one matches (see /docs/webhooks).",
    schema: { type: 'string', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' },
  },
];

/** An example body: a real-looking trail row of the event's first action. */
function webhookExample(type: WebhookEventType | typeof WEBHOOK_TEST_EVENT, schema: Record<string, unknown>) {
  const example = exampleOf(schema) as { data: Record<string, unknown> };
  if (type !== WEBHOOK_TEST_EVENT)
    Object.assign(example.data, { Id: '4711', Action: WEBHOOK_EVENTS[type].actions[0], Details: {} });
  return example;
}

/**
 * The document's `webhooks` (OpenAPI 3.1): what the console posts to a subscribed endpoint, one
 * entry per event type and the test event, each body generated from its zod schema.
 */
function webhooksOf() {
  const entries = [
    ...WEBHOOK_EVENT_TYPES.map((type) => [type, WEBHOOK_EVENTS[type].description] as const),
    [
      WEBHOOK_TEST_EVENT,
      'A test event, sent only by "Send test event" (POST /admin/webhooks/test) to that subscription; its `data` is a message, not a trail row.',
    ] as const,
  ];
  return Object.fromEntries(
    entries.map(([type, description]) => {
      const schema = json(webhookPayload(type));
      return [
        type,
        {
          post: {
            operationId: `webhook.${type}`,
            summary: `Event ${type}`,
            description: `${description} The body's \`data\` is ${type === WEBHOOK_TEST_EVENT ? "a message and the subscription's id" : 'the trail row as GET /admin/audit/events shows it'}.`,
            tags: ['Webhooks'],
            security: [],
            parameters: WEBHOOK_PARAMETERS,
            requestBody: {
              required: true,
              content: { 'application/json': { schema, example: webhookExample(type, schema) } },
            },
            responses: {
              '2XX': { description: 'Delivered: the event is not sent again (unless redelivered by hand).' },
              default: {
                description: `Any other answer, or none within ${WEBHOOK_TIMEOUT_SECONDS} s: tried again with backoff (5 s, 30 s, 2 min, … then every 8 h) until ${WEBHOOK_RETRY_HOURS} hours after the event, then failed. A subscription failing that long is paused.`,
              },
            },
          },
        },
      ];
    }),
  );
}

/** The document's tags: those the endpoints use, in order of first use, with their descriptions. */
function tagsOf(endpoints: readonly EndpointDef[]) {
  const descriptions: Readonly<Record<string, string>> = ENDPOINT_TAGS;
  return [...new Set(endpoints.map((e) => e.tag))].map((name) => ({
    name,
    ...(descriptions[name] ? { description: descriptions[name] } : {}),
  }));
}

/** The OpenAPI 3.1 document of the admin API, generated from the endpoint table. */
export function buildOpenApiDocument(endpoints: readonly EndpointDef[] = ENDPOINT_LIST) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) {
    paths[e.path] ??= {};
    paths[e.path]![e.method.toLowerCase()] = operation(e);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Super Admin Console admin API',
      version: API_VERSION,
      description: `Every call sends \`${HEADERS.ajaxMarker}: ${HEADERS.ajaxMarkerValue}\`, and a body as JSON. Signed-in calls send the session pair \`${HEADERS.token}\` and \`${HEADERS.sign}\`, or a staff API token as \`Authorization: Bearer ${API_TOKEN_PREFIX}…\`. Every 4xx and 5xx answer carries the error envelope.`,
      // The product is not open source: no SPDX licence applies.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the API answers on the origin that serves this document.
    servers: [{ url: '/', description: 'The server this document is served from' }],
    tags: tagsOf(endpoints),
    paths,
    webhooks: webhooksOf(),
    components: {
      schemas: { ErrorEnvelope: json(errorEnvelopeSchema) },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
