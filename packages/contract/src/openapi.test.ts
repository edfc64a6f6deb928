import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NOT_FOR_TOKENS } from './api-tokens.ts';
import { API_VERSION, HEADERS } from './constants.ts';
import { ENDPOINT_LIST, ENDPOINT_TAGS, type EndpointDef, type EndpointId } from './endpoints.ts';
import { errorEnvelopeSchema } from './errors.ts';
import { CUSTOMER_AUTH_HEADERS } from './impersonation-api.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, webhookPayload } from './webhooks.ts';

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: Record<string, unknown>;
}
interface MediaType {
  schema: Record<string, unknown>;
  example?: unknown;
}
interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  description: string;
  security: Array<Record<string, string[]>>;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: Record<string, MediaType> };
  responses: Record<string, { description: string; content: Record<string, MediaType> }>;
}

const doc = buildOpenApiDocument();
const operationOf = (e: EndpointDef): Operation | undefined =>
  doc.paths[e.path]?.[e.method.toLowerCase()] as Operation | undefined;
const cases = ENDPOINT_LIST.map((e) => [e.id, e] as const);

describe('buildOpenApiDocument', () => {
  it("is OpenAPI '3.1.0' with the API version", () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(API_VERSION);
    expect(doc.info.version).toBe('23.0.0');
    expect(doc.info.title.length).toBeGreaterThan(0);
  });

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('has exactly one operation per endpoint', () => {
    const count = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(count).toBe(ENDPOINT_LIST.length);
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((o) => (o as Operation).operationId),
    );
    expect(ids.sort()).toEqual(ENDPOINT_LIST.map((e) => e.id).sort());
  });

  it.each(cases)('has the operation %s at its method and path', (_id, e) => {
    const op = operationOf(e);
    expect(op).toBeDefined();
    expect(op?.operationId).toBe(e.id);
    expect(op?.summary).toBe(e.summary);
    expect(op?.tags).toEqual([e.tag]);
  });

  it.each(cases)('%s has a JSON request body exactly when the endpoint has a body', (_id, e) => {
    const op = operationOf(e);
    if (e.body) {
      expect(op?.requestBody?.required).toBe(true);
      const schema = op?.requestBody?.content['application/json']?.schema;
      // an object, or a union of objects (oneOf / anyOf) for a discriminated body
      const variants = (schema?.oneOf ?? schema?.anyOf ?? [schema]) as Array<{ type?: string }>;
      for (const v of variants) expect(v?.type).toBe('object');
      if (e.body instanceof z.ZodObject) {
        expect(Object.keys(schema?.properties as object).sort()).toEqual(Object.keys(e.body.shape).sort());
      }
    } else {
      expect(op?.requestBody).toBeUndefined();
    }
  });

  it.each(cases)('%s documents every response status of the endpoint', (_id, e) => {
    const op = operationOf(e);
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(Object.keys(e.responses).sort());
    for (const [status, r] of Object.entries(op?.responses ?? {})) {
      expect(r.description).toBe(status === '200' ? 'Success' : 'Error envelope');
      const type = status === '200' && e.produces ? e.produces[0]! : 'application/json';
      expect(r.content[type]?.schema).toBeDefined();
    }
  });

  it.each(cases)('%s refers every error status to the one error envelope of the components', (_id, e) => {
    const op = operationOf(e);
    for (const [status, r] of Object.entries(op?.responses ?? {})) {
      if (status === '200') continue;
      expect(r.content['application/json']?.schema, status).toEqual({
        $ref: '#/components/schemas/ErrorEnvelope',
      });
    }
  });

  it('defines the error envelope once, as the schema of errorEnvelopeSchema', () => {
    const envelope = doc.components.schemas.ErrorEnvelope as { properties: object; required: string[] };
    expect(Object.keys(envelope.properties).sort()).toEqual(Object.keys(errorEnvelopeSchema.shape).sort());
    expect(envelope.required.sort()).toEqual(['Description', 'ErrorCode', 'Message', 'RequestId']);
    expect(Object.keys(doc.components.schemas)).toEqual(['ErrorEnvelope']);
  });

  it.each(cases)(
    '%s has an example of its body and of its 200 answer that its own schemas parse',
    (_id, e) => {
      const op = operationOf(e);
      if (e.body) {
        const example = op?.requestBody?.content['application/json']?.example;
        expect(example).toBeDefined();
        const parsed = e.body.safeParse(example);
        expect(parsed.error?.issues ?? [], JSON.stringify(example)).toEqual([]);
      }
      const example = op?.responses['200']?.content[e.produces?.[0] ?? 'application/json']?.example;
      expect(example).toBeDefined();
      const parsed = e.responses[200]!.safeParse(example);
      expect(parsed.error?.issues ?? [], JSON.stringify(example)).toEqual([]);
    },
  );

  it('defines every tag the operations use, with a description, in order of first use', () => {
    const used = [...new Set(ENDPOINT_LIST.map((e) => e.tag))];
    expect(doc.tags.map((t) => t.name)).toEqual(used);
    for (const t of doc.tags) expect(t.description, t.name).toBeTruthy();
    // no description of a tag that no endpoint uses
    expect(Object.keys(ENDPOINT_TAGS).sort()).toEqual([...used].sort());
  });

  it('names the server it is served from and a licence', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license.name).toBe('Proprietary');
  });

  it.each(cases)('%s documents its versions: ETag on the answer, If-Match and 412 on a write', (_id, e) => {
    const op = operationOf(e);
    const ifMatch = (op?.parameters ?? []).find((p) => p.name === HEADERS.ifMatch);
    const etag = (op?.responses['200'] as { headers?: Record<string, unknown> } | undefined)?.headers?.[
      HEADERS.etag
    ];
    expect(Boolean(etag)).toBe(e.versioned !== undefined);
    expect(ifMatch ? { in: ifMatch.in, required: ifMatch.required } : undefined).toEqual(
      e.versioned === 'if-match' ? { in: 'header', required: false } : undefined,
    );
    expect(Object.keys(e.responses).includes('412')).toBe(e.versioned === 'if-match');
  });

  it.each(cases)('%s requires the ajax marker header, and no credential as a parameter', (_id, e) => {
    const headers = (operationOf(e)?.parameters ?? []).filter((p) => p.in === 'header');
    expect(headers).toContainEqual({
      name: HEADERS.ajaxMarker,
      in: 'header',
      required: true,
      schema: { type: 'string', enum: [HEADERS.ajaxMarkerValue] },
    });
    const names = headers.map((h) => h.name);
    for (const credential of ['xtoken', 'xsign', 'apikey', 'apisecret'])
      expect(names).not.toContain(credential);
  });

  it.each(cases)(
    '%s requires the session pair unless public; the site key and secret where it takes them',
    (_id, e) => {
      const security = operationOf(e)?.security;
      if (e.siteCredentials) expect(security).toEqual([{ SiteApiKey: [], SiteApiSecret: [] }]);
      else if (e.access === 'public') expect(security).toEqual([]);
      else if (NOT_FOR_TOKENS.includes(e.id as EndpointId))
        expect(security).toEqual([{ SessionToken: [], SessionSign: [] }]);
      else expect(security).toEqual([{ SessionToken: [], SessionSign: [] }, { ApiToken: [] }]);
    },
  );

  it('defines the security schemes as the headers the server reads', () => {
    const schemes = doc.components.securitySchemes;
    const headerOf = (name: Exclude<keyof typeof schemes, 'ApiToken'>) => {
      const s = schemes[name];
      return [s.type, s.in, s.name];
    };
    expect(headerOf('SessionToken')).toEqual(['apiKey', 'header', HEADERS.token]);
    expect(headerOf('SessionSign')).toEqual(['apiKey', 'header', HEADERS.sign]);
    expect(headerOf('SiteApiKey')).toEqual(['apiKey', 'header', CUSTOMER_AUTH_HEADERS.apiKey]);
    expect(headerOf('SiteApiSecret')).toEqual(['apiKey', 'header', CUSTOMER_AUTH_HEADERS.apiSecret]);
    expect([schemes.ApiToken.type, schemes.ApiToken.scheme]).toEqual(['http', 'bearer']);
  });

  it('takes the site key and secret only on public calls: the customer asking for help', () => {
    const withSiteCredentials = ENDPOINT_LIST.filter((e) => e.siteCredentials);
    expect(withSiteCredentials.map((e) => e.id)).toEqual(['customerRequestsCreate']);
    for (const e of withSiteCredentials) expect(e.access).toBe('public');
  });

  it.each(cases)('%s states its access in the description', (_id, e) => {
    const description = operationOf(e)?.description ?? '';
    if (e.access === 'public') expect(description).toBe('Access: anyone.');
    else if (e.access === 'session')
      expect(description).toMatch(/^Access: any signed-in staff member\.( A sensitive action: .*)?$/);
    else expect(description).toContain(e.access);
    // a sensitive action says it needs a step-up, and no other does
    expect(description.includes('POST /admin/step-up')).toBe(e.stepUp === true);
  });

  it('documents query parameters with their required flag', () => {
    const probe: EndpointDef = {
      id: 'probe',
      method: 'GET',
      path: '/admin/probe',
      summary: 'Probe',
      tag: 'Test',
      access: 'team.read',
      query: z.object({ uid: z.string(), cursor: z.string().optional() }),
      responses: { 200: z.object({}) },
    };
    const built = buildOpenApiDocument([probe]);
    const op = built.paths['/admin/probe']?.get as Operation;
    const query = op.parameters.filter((p) => p.in === 'query');
    expect(query.map((p) => [p.name, p.required])).toEqual([
      ['uid', true],
      ['cursor', false],
    ]);
    expect(op.description).toBe('Access: permission `team.read`.');
    expect(op.requestBody).toBeUndefined();
  });

  it('keeps several methods of one path under that path', () => {
    const base = { summary: 's', tag: 't', access: 'session', responses: { 200: z.object({}) } } as const;
    const built = buildOpenApiDocument([
      { ...base, id: 'a', method: 'GET', path: '/admin/team' },
      { ...base, id: 'b', method: 'POST', path: '/admin/team', body: z.object({ email: z.string() }) },
      { ...base, id: 'c', method: 'DELETE', path: '/admin/team', body: z.object({ uid: z.string() }) },
    ]);
    expect(Object.keys(built.paths)).toEqual(['/admin/team']);
    expect(Object.keys(built.paths['/admin/team'] ?? {}).sort()).toEqual(['delete', 'get', 'post']);
  });
});

