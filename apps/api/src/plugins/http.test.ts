import { ENDPOINT_LIST } from '@sac/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createTestApp, fakeConsoleBuild, type TestApp } from '../../test/harness.ts';

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

describe('security headers', () => {
  it('sends a strict CSP, nosniff and no-store on API answers', async () => {
    const r = await t.inject({
      method: 'POST',
      url: '/admin/login',
      payload: { email: 'x@example.com', password: 'y' },
    });
    const csp = String(r.headers['content-security-policy']);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "script-src 'self'"]) {
      expect(csp).toContain(d);
    }
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
  });

  it('sends the CSP on console pages too', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });
});

describe('CORS', () => {
  it('allows the configured console origin with the session headers', async () => {
    const r = await t.app.inject({
      method: 'OPTIONS',
      url: '/admin/login',
      headers: {
        origin: CONSOLE_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'xtoken,xsign,x-requested-with,content-type',
      },
    });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe(CONSOLE_ORIGIN);
    expect(String(r.headers['access-control-allow-headers']).toLowerCase()).toContain('xtoken');
  });

  it('does not allow another origin', async () => {
    const r = await t.app.inject({
      method: 'OPTIONS',
      url: '/admin/login',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('request contract', () => {
  it('refuses API calls without the ajax marker', async () => {
    const r = await t.app.inject({
      method: 'POST',
      url: '/admin/login',
      payload: { email: 'sam@example.com', password: 'Secret#123' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().ErrorCode).toBe(908);
  });

  it('refuses a body that is not JSON, and JSON that does not parse, with the envelope', async () => {
    const form = await t.inject({
      method: 'POST',
      url: '/admin/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a&password=b',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().ErrorCode).toBe(909);
    const broken = await t.inject({
      method: 'POST',
      url: '/admin/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({
      ErrorCode: 900,
      Description: 'The request body is not valid JSON.',
    });
  });

  it('accepts an empty JSON body where the call takes none', async () => {
    const s = await t.login('sam@example.com');
    const r = await t.inject({ method: 'POST', url: '/admin/logout', session: s, payload: '' });
    expect(r.statusCode).toBe(200);
  });

  it('answers an unknown API path with the envelope, not the console', async () => {
    const r = await t.inject({ method: 'GET', url: '/admin/nothing-here' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ ErrorCode: 920 });
    expect(r.json().RequestId).toBe(r.headers['x-request-id']);
  });
});

describe('console and docs', () => {
  it('falls back to the console for client routes and serves assets with long caching', async () => {
    for (const url of ['/', '/login', '/manage-superuser/create-superuser']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain('<title>console</title>');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.headers['cache-control']).toContain('immutable');

    // a query that looks like a file name is still a client route
    const withDot = await t.app.inject({ method: 'GET', url: '/customers?email=ada@example.com' });
    expect(withDot.body).toContain('<title>console</title>');
  });

  it('answers 404 for a missing asset or file, not the console page', async () => {
    for (const url of ['/assets/app-0000.js', '/assets/missing', '/favicon.png', '/sitemap.xml?x=1']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(404);
      expect(r.json()).toMatchObject({ ErrorCode: expect.any(Number) });
    }
  });

  it('tells search engines to stay out: robots.txt disallows everything', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.body).toBe('User-agent: *\nDisallow: /\n');
  });

  it('serves the runtime configuration', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/runtime-config.json' });
    expect(r.json()).toEqual({
      apiBaseUrl: '',
      fixedIpHosts: [],
      productName: null,
      links: {
        terms: 'https://www.example.com/terms',
        privacy: 'https://www.example.com/privacy',
        systemStatus: 'https://status.example.com/',
      },
    });
  });

  it('documents every endpoint of the contract in OpenAPI and on /docs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const page = (await t.app.inject({ method: 'GET', url: '/docs' })).body;
    for (const e of ENDPOINT_LIST) {
      expect(doc.paths[e.path][e.method.toLowerCase()].operationId).toBe(e.id);
      expect(page).toContain(`<code>${e.path}</code>`);
    }
  });
});

describe('the request guard on every endpoint', () => {
  it('answers 400 without the ajax marker and 415 for a body that is not JSON, as each endpoint declares', async () => {
    for (const e of ENDPOINT_LIST) {
      const bare = await t.app.inject({ method: e.method, url: e.path });
      expect(bare.statusCode, `${e.method} ${e.path}`).toBe(400);
      expect(e.responses[400]!.safeParse(bare.json()).success, `${e.id} declares 400`).toBe(true);
      if (e.method === 'GET') continue;
      const form = await t.app.inject({
        method: e.method,
        url: e.path,
        headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'text/plain' },
        payload: 'a=b',
      });
      expect(form.statusCode, `${e.method} ${e.path}`).toBe(415);
      expect(e.responses[415]!.safeParse(form.json()).success, `${e.id} declares 415`).toBe(true);
    }
  });
});

describe('request logs', () => {
  it('never carry an API secret or a reset token from the query', async () => {
    const { redactUrl } = await import('../app.ts');
    expect(redactUrl('/admin/searchcustomer?apisecret=s3cr3t&x=1')).toBe(
      '/admin/searchcustomer?apisecret=[redacted]&x=1',
    );
    expect(redactUrl('/login?vtype=reset&vtoken=abc')).toBe('/login?vtype=reset&vtoken=[redacted]');
    // and no customer's personal data either
    expect(redactUrl('/admin/searchcustomer?customerName=ada')).toBe(
      '/admin/searchcustomer?customerName=[redacted]',
    );
    expect(redactUrl('/admin/searchcustomer?cursor=abc')).toBe('/admin/searchcustomer?cursor=abc');
  });
});
