import net from 'node:net';
import { HEADERS } from '@sac/contract/constants';
import { ENDPOINT_LIST } from '@sac/contract/endpoints';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createTestApp, endpointRequest, fakeConsoleBuild, type TestApp } from './harness.ts';

/**
 * Every answer of the server carries the security headers: success, every kind of error, 404s,
 * CORS preflights, docs, the console and its assets, and the answers Node writes itself for
 * requests that do not parse as HTTP.
 */

let t: TestApp;
let web: ReturnType<typeof fakeConsoleBuild>;

beforeAll(async () => {
  web = fakeConsoleBuild();
  t = await createTestApp({ webDistDir: web.dir });
  await t.addStaff('sam@example.com', ['SuperAdmin']);
});
afterAll(async () => {
  await t.close();
  web.remove();
});

const isPrivate = (url: string) => /^\/(admin|account)(\/|\?|$)/.test(url);

function expectSecurityHeaders(label: string, url: string, headers: Record<string, unknown>): void {
  const h = (name: string) => String(headers[name] ?? '');
  const csp = h('content-security-policy');
  expect(csp, `${label}: CSP`).toContain("default-src 'self'");
  expect(csp, `${label}: CSP`).toContain("script-src 'self'");
  expect(csp, `${label}: CSP`).toContain("frame-ancestors 'none'");
  expect(csp, `${label}: CSP`).toContain("object-src 'none'");
  expect(csp, `${label}: CSP`).toContain('report-uri /csp-report');
  expect(csp, `${label}: CSP`).not.toContain('unsafe-');
  expect(h('x-content-type-options'), `${label}: nosniff`).toBe('nosniff');
  expect(h('referrer-policy'), `${label}: Referrer-Policy`).toBe('no-referrer');
  expect(h('x-frame-options'), `${label}: X-Frame-Options`).toBe('DENY');
  expect(h('cross-origin-opener-policy'), `${label}: COOP`).toBe('same-origin');
  expect(h('cross-origin-resource-policy'), `${label}: CORP`).toBe('same-origin');
  if (isPrivate(url)) expect(h('cache-control'), `${label}: Cache-Control`).toBe('no-store');
}

async function check(label: string, opts: InjectOptions, status?: number): Promise<LightMyRequestResponse> {
  const r = await answerOf(opts);
  if (status !== undefined) expect(r.statusCode, `${label}: status (${r.body.slice(0, 200)})`).toBe(status);
  expectSecurityHeaders(`${label} -> ${r.statusCode}`, String(opts.url), r.headers);
  return r;
}

/**
 * The answer to `opts`. A live event stream never ends: its headers are taken once written and a
 * 200 is then closed, as a browser tab would close it (an error answer is read whole).
 */
async function answerOf(opts: InjectOptions): Promise<LightMyRequestResponse> {
  const path = String(opts.url).split('?')[0];
  if (!STREAMS.has(`${opts.method} ${path}`)) return t.app.inject(opts);
  const r = await t.app.inject({ ...opts, payloadAsStream: true });
  let body = '';
  if (r.statusCode === 200) r.raw.res.destroy();
  else for await (const chunk of r.stream()) body += String(chunk);
  return Object.assign(r, { body, payload: body });
}
const STREAMS = new Set(
  ENDPOINT_LIST.filter((e) => e.produces?.includes('text/event-stream')).map((e) => `${e.method} ${e.path}`),
);

