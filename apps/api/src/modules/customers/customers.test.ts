import { SEARCH_MESSAGES, SEARCH_RESULT_CAP } from '@sac/contract/customers';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite, shareSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { writeActivity } from '../activity/activity.repo.ts';

let t: TestApp;
let s: { xtoken: string; xsign: string };
let ada: string;
let grace: string;
let site: { appId: number; apiKey: string; secret: string };
let shared: { appId: number; apiKey: string; secret: string };

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('support@example.com', ['Support']);
  s = await t.login('support@example.com');
  ada = await insertCustomer(t.db, {
    first: 'Ada',
    last: 'Lovelace',
    email: 'Ada.Lovelace@Analytical.example',
    organization: 'Analytical Engines',
    phone: '0123456789',
  });
  grace = await insertCustomer(t.db, { first: 'Grace', last: 'Hopper', email: 'grace@navy.example' });
  await insertCustomer(t.db, { first: 'Per_cent', last: '100%', email: 'odd_name@example.com' });
  for (let i = 0; i < SEARCH_RESULT_CAP + 5; i++) {
    await insertCustomer(t.db, { first: `Many${i}`, last: 'Smithson', email: `many${i}@bulk.example` });
  }
  const conn = t.ctx.crypto.encrypt(
    'postgres://app_user:S3cretPass@db.internal:5432/analytics?sslmode=require',
  );
  site = await insertSite(t.db, { owner: ada, name: 'analytical-engine', encryptedConn: conn });
  shared = await insertSite(t.db, { owner: grace, name: 'cobol-compiler' });
  await shareSite(t.db, shared.appId, ada, 'Developer');
});
afterAll(() => t.close());

const search = (query: Record<string, string>) =>
  t.call({ method: 'GET', url: '/admin/searchcustomer', session: s, query });
