import { z } from 'zod';
import { API_VERSION, HEADERS } from './constants.ts';
import { ENDPOINT_LIST, type EndpointDef } from './endpoints.ts';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

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
  if (e.access !== 'public') {
    parameters.push(
      { name: HEADERS.token, in: 'header', required: true, schema: { type: 'string' } },
      { name: HEADERS.sign, in: 'header', required: true, schema: { type: 'string' } },
    );
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
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(e.responses)) {
    responses[status] = {
      description: status === '200' ? 'Success' : 'Error envelope',
      ...(status === '200' && e.versioned
        ? {
            headers: {
              [HEADERS.etag]: {
                description: 'The version of the record answered, to send back as If-Match.',
                schema: { type: 'string' },
              },
            },
          }
        : {}),
      content: { 'application/json': { schema: json(schema) } },
    };
  }
  return {
    operationId: e.id,
    summary: e.summary,
    tags: [e.tag],
    description: `Access: ${e.access === 'public' ? 'anyone' : e.access === 'session' ? 'any signed-in staff member' : `permission \`${e.access}\``}.`,
    parameters,
    ...(e.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: json(e.body) } } } }
      : {}),
    responses,
  };
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
    info: { title: 'Super Admin Console admin API', version: API_VERSION },
    paths,
  };
}