const marker = { [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue };
/** A session of its own for each call: the sweep signs out and changes passwords. */
const signed = async () => {
  const s = await t.login('sam@example.com');
  return { ...marker, [HEADERS.token]: s.xtoken, [HEADERS.sign]: s.xsign };
};
/** Input no schema of the contract accepts: wrong types, a __proto__ key, a huge string. */
const badQuery = '?uid=%00&appId=-1&appid=x&pageNo=abc&pageSize=999999&email=%3Cscript%3E&id=__proto__';
const badBody = JSON.stringify({
  __proto__: { admin: true },
  email: 42,
  password: ['x'],
  uid: { $ne: null },
  name: 'x'.repeat(10_000),
});

describe('every endpoint of the contract', () => {
  for (const e of ENDPOINT_LIST) {
    describe(`${e.method} ${e.path}`, () => {
      const withBody = e.method !== 'GET';
      it('anonymous without the ajax marker', async () => {
        await check('no marker', { method: e.method, url: e.path }, 400);
      });
      it('anonymous with the ajax marker', async () => {
        const r = await check('anonymous', {
          method: e.method,
          url: e.path,
          headers: { ...marker, ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { payload: '{}' } : {}),
        });
        expect(r.statusCode).toBeGreaterThanOrEqual(200);
        expect(r.statusCode).toBeLessThan(500);
      });
      it('signed in, with bad input', async () => {
        const r = await check('bad input', {
          method: e.method,
          url: `${e.path}${badQuery}`,
          headers: { ...(await signed()), ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { payload: badBody } : {}),
        });
        expect(r.statusCode).toBeLessThan(500);
      });
      it('with an invalid session', async () => {
        await check('bad session', {
          method: e.method,
          url: e.path,
          headers: { ...marker, [HEADERS.token]: 'nope', [HEADERS.sign]: 'nope' },
        });
      });
    });
  }
});

/** Every method and path the server registered, read from Fastify's route tree. */
function registeredRoutes(): Array<{ method: string; url: string }> {
  const out: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^(.*?)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack[depth] = m[2]!;
    const url = stack
      .join('')
      .replace(/:[^/]+/g, 'x')
      .replace(/\*/g, 'x');
    for (const method of m[3]?.split(', ') ?? []) out.push({ method, url });
  }
  return out;
}

describe('every route the server registers', () => {
  it('answers with the headers, anonymous and without a body', async () => {
    const routes = registeredRoutes();
    expect(routes.length).toBeGreaterThan(ENDPOINT_LIST.length);
    for (const e of ENDPOINT_LIST) expect(routes).toContainEqual({ method: e.method, url: e.path });
    for (const { method, url } of routes) {
      await check(`${method} ${url}`, { method: method as InjectOptions['method'], url, headers: marker });
    }
  });
});

