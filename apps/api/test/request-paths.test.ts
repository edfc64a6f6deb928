import { HEADERS } from '@sac/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefixes, normalisedPath } from '../src/lib/request-path.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { createTestApp, fakeConsoleBuild, type TestApp } from './harness.ts';

/**
 * Checks run on the path the router runs, whatever its spelling; unknown API paths and
 * dotfiles are 404s, never the console's page; HSTS follows the console origin's scheme.
 */

let t: TestApp;
let web: ReturnType<typeof fakeConsoleBuild>;
beforeAll(async () => {
  web = fakeConsoleBuild();
  t = await createTestApp({ webDistDir: web.dir });
});
afterAll(async () => {
  await t.close();
  web.remove();
});

const marker = { [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue };

describe('normalisedPath', () => {
  it('decodes, folds case, resolves dot segments and collapses slashes', () => {
    expect(normalisedPath('/%61dmin/session?x=1')).toBe('/admin/session');
    expect(normalisedPath('/%2561dmin/session')).toBe('/admin/session');
    expect(normalisedPath('//ADMIN//session/')).toBe('/admin/session');
    expect(normalisedPath('/x/../admin/./session')).toBe('/admin/session');
    expect(normalisedPath('/\\admin\\session')).toBe('/admin/session');
    expect(normalisedPath('/%E0%A4%A')).toBe('/%e0%a4%a');
    expect(normalisedPath('/')).toBe('/');
  });

  it('gives a path already normal as it is, and sends the rest through the full rules', () => {
    expect(normalisedPath('/admin/customerprofilebyuid?uid=A/../B')).toBe('/admin/customerprofilebyuid');
    expect(normalisedPath('/admin/session#x')).toBe('/admin/session');
    expect(normalisedPath('/admin/bulk-job')).toBe('/admin/bulk-job');
    expect(normalisedPath('/admin/session/')).toBe('/admin/session');
    expect(normalisedPath('/admin//session')).toBe('/admin/session');
    expect(normalisedPath('/admin/x/..')).toBe('/admin');
    expect(normalisedPath('/Admin/session')).toBe('/admin/session');
    expect(normalisedPath('/admin/%73ession')).toBe('/admin/session');
    expect(normalisedPath('/admin/session\\..\\..\\x')).toBe('/x');
  });

  it('derives the API prefixes from the routes, keeping /account for the console', () => {
    const p = apiPrefixes([
      '/admin/login',
      '/account/switchapp',
      '/docs',
      '/docs/openapi.json',
      '*',
      '/livez',
    ]);
    expect(p.sort()).toEqual(['/account/switchapp', '/admin', '/docs', '/livez']);
  });
});

describe('percent-encoded API paths get the same checks', () => {
  it('refuses /%61dmin/session without the ajax marker and never lets it be cached', async () => {
    for (const url of ['/%61dmin/session', '/%61dmin/login', '/admin/%73ession']) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(400);
      expect(r.json().ErrorCode, url).toBe(908);
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
    const withMarker = await t.app.inject({ method: 'GET', url: '/%61dmin/session', headers: marker });
    expect(withMarker.statusCode).toBe(401);
    expect(withMarker.headers['cache-control']).toBe('no-store');
  });
});

describe('unknown API paths and dotfiles answer 404, console routes the page', () => {
  it('answers the JSON envelope for unknown paths under the API prefixes, in any case or encoding', async () => {
    for (const url of [
      '/ADMIN/session',
      '/%41dmin/x',
      '/admin/nope',
      '/admin',
      '/Admin',
      '/%2561dmin/x',
      '//admin/session',
      '/docs/nope',
      '/DOCS',
      '/account/switchapp/x',
      '/ACCOUNT/SwitchApp',
      '/livez/x',
      '/csp-report',
      '/assets/nope',
    ]) {
      const r = await t.app.inject({ method: 'GET', url, headers: marker });
      expect(r.statusCode, url).toBe(404);
      expect(r.headers['content-type'], url).toContain('application/json');
      expect(r.json(), url).toMatchObject({ ErrorCode: 920, RequestId: r.headers['x-request-id'] });
    }
  });

  it('answers the envelope for API-looking paths that are no route: /api, /graphql, /v1, any /admin…', async () => {
    for (const url of [
      '/api',
      '/api/users',
      '/API/users?limit=1',
      '/graphql',
      '/graphql/console',
      '/v1/customers',
      '/V2',
      '/v10/x',
      '/admin-x',
      '/administrator',
      '/adminer.php',
      '/%61dmin-x/y',
      '/admin_panel/users',
    ]) {
      for (const headers of [marker, {}]) {
        const r = await t.app.inject({ method: 'GET', url, headers });
        expect(r.statusCode, url).toBe(404);
        expect(r.headers['content-type'], url).toContain('application/json');
        expect(r.json(), url).toMatchObject({ ErrorCode: 920, RequestId: r.headers['x-request-id'] });
      }
    }
  });

  it('answers 404 for dotfile paths', async () => {
    for (const url of [
      '/.git/config',
      '/.git/HEAD',
      '/.env',
      '/%2Egit/config',
      '/x/.ssh/id_rsa',
      '/.well-known/x',
    ]) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(404);
      expect(r.body, url).not.toContain('<title>console</title>');
    }
  });

  it('still serves the console for its own routes', async () => {
    for (const url of [
      '/',
      '/login',
      '/login?vtype=reset&vtoken=abc',
      '/forgotpassword',
      '/manage-customer/search-customer',
      '/manage-customer/view-customer?uid=1',
      '/account/change-password',
      '/no/such/page',
      '/dashboard',
      '/manage-superuser/roles',
      '/impersonation/requests',
      '/unsubscribe?token=x',
      '/vip/customers',
      '/apis-page',
      '/graphqlish',
      '/no/such/%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E',
    ]) {
      const r = await t.app.inject({ method: 'GET', url });
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).toContain('<title>console</title>');
    }
  });
});

