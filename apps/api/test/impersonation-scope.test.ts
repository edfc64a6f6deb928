/**
 * An impersonation session out of its scope is refused (403) whatever its input: the scope check
 * comes before the query and the body are validated, so a call the session may not make never
 * answers 400. Every endpoint the authorization matrix refuses to an impersonation session is
 * called with an empty query and an empty body; a site call the grant reaches is called for
 * another site with a body that does not validate.
 */
import { ENDPOINT_LIST, type EndpointId } from '@sac/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { MATRIX } from './endpoint-matrix.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { insertGrant } from './impersonation-fixtures.ts';

let t: TestApp;
let session: { xtoken: string; xsign: string };
let uid: string;
let otherAppId: number;

beforeAll(async () => {
  t = await createTestApp();
  uid = await insertCustomer(t.db, { first: 'Scope', last: 'Owner', email: 'scope@customer.example' });
  const appId = (await insertSite(t.db, { owner: uid, name: 'scope-site' })).appId;
  otherAppId = (await insertSite(t.db, { owner: uid, name: 'scope-other' })).appId;
  const email = 'scope-admin@example.com';
  const staffUid = await t.addStaff(email, ['Admin']);
  await insertGrant(t.db, {
    appId,
    initiatorUid: staffUid,
    initiatorEmail: email,
    roles: ['Developer'],
    now: t.clock.now(),
  });
  const own = await t.login(email);
  const r = await t.inject({
    method: 'GET',
    url: '/account/switchapp',
    session: own,
    query: { appid: String(appId) },
  });
  expect(r.statusCode, r.body).toBe(200);
  session = { xtoken: r.json().xtoken, xsign: r.json().xsign };
});
afterAll(() => t.close());

const refused = ENDPOINT_LIST.filter(
  (e) => e.access !== 'public' && MATRIX[e.id as EndpointId].expect.Impersonating === 403,
).map((e) => [`${e.method} ${e.path}`, e] as const);

describe('an impersonation session out of scope gets 403 whatever its input', () => {
  it.each(refused)('%s with an empty query and body', async (_name, e) => {
    const r = await t.inject({
      method: e.method,
      url: e.path,
      session,
      query: {},
      ...(e.method === 'GET' ? {} : { payload: {} }),
    });
    expect(r.statusCode, r.body).toBe(403);
  });

  it.each(['customDomainCreate', 'saveDefaultFields', 'updateAppSettings'] as const)(
    '%s for another site, with a body that does not validate',
    async (id) => {
      const e = ENDPOINT_LIST.find((x) => x.id === id)!;
      const r = await t.inject({
        method: e.method,
        url: e.path,
        session,
        query: { uid, appId: String(otherAppId) },
        payload: { nothing: 'valid' },
      });
      expect(r.statusCode, r.body).toBe(403);
    },
  );
});
