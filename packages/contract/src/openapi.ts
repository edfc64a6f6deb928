import { z } from 'zod';
import { API_TOKEN_MAX_DAYS, API_TOKEN_PREFIX, NOT_FOR_TOKENS } from './api-tokens.ts';
import { API_VERSION, HEADERS } from './constants.ts';
import { ENDPOINT_LIST, ENDPOINT_TAGS, type EndpointDef } from './endpoints.ts';
import { errorEnvelopeSchema } from './errors.ts';
import { CUSTOMER_AUTH_HEADERS } from './impersonation-api.ts';
import { endpointExamples } from './openapi-examples.ts';

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
    components: {
      schemas: { ErrorEnvelope: json(errorEnvelopeSchema) },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