interface SearchAnswer {
  Data: Array<{ Uid: string; FullName: string; Email: string }>;
  Capped: boolean;
  Limit: number;
  NextCursor: string;
}
/** Every page of a search, following NextCursor until it is ''. */
async function allPages(query: Record<string, string>): Promise<SearchAnswer[]> {
  const pages: SearchAnswer[] = [];
  let cursor = '';
  do {
    const r = await search({ ...query, ...(cursor ? { cursor } : {}) });
    expect(r.statusCode).toBe(200);
    pages.push(r.json() as SearchAnswer);
    cursor = pages.at(-1)!.NextCursor;
  } while (cursor && pages.length < 20);
  return pages;
}
/** [key, uid] pairs in ascending order (code-unit order, as the database's byte order for ASCII). */
function expectOrdered(pairs: Array<[string, string]>) {
  const sorted = [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
  expect(pairs).toEqual(sorted);
}
const get = (url: string, query: Record<string, string | number>) =>
  t.call({
    method: 'GET',
    url,
    session: s,
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });

describe('GET /admin/searchcustomer', () => {
  it('finds by name substring from 3 characters, any case', async () => {
    const r = await search({ customerName: 'LOVEL' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ Criterion: 'customerName', Capped: false });
    expect(r.json().Data).toEqual([
      expect.objectContaining({
        Uid: ada,
        FullName: 'Ada Lovelace',
        Email: 'Ada.Lovelace@Analytical.example',
        Status: 'Active',
        Role: 'Owner',
      }),
    ]);
    expect((await search({ customerName: 'ace' })).json().Data.map((c: { Uid: string }) => c.Uid)).toContain(
      ada,
    );
  });

  it('matches below 3 characters as a prefix only', async () => {
    expect((await search({ customerName: 'ad' })).json().Data.map((c: { Uid: string }) => c.Uid)).toEqual([
      ada,
    ]);
    expect((await search({ customerName: 'da' })).statusCode).toBe(404);
  });

  it('finds by email prefix and exact, any case', async () => {
    expect((await search({ emailid: 'ada.love' })).json().Data[0].Uid).toBe(ada);
    expect((await search({ emailid: 'ADA.LOVELACE@ANALYTICAL.EXAMPLE' })).json().Data[0].Uid).toBe(ada);
    expect((await search({ emailid: 'lovelace' })).statusCode).toBe(404); // not a prefix
  });

  it('finds by exact API key and API secret only', async () => {
    expect((await search({ apikey: site.apiKey })).json().Data[0].Uid).toBe(ada);
    expect((await search({ apikey: site.apiKey.toUpperCase() })).json().Data[0].Uid).toBe(ada);
    expect((await search({ apikey: site.apiKey.slice(0, 20) })).statusCode).toBe(404);
    expect((await search({ apisecret: site.secret })).json().Data[0].Uid).toBe(ada);
    expect((await search({ apisecret: site.secret.slice(0, -1) })).statusCode).toBe(404);
  });

  it('finds the owner by site name', async () => {
    expect((await search({ sitename: 'ANALYTICAL' })).json().Data.map((c: { Uid: string }) => c.Uid)).toEqual(
      [ada],
    );
  });

  it('treats %, _ and \\ in the input as plain characters', async () => {
    expect((await search({ customerName: '100%' })).json().Data).toHaveLength(1);
    expect((await search({ customerName: '%' })).statusCode).toBe(404);
    expect((await search({ customerName: '___' })).statusCode).toBe(404);
    expect((await search({ emailid: 'odd_' })).json().Data).toHaveLength(1);
    expect((await search({ emailid: 'odd%' })).statusCode).toBe(404);
    expect((await search({ customerName: '\\' })).statusCode).toBe(404);
  });

  it('keeps a + in the term (sent as %2B)', async () => {
    await insertCustomer(t.db, { first: 'Plus', last: 'Sign', email: 'plus+tag@example.com' });
    const r = await t.call({ method: 'GET', url: '/admin/searchcustomer?emailid=plus%2Btag', session: s });
    expect(r.json().Data[0].Email).toBe('plus+tag@example.com');
  });

  it('caps a substring search at 200 customers, pages them 50 at a time and says so on each page', async () => {
    const pages = await allPages({ customerName: 'smithson' });
    expect(pages.map((p) => p.Data.length)).toEqual([50, 50, 50, 50]);
    expect(pages.every((p) => p.Capped && p.Limit === SEARCH_RESULT_CAP)).toBe(true);
    const uids = pages.flatMap((p) => p.Data.map((c) => c.Uid));
    expect(new Set(uids).size).toBe(SEARCH_RESULT_CAP);
    expectOrdered(pages.flatMap((p) => p.Data).map((c) => [c.FullName.toLowerCase(), c.Uid]));
  });

  it('pages a name prefix through every match, by name then uid, with no cap', async () => {
    const pages = await allPages({ customerName: 'Ma' });
    expect(pages.map((p) => p.Data.length)).toEqual([50, 50, 50, 50, SEARCH_RESULT_CAP + 5 - 200]);
    expect(pages.some((p) => p.Capped)).toBe(false);
    const rows = pages.flatMap((p) => p.Data);
    expect(new Set(rows.map((c) => c.Uid)).size).toBe(SEARCH_RESULT_CAP + 5);
    expectOrdered(rows.map((c) => [c.FullName.toLowerCase(), c.Uid]));
  });

  it('pages an email prefix by email', async () => {
    const pages = await allPages({ emailid: 'MANY' });
    const emails = pages.flatMap((p) => p.Data.map((c) => c.Email.toLowerCase()));
    expect(emails).toHaveLength(SEARCH_RESULT_CAP + 5);
    expect(emails).toEqual([...emails].sort());
    expect(new Set(emails).size).toBe(emails.length);
  });

  it('a cursor keeps its place when customers are added before it', async () => {
    const first = (await search({ customerName: 'ma' })).json() as SearchAnswer;
    await insertCustomer(t.db, { first: 'Maa', last: 'Early', email: 'maa.early@example.com' });
    const second = (await search({ customerName: 'ma', cursor: first.NextCursor })).json() as SearchAnswer;
    const firstUids = new Set(first.Data.map((c) => c.Uid));
    expect(second.Data.filter((c) => firstUids.has(c.Uid))).toEqual([]);
    expect(second.Data[0]!.FullName > first.Data.at(-1)!.FullName).toBe(true);
    expect((await search({ customerName: 'maa' })).json().Data).toHaveLength(1); // it was added
  });

  it('answers a page past the last match with no customers rather than 927', async () => {
    const past = Buffer.from(JSON.stringify(['customerName', 'zzzz', ada])).toString('base64url');
    const r = await search({ customerName: 'ma', cursor: past });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ Data: [], NextCursor: '' });
    const byKey = await search({ apikey: site.apiKey });
    expect(byKey.json()).toMatchObject({ Data: [expect.objectContaining({ Uid: ada })], NextCursor: '' });
    const afterAda = Buffer.from(JSON.stringify(['apikey', 'ada lovelace', ada])).toString('base64url');
    expect((await search({ apikey: site.apiKey, cursor: afterAda })).json()).toMatchObject({ Data: [] });
    const beforeAda = Buffer.from(JSON.stringify(['apikey', 'a', ada])).toString('base64url');
    expect((await search({ apikey: site.apiKey, cursor: beforeAda })).json().Data).toHaveLength(1);
  });

  it('refuses a cursor that is not one, or is from another kind of search', async () => {
    const fromEmail = (await search({ emailid: 'many' })).json().NextCursor as string;
    const forged = Buffer.from(JSON.stringify(['customerName', 'x', 'not-a-uid'])).toString('base64url');
    for (const cursor of ['garbage', fromEmail, forged, 'x'.repeat(2001)]) {
      const r = await search({ customerName: 'ma', cursor });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ ErrorCode: 900, Description: SEARCH_MESSAGES.badCursor });
    }
    expect((await search({ emailid: 'many', cursor: fromEmail })).statusCode).toBe(200);
  });

  it('says a site-name answer is capped when more sites match than it looked at', async () => {
    const owners = [];
    for (let i = 0; i < 3; i++)
      owners.push(
        await insertCustomer(t.db, {
          first: `Owner${i}`,
          last: 'Bulk',
          email: `owner${i}@bulk-sites.example`,
        }),
      );
    for (let i = 0; i < 2 * (SEARCH_RESULT_CAP + 1); i++) {
      await insertSite(t.db, { owner: owners[i % 3]!, name: `bulkshop-${i}` });
    }
    const r = await search({ sitename: 'bulkshop' });
    expect(r.json().Data).toHaveLength(3);
    expect(r.json().Capped).toBe(true);
    const few = await search({ sitename: 'bulkshop-40' }); // bulkshop-40, -400 .. -401
    expect(few.json().Capped).toBe(false);
  });

  it('matches site-name substrings across dashes exactly', async () => {
    const dash = await insertCustomer(t.db, { first: 'Dash', last: 'Owner', email: 'dash@sites.example' });
    const q = await insertCustomer(t.db, { first: 'Queue', last: 'Owner', email: 'queue@sites.example' });
    await insertSite(t.db, { owner: dash, name: 'block-cloud-7' });
    await insertSite(t.db, { owner: q, name: 'blockqcloud-7' }); // the index reads '-' as 'q'
    const uids = async (term: string) =>
      ((await search({ sitename: term })).json().Data ?? []).map((c: { Uid: string }) => c.Uid);
    expect(await uids('k-clo')).toEqual([dash]);
    expect(await uids('kqclo')).toEqual([q]);
    expect(await uids('BLOCK-CLOUD-7')).toEqual([dash]);
  });

  it('answers 927 with the spec message when nothing matches', async () => {
    const r = await search({ customerName: 'zzzqqq' });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ ErrorCode: 927, Description: MESSAGES.searchNotFound });
  });

  it('takes exactly one criterion', async () => {
    expect((await search({ customerName: 'ada', emailid: 'ada' })).json().Description).toBe(
      SEARCH_MESSAGES.oneCriterion,
    );
    expect((await search({})).json().Description).toBe(SEARCH_MESSAGES.noCriterion);
    expect((await search({ customerName: '   ' })).json().Description).toBe(SEARCH_MESSAGES.noCriterion);
  });
});