describe("the document's webhooks", () => {
  interface WebhookOperation extends Operation {
    requestBody: { required: boolean; content: Record<string, MediaType> };
  }
  const hooks = doc.webhooks as unknown as Record<string, { post: WebhookOperation }>;
  const types = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;

  it('has one entry per event type and the test event, and no other', () => {
    expect(Object.keys(hooks).sort()).toEqual([...Object.keys(WEBHOOK_EVENTS), WEBHOOK_TEST_EVENT].sort());
  });

  it.each(types.map((type) => [type]))('%s is a post with its meaning, headers, body and answers', (type) => {
    const op = hooks[type]!.post;
    expect(op.summary).toBe(`Event ${type}`);
    if (type !== WEBHOOK_TEST_EVENT) expect(op.description).toContain(WEBHOOK_EVENTS[type].description);
    expect(op.tags).toEqual(['Webhooks']);
    expect(op.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
      ['webhook-id', 'header', true],
      ['webhook-timestamp', 'header', true],
      ['webhook-signature', 'header', true],
    ]);
    const body = op.requestBody.content['application/json']!;
    expect(body.schema).toEqual(
      z.toJSONSchema(webhookPayload(type), { io: 'input', unrepresentable: 'any' }),
    );
    expect((body.schema.properties as Record<string, unknown>).type).toEqual({ type: 'string', const: type });
    expect(webhookPayload(type).parse(body.example)).toEqual(body.example);
    expect(Object.keys(op.responses)).toEqual(['2XX', 'default']);
  });

  it('a body of one type does not pass as another', () => {
    const example = hooks['site.created']!.post.requestBody.content['application/json']!.example;
    expect(webhookPayload('site.created').safeParse(example).success).toBe(true);
    expect(webhookPayload('customer.created').safeParse(example).success).toBe(false);
    expect(webhookPayload(WEBHOOK_TEST_EVENT).safeParse(example).success).toBe(false);
  });
});