describe('errors outside the endpoints', () => {
  it('an unknown API path, an unknown asset, a wrong method', async () => {
    await check('unknown admin path', { method: 'GET', url: '/admin/nothing-here', headers: marker }, 404);
    await check('unknown admin path, no marker', { method: 'GET', url: '/admin/nothing-here' }, 400);
    await check('unknown asset', { method: 'GET', url: '/assets/missing-0000.js' });
    await check('unknown docs file', { method: 'GET', url: '/docs/missing.css' }, 404);
    await check('wrong method', { method: 'PATCH', url: '/admin/login', headers: marker }, 404);
    await check('wrong method on the console', { method: 'POST', url: '/dashboard' }, 404);
    await check('DELETE on the docs', { method: 'DELETE', url: '/docs' }, 404);
    await check('bare /admin', { method: 'GET', url: '/admin', headers: marker });
  });

  it('a body too large, malformed JSON, a body that is not JSON', async () => {
    const big = await check(
      'too large',
      endpointRequest('login', { body: { email: 'a@example.com', password: 'x'.repeat(2 * 1024 * 1024) } }),
    );
    expect([400, 413]).toContain(big.statusCode);
    await check(
      'malformed JSON',
      {
        method: 'POST',
        url: '/admin/login',
        headers: { ...marker, 'content-type': 'application/json' },
        payload: '{"email":',
      },
      400,
    );
    await check(
      'form body',
      {
        method: 'POST',
        url: '/admin/login',
        headers: { ...marker, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'a=b',
      },
      415,
    );
  });

  it('an undecodable URL', async () => {
    await check('bad percent-encoding', { method: 'GET', url: '/admin/%zz', headers: marker });
    await check('bad percent-encoding on the console', { method: 'GET', url: '/%E0%A4%A' });
  });

  it('CORS preflights, allowed and refused', async () => {
    await check(
      'allowed preflight',
      {
        method: 'OPTIONS',
        url: '/admin/login',
        headers: {
          origin: CONSOLE_ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-requested-with',
        },
      },
      204,
    );
    await check('refused preflight', {
      method: 'OPTIONS',
      url: '/admin/login',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    await check('preflight of an unknown path', {
      method: 'OPTIONS',
      url: '/admin/nothing-here',
      headers: { origin: CONSOLE_ORIGIN, 'access-control-request-method': 'GET' },
    });
  });
});

describe('pages and files', () => {
  it('docs, OpenAPI, runtime configuration, console routes and assets', async () => {
    await check('docs', { method: 'GET', url: '/docs' }, 200);
    await check('docs webhooks', { method: 'GET', url: '/docs/webhooks' }, 200);
    await check('docs css', { method: 'GET', url: '/docs/docs.css' }, 200);
    await check('docs script', { method: 'GET', url: '/docs/docs.js' }, 200);
    await check('openapi', { method: 'GET', url: '/docs/openapi.json' }, 200);
    await check('runtime config', { method: 'GET', url: '/runtime-config.json' }, 200);
    await check('console root', { method: 'GET', url: '/' }, 200);
    await check('console route', { method: 'GET', url: '/customers/search' }, 200);
    await check('console index', { method: 'GET', url: '/index.html' }, 200);
    await check('asset', { method: 'GET', url: '/assets/app-1234.js' }, 200);
    await check('HEAD of an asset', { method: 'HEAD', url: '/assets/app-1234.js' }, 200);
    await check('HEAD of the docs', { method: 'HEAD', url: '/docs' }, 200);
  });

  it('console pages under /account are never cached; the switchapp call neither', async () => {
    const page = await check('account page', { method: 'GET', url: '/account/profile' }, 200);
    expect(page.headers['cache-control']).toBe('no-store');
    await check('switchapp', { method: 'GET', url: '/account/switchapp?appId=1', headers: marker });
    const api = await check('signed-in call', endpointRequest('session', { headers: await signed() }), 200);
    expect(api.headers['cache-control']).toBe('no-store');
  });

  it('the CSP report endpoint', async () => {
    await check(
      'csp report',
      {
        method: 'POST',
        url: '/csp-report',
        headers: { 'content-type': 'application/csp-report' },
        payload: JSON.stringify({
          'csp-report': { 'document-uri': 'http://x.test/', 'effective-directive': 'script-src-elem' },
        }),
      },
      204,
    );
    await check(
      'csp report of the wrong type',
      { method: 'POST', url: '/csp-report', headers: { 'content-type': 'text/html' }, payload: '<p>' },
      415,
    );
    await check('GET of the csp report path', { method: 'GET', url: '/csp-report' });
  });
});

describe('answers written before the application sees the request', () => {
  /** Raw bytes to a listening server: the reply as text. */
  async function raw(port: number, bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1');
      let out = '';
      s.on('data', (d) => {
        out += d.toString('latin1');
      });
      s.on('end', () => resolve(out));
      s.on('close', () => resolve(out));
      s.on('error', reject);
      s.write(bytes);
    });
  }

  it('a request that is not HTTP, or whose headers are too large', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    for (const [label, bytes] of [
      ['garbage', 'HELLO THERE\r\n\r\n'],
      ['headers too large', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ] as const) {
      const reply = await raw(port, bytes);
      const [head] = reply.split('\r\n\r\n');
      const headers = Object.fromEntries(
        head!
          .split('\r\n')
          .slice(1)
          .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      expect(reply, label).toMatch(/^HTTP\/1\.1 4\d\d /);
      expectSecurityHeaders(label, '/', headers);
    }
  });
});