describe('customer reads', () => {
  it('customerprofilebyuid answers the profile fields of spec section 3', async () => {
    const r = await get('/admin/customerprofilebyuid', { uid: ada });
    expect(r.json().Data).toMatchObject({
      Uid: ada,
      FirstName: 'Ada',
      LastName: 'Lovelace',
      Organization: 'Analytical Engines',
      PhoneNumber: '0123456789',
      TimeZone: 'Europe/London',
      CreatedDate: '2026-01-10T09:00:00.000Z',
    });
  });

  it('userprofilebyuid answers the account with the last sign-in and site counts', async () => {
    await t.db.query(
      `INSERT INTO customer_logins (customer_uid, at, access_type, browser, client_address, location)
       VALUES ($1, '2026-01-12T08:00:00Z', 'Web', 'Firefox 140', '203.0.113.7', 'London, GB'),
              ($1, '2026-01-14T08:00:00Z', 'API', 'curl/8.5', '198.51.100.4', 'Dublin, IE')`,
      [ada],
    );
    const r = await get('/admin/userprofilebyuid', { uid: ada });
    expect(r.json().Data).toMatchObject({
      LastLoginDate: '2026-01-14T08:00:00.000Z',
      OwnedSites: 1,
      SharedSites: 1,
    });
    const logins = await get('/admin/loginsessionbyuid', { uid: ada });
    expect(logins.json().Data[0]).toEqual({
      AccessType: 'API',
      Browser: 'curl/8.5',
      ClientAddress: '198.51.100.4',
      Location: 'Dublin, IE',
      LoginDate: '2026-01-14T08:00:00.000Z',
    });
  });

  it('answers a clear 404 for an unknown uid and 400 for a malformed one', async () => {
    const unknown = await get('/admin/customerprofilebyuid', { uid: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().Description).toBe('There is no customer with that uid.');
    expect((await get('/admin/customerprofilebyuid', { uid: 'nope' })).statusCode).toBe(400);
  });

  it('activitylogs pages newest first with a cursor', async () => {
    for (let i = 0; i < 45; i++) {
      await writeActivity(t.db, {
        at: new Date(Date.UTC(2026, 0, 1, 0, i)),
        action: 'team.create',
        actorEmail: 'support@example.com',
        targetType: 'customer',
        targetId: ada,
        details: { n: i },
      });
    }
    const first = await get('/admin/activitylogs', { uid: ada });
    expect(first.json().Data).toHaveLength(20);
    expect(first.json().Data[0].Details).toEqual({ n: 44 });
    const second = await get('/admin/activitylogs', { uid: ada, cursor: first.json().NextCursor });
    expect(second.json().Data[0].Details).toEqual({ n: 24 });
    const third = await get('/admin/activitylogs', { uid: ada, cursor: second.json().NextCursor });
    expect(third.json().Data).toHaveLength(5);
    expect(third.json().NextCursor).toBe(0);
    expect((await get('/admin/activitylogs', { uid: ada, cursor: -1 })).statusCode).toBe(400);
  });
});

describe('sites', () => {
  it('apps, sharedapps and allapps', async () => {
    const owned = (await get('/admin/apps', { uid: ada })).json().Data;
    expect(owned).toEqual([
      expect.objectContaining({
        appId: site.appId,
        AppName: 'analytical-engine',
        ApiKey: site.apiKey,
        uid: ada,
        Role: 'Owner',
      }),
    ]);
    const sharedList = (await get('/admin/sharedapps', { uid: ada })).json().Data;
    expect(sharedList).toEqual([
      expect.objectContaining({
        AppName: 'cobol-compiler',
        ApiKey: shared.apiKey,
        uid: grace,
        Role: 'Developer',
      }),
    ]);
    const all = (await get('/admin/allapps', { uid: ada }))
      .json()
      .Data.map((x: { AppName: string }) => x.AppName);
    expect(all).toEqual(['analytical-engine', 'cobol-compiler']);
  });

  it('appinfobyid masks the custom connection string and never sends it whole', async () => {
    const r = await get('/admin/appinfobyid', { uId: ada, appId: site.appId });
    const info = r.json().Data;
    expect(info.Database).toEqual({
      Name: 'analytical-engine-db',
      Custom: true,
      ConnectionString: 'postgres://app_user:****@db.internal:5432/analytics?sslmode=require',
    });
    expect(r.body).not.toContain('S3cretPass');
    expect(info).toMatchObject({
      Plan: 'Developer',
      PlanStatus: 'Trial',
      DataCenter: 'eu-central',
      OwnerEmail: 'Ada.Lovelace@Analytical.example',
    });
    const raw = await t.db.query<{ custom_db_conn: Buffer }>(
      'SELECT custom_db_conn FROM sites WHERE app_id = $1',
      [site.appId],
    );
    expect(Buffer.from(raw.rows[0]!.custom_db_conn).toString('latin1')).not.toContain('S3cretPass');
  });

  it('a site is reachable only through a customer who owns or shares it', async () => {
    expect((await get('/admin/appbyid', { uId: ada, appId: shared.appId })).json().Data.Role).toBe(
      'Developer',
    );
    const r = await get('/admin/appbyid', { uId: grace, appId: site.appId });
    expect(r.statusCode).toBe(404);
    expect((await get('/admin/appbyid', { uId: ada, appId: 'x' })).json().Description).toBe(
      'appId must be a number.',
    );
  });

  it('site/datacenter, site/feature and site/basicsettings', async () => {
    const dc = (await get('/admin/site/datacenter', { userId: ada, appId: site.appId })).json().Data;
    expect(dc.Current).toEqual({
      DataCenter: 'eu-central',
      GlobalServer: 'euc-shared-1',
      DbName: 'analytical-engine-db',
      CustomDb: true,
    });
    expect(dc.DataCenters.length).toBeGreaterThan(3);
    const f = (await get('/admin/site/feature', { userId: ada, appId: site.appId })).json().Data;
    expect(f).toEqual({ appId: site.appId, Features: ['social-login', 'mfa'] });
    const b = (await get('/admin/site/basicsettings', { uID: ada, appId: site.appId })).json().Data;
    expect(b).toMatchObject({
      AppName: 'analytical-engine',
      ProductionUrl: 'https://analytical-engine.example.com',
      Status: 'active',
    });
  });

  it('features and customer roles catalogues', async () => {
    const f = (await t.call({ method: 'GET', url: '/admin/features', session: s })).json().Data;
    expect(f.Features.map((x: { Key: string }) => x.Key)).toContain('mfa');
    expect(f.FeatureSets.map((x: { Name: string }) => x.Name)).toContain('Developer Premium');
    const roles = (await t.call({ method: 'GET', url: '/admin/customer/roles', session: s })).json().Data;
    expect(roles.find((r: { Name: string }) => r.Name === 'Analyst').Permissions).toMatchObject({
      ViewData: true,
      EditData: false,
    });
  });
});
