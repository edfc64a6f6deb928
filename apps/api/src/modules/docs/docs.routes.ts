import { API_VERSION, HEADERS } from '@sac/contract/constants';
import { ENDPOINT_LIST, ENDPOINT_TAGS, type EndpointDef } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { CUSTOMER_AUTH_HEADERS } from '@sac/contract/impersonation-api';
import { buildOpenApiDocument } from '@sac/contract/openapi';
import { endpointExamples } from '@sac/contract/openapi-examples';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { esc } from './docs-html.ts';
import { renderWebhooksPage } from './webhooks-page.ts';

const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
const pretty = (value: unknown) => esc(JSON.stringify(value, null, 2));

/** The anchor of a tag's part of the page (endpoint ids are the anchors of the operations). */
const tagAnchor = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** Pages of their own that a tag's part of the reference links to. */
const TAG_PAGES: Readonly<Record<string, string>> = {
  Webhooks: '<p><a href="/docs/webhooks">The events, their headers and how to verify a signature</a></p>',
};

/** What the search box matches an operation on: method, path, id, tag and summary. */
const searchText = (e: EndpointDef) => `${e.method} ${e.path} ${e.id} ${e.tag} ${e.summary}`.toLowerCase();

function accessOf(e: EndpointDef): string {
  if (e.siteCredentials)
    return `anyone with a site's API key and secret (headers ${CUSTOMER_AUTH_HEADERS.apiKey} and ${CUSTOMER_AUTH_HEADERS.apiSecret})`;
  if (e.access === 'public') return 'anyone';
  return e.access === 'session' ? 'any signed-in staff member' : `permission ${e.access}`;
}

function endpointSection(e: EndpointDef): string {
  const body = e.body ? jsonSchema(e.body) : undefined;
  const success = e.responses[200] ? jsonSchema(e.responses[200]) : undefined;
  const examples = endpointExamples(e.id, { body, response: success });
  const example = (value: unknown) =>
    `<details><summary>Example</summary><pre>${pretty(value)}</pre></details>`;
  const parts = [
    `<section class="op" id="${esc(e.id)}" data-search="${esc(searchText(e))}"><h3><span class="method ${e.method.toLowerCase()}">${e.method}</span> <code>${esc(e.path)}</code></h3>`,
    `<p>${esc(e.summary)}</p><p class="access">Access: ${esc(accessOf(e))}</p>`,
  ];
  if (e.query) parts.push(`<h4>Query</h4><pre>${pretty(jsonSchema(e.query))}</pre>`);
  if (body) parts.push(`<h4>Body</h4><pre>${pretty(body)}</pre>${example(examples.body)}`);
  if (success) parts.push(`<h4>200</h4><pre>${pretty(success)}</pre>${example(examples.response)}`);
  const errs = Object.keys(e.responses).filter((s) => s !== '200');
  if (errs.length)
    parts.push(`<p>Errors: ${errs.join(', ')} with the <a href="#errors">error envelope</a>.</p>`);
  parts.push('</section>');
  return parts.join('\n');
}

/** The table of contents: each tag, and under it each of its operations. */
function tableOfContents(tags: readonly string[], endpoints: readonly EndpointDef[]): string {
  const entry = (e: EndpointDef) =>
    `<li data-search="${esc(searchText(e))}"><a href="#${esc(e.id)}"><span class="method ${e.method.toLowerCase()}">${e.method}</span> ${esc(e.path)}</a></li>`;
  const groups = tags.map(
    (t) =>
      `<li data-tag><a href="#${tagAnchor(t)}">${esc(t)}</a><ul>${endpoints
        .filter((e) => e.tag === t)
        .map(entry)
        .join('')}</ul></li>`,
  );
  return `<nav class="toc" aria-label="Contents">
<input type="search" id="docs-search" placeholder="Search operations" aria-label="Search operations" autocomplete="off" hidden>
<p id="docs-search-none" hidden>No operation matches.</p>
<ul><li data-search-hides><a href="#errors">Error envelope and codes</a></li>${groups.join('')}</ul>
</nav>`;
}

/**
 * The API reference page, rendered on the server from the endpoint table. Its one script,
 * /docs/docs.js, only adds the search box: the table of contents and the reference work without it.
 */
