import { API_VERSION } from '@sac/contract/constants';
import { ENDPOINT_LIST, type EndpointDef } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { buildOpenApiDocument } from '@sac/contract/openapi';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const pretty = (schema: z.ZodType) =>
  esc(JSON.stringify(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), null, 2));

function endpointSection(e: EndpointDef): string {
  const access =
    e.access === 'public'
      ? 'anyone'
      : e.access === 'session'
        ? 'any signed-in staff member'
        : `permission ${e.access}`;
  const parts = [
    `<section id="${esc(e.id)}"><h3><span class="method ${e.method.toLowerCase()}">${e.method}</span> <code>${esc(e.path)}</code></h3>`,
    `<p>${esc(e.summary)}</p><p class="access">Access: ${esc(access)}</p>`,
  ];
  if (e.query) parts.push(`<h4>Query</h4><pre>${pretty(e.query)}</pre>`);
  if (e.body) parts.push(`<h4>Body</h4><pre>${pretty(e.body)}</pre>`);
  for (const [status, schema] of Object.entries(e.responses)) {
    if (status === '200') parts.push(`<h4>200</h4><pre>${pretty(schema)}</pre>`);
  }
  const errs = Object.keys(e.responses).filter((s) => s !== '200');
  if (errs.length) parts.push(`<p>Errors: ${errs.join(', ')} with the error envelope.</p>`);
  parts.push('</section>');
  return parts.join('\n');
}

/** The API reference page, rendered on the server from the endpoint table (no script needed). */
function renderDocsPage(endpoints: readonly EndpointDef[] = ENDPOINT_LIST): string {
  const tags = [...new Set(endpoints.map((e) => e.tag))];
  const errorRows = Object.values(ERRORS)
    .map((x) => `<tr><td>${x.code}</td><td>${x.status}</td><td>${esc(x.text)}</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Admin API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/docs.css"></head>
<body><main>
<h1>Super Admin Console admin API <small>${API_VERSION}</small></h1>
<p>Every call sends the headers <code>xtoken</code> and <code>xsign</code> (from <code>POST /admin/login</code>),
<code>X-Requested-With: XMLHttpRequest</code> and <code>Content-Type: application/json</code>.
The machine-readable document is <a href="/docs/openapi.json">/docs/openapi.json</a> (OpenAPI 3.1).</p>
<h2>Error envelope</h2>
<pre>{ "ErrorCode": 927, "Description": "...", "Message": "...", "RequestId": "...", "FieldErrors": [{ "Field": "email", "Message": "..." }] }</pre>
<table><thead><tr><th>ErrorCode</th><th>HTTP</th><th>Description</th></tr></thead><tbody>${errorRows}</tbody></table>
${tags
  .map(
    (t) =>
      `<h2>${esc(t)}</h2>\n${endpoints
        .filter((e) => e.tag === t)
        .map(endpointSection)
        .join('\n')}`,
  )
  .join('\n')}
</main></body></html>`;
}

const CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:960px;margin:0 auto;padding:24px}section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:12px 18px;margin:12px 0}
pre{background:#f1f3f6;padding:10px;overflow:auto;font-size:13px}.method{font:600 12px monospace;padding:2px 6px;border-radius:4px;color:#fff;background:#4a5568}
.get{background:#2b6cb0}.post{background:#2f855a}.put{background:#b7791f}.delete{background:#c53030}.access{color:#555}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #dde1e7;padding:4px 8px;text-align:left}`;

export function docsRoutes(app: FastifyInstance): void {
  // Built on first request, not at start-up: converting every schema takes a few hundred ms.
  let openapi: ReturnType<typeof buildOpenApiDocument> | undefined;
  let html: string | undefined;
  app.get('/docs', async (_req, reply) => {
    html ??= renderDocsPage();
    return reply.type('text/html; charset=utf-8').send(html);
  });
  app.get('/docs/openapi.json', async () => {
    openapi ??= buildOpenApiDocument();
    return openapi;
  });
  app.get('/docs/docs.css', async (_req, reply) => reply.type('text/css; charset=utf-8').send(CSS));
}