describe('integers are decimal digits only', () => {
  it('answers 400 with a field error for appId=0x1aa and every other spelling, and reads 426 as 426', async () => {
    await t.addStaff('support@paths.example', ['Support']);
    const session = await t.login('support@paths.example');
    const uId = await insertCustomer(t.db, { first: 'Ida', last: 'Int', email: 'ida@paths.example' });
    const { appId } = await insertSite(t.db, { owner: uId, name: 'ida-site' });
    const get = (spelled: string) => t.call('appById', { session, query: { uId, appId: spelled } });
    const decimal = await get(String(appId));
    expect(decimal.status, decimal.raw.body).toBe(200);
    for (const spelled of [
      `0x${appId.toString(16)}`,
      `0b${appId.toString(2)}`,
      `0o${appId.toString(8)}`,
      `${appId}e0`,
      ` ${appId}`,
      `${appId}.0`,
      `+${appId}`,
      '',
    ]) {
      const r = await get(spelled);
      expect(r.status, spelled).toBe(400);
      expect(r.error, spelled).toMatchObject({ ErrorCode: 900, FieldErrors: [{ Field: 'appId' }] });
    }
    const body = await t.callLoose('impersonationCreate', {
      session,
      body: {
        data: { AppId: `0x${appId.toString(16)}`, Priority: 'Low', Description: 'x', Assignees: ['a'] },
      },
    });
    expect(body.status).toBe(400);
    expect(body.error.FieldErrors).toContainEqual(expect.objectContaining({ Field: 'data.AppId' }));
  });
});

describe('HSTS', () => {
  it('is not sent when the console origin is http', async () => {
    for (const url of ['/admin/session', '/login', '/livez']) {
      const r = await t.app.inject({ method: 'GET', url, headers: marker });
      expect(r.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('is sent on every answer when the console origin is https', async () => {
    const s = await createTestApp({ webDistDir: web.dir, consoleOrigins: ['https://console.example.com'] });
    try {
      for (const [url, status] of [
        ['/admin/session', 401],
        ['/login', 200],
        ['/livez', 200],
        ['/admin/nope', 404],
        ['/admin/%zz', 400],
      ] as const) {
        const r = await s.app.inject({ method: 'GET', url, headers: marker });
        expect(r.statusCode, url).toBe(status);
        expect(r.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      }
    } finally {
      await s.close();
    }
  });
});