function renderDocsPage(endpoints: readonly EndpointDef[] = ENDPOINT_LIST): string {
  const tags = [...new Set(endpoints.map((e) => e.tag))];
  const descriptions: Readonly<Record<string, string>> = ENDPOINT_TAGS;
  const errorRows = Object.values(ERRORS)
    .map((x) => `<tr><td>${x.code}</td><td>${x.status}</td><td>${esc(x.text)}</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Admin API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/docs.css">
<script src="/docs/docs.js" defer></script></head>
<body><div class="layout">
${tableOfContents(tags, endpoints)}
<main>
<h1>Super Admin Console admin API <small>${API_VERSION}</small></h1>
<p>Every call sends <code>${HEADERS.ajaxMarker}: ${HEADERS.ajaxMarkerValue}</code>, and a body as
<code>Content-Type: application/json</code>. Signed-in calls send the headers <code>${HEADERS.token}</code> and
<code>${HEADERS.sign}</code> (from <code>POST /admin/login</code>); the customer's help request sends its site's
<code>${CUSTOMER_AUTH_HEADERS.apiKey}</code> and <code>${CUSTOMER_AUTH_HEADERS.apiSecret}</code> instead.
The machine-readable document is <a href="/docs/openapi.json">/docs/openapi.json</a> (OpenAPI 3.1); the events
sent to webhook subscriptions, their headers and how to verify their signatures are on <a href="/docs/webhooks">/docs/webhooks</a>.</p>
<section id="errors" data-search-hides><h2>Error envelope</h2>
<pre>{ "ErrorCode": 927, "Description": "...", "Message": "...", "RequestId": "...", "FieldErrors": [{ "Field": "email", "Message": "..." }] }</pre>
<table><thead><tr><th>ErrorCode</th><th>HTTP</th><th>Description</th></tr></thead><tbody>${errorRows}</tbody></table></section>
${tags
  .map(
    (t) =>
      `<section class="tag" id="${tagAnchor(t)}" data-tag><h2>${esc(t)}</h2>${descriptions[t] ? `<p>${esc(descriptions[t])}</p>` : ''}${TAG_PAGES[t] ?? ''}\n${endpoints
        .filter((e) => e.tag === t)
        .map(endpointSection)
        .join('\n')}</section>`,
  )
  .join('\n')}
</main></div></body></html>`;
}

const CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
[hidden]{display:none!important}
.layout{display:grid;grid-template-columns:300px minmax(0,1fr);gap:24px;max-width:1320px;margin:0 auto;padding:0 24px}
main{padding:24px 0;min-width:0}.op{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:12px 18px;margin:12px 0}
.toc{position:sticky;top:0;max-height:100vh;overflow:auto;padding:24px 0;font-size:13px}
.toc ul{list-style:none;margin:0;padding:0}.toc ul ul{padding-left:10px;margin-bottom:8px}
.toc a{display:block;padding:2px 4px;color:#1d2330;text-decoration:none;border-radius:4px;overflow-wrap:anywhere}
.toc a:hover,.toc a:focus{background:#e6eaf0}.toc>ul>li>a{font-weight:600;margin-top:6px}
#docs-search{width:100%;box-sizing:border-box;padding:6px 8px;font:inherit;border:1px solid #b8c0cc;border-radius:6px}
@media (max-width:800px){.layout{grid-template-columns:1fr}.toc{position:static;max-height:none}}
pre{background:#f1f3f6;padding:10px;overflow:auto;font-size:13px}.method{font:600 12px monospace;padding:2px 6px;border-radius:4px;color:#fff;background:#4a5568}
.get{background:#2b6cb0}.post{background:#2f855a}.put{background:#b7791f}.delete{background:#c53030}.access{color:#555}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #dde1e7;padding:4px 8px;text-align:left}
.page{max-width:980px;margin:0 auto;padding:0 24px}.page table{display:block;overflow-x:auto}.page td:first-child{white-space:nowrap}`;

/**
 * The search box: shows it, and as the reader types keeps the operations (in the contents and on
 * the page) whose method, path, id, tag or summary hold every word typed, and sets the error codes
 * aside meanwhile. A file of its own: the
 * CSP allows scripts from this origin only, never inline. It reads nothing but the box.
 */
const SCRIPT = `'use strict';
const box = document.getElementById('docs-search');
const none = document.getElementById('docs-search-none');
const items = Array.from(document.querySelectorAll('[data-search]'));
const groups = Array.from(document.querySelectorAll('[data-tag]'));
// what is not an operation (the error codes) steps aside while searching, so matches come first
const others = Array.from(document.querySelectorAll('[data-search-hides]'));
box.hidden = false;
box.addEventListener('input', () => {
  const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
  let shown = 0;
  for (const item of items) {
    item.hidden = !words.every((w) => item.dataset.search.includes(w));
    if (!item.hidden && item.classList.contains('op')) shown += 1;
  }
  for (const group of groups) group.hidden = !group.querySelector('[data-search]:not([hidden])');
  none.hidden = shown > 0;
  for (const other of others) other.hidden = words.length > 0;
});
`;

export function docsRoutes(app: FastifyInstance): void {
  // Built on first request, not at start-up: converting every schema takes a few hundred ms.
  let openapi: ReturnType<typeof buildOpenApiDocument> | undefined;
  let html: string | undefined;
  app.get('/docs', async (_req, reply) => {
    html ??= renderDocsPage();
    return reply.type('text/html; charset=utf-8').send(html);
  });
  let webhooksHtml: string | undefined;
  app.get('/docs/webhooks', async (_req, reply) => {
    webhooksHtml ??= renderWebhooksPage();
    return reply.type('text/html; charset=utf-8').send(webhooksHtml);
  });
  app.get('/docs/openapi.json', async () => {
    openapi ??= buildOpenApiDocument();
    return openapi;
  });
  app.get('/docs/docs.css', async (_req, reply) => reply.type('text/css; charset=utf-8').send(CSS));
  app.get('/docs/docs.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(SCRIPT));
}
