import { SEARCH_COUNT_LIMIT, SEARCH_MESSAGES, SEARCH_PAGE_SIZE } from '@sac/contract/customers';
import type { EndpointId, QueryOf } from '@sac/contract/endpoints';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite, shareSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, recordingQueries, type TestApp } from '../../../test/harness.ts';
import { preparedName } from '../../db/connection-common.ts';
import { recordEvent } from '../activity/activity.service.ts';
import { searchCounted, searchCustomers } from './customer-search.repo.ts';
import { countMatches } from './search-counts.repo.ts';
import { prefixEnd, type SearchPosition } from './search-sql.ts';

/** Customers named Many<i> Smithson: more than the 200 the search used to stop at. */
const MANY = 205;
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
  for (let i = 0; i < MANY; i++) {
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

const search = (query: Record<string, string>) => t.call('searchCustomer', { session: s, query });
interface SearchAnswer {
  Data: Array<{ Uid: string; FullName: string; Email: string }>;
  Capped: boolean;
  Limit: number;
  Total: number;
  NextCursor: string;
}
/** Every page of a search, following NextCursor until it is ''. */
async function allPages(query: Record<string, string>): Promise<SearchAnswer[]> {
  const pages: SearchAnswer[] = [];
  let cursor = '';
  do {
    const r = await search({ ...query, ...(cursor ? { cursor } : {}) });
    expect(r.status).toBe(200);
    pages.push(r.body as SearchAnswer);
    cursor = pages.at(-1)!.NextCursor;
  } while (cursor && pages.length < 40);
  return pages;
}
/** A cursor as the API makes them: [criterion, tier, key, uid, total, capped], base64url. */
const cursorOf = (v: unknown[]) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** [key, uid] pairs in ascending order (code-unit order, as the database's byte order for ASCII). */
function expectOrdered(pairs: Array<[string, string]>) {
  const sorted = [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
  expect(pairs).toEqual(sorted);
}
const get = <I extends EndpointId>(id: I, query: QueryOf<I>) => t.call(id, { session: s, query });

describe('GET /admin/searchcustomer', () => {
  it('finds by name substring from 3 characters, any case', async () => {
    const r = await search({ customerName: 'LOVEL' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Criterion: 'customerName', Capped: false });
    expect(r.body.Data).toEqual([
      expect.objectContaining({
        Uid: ada,
        FullName: 'Ada Lovelace',
        Email: 'Ada.Lovelace@Analytical.example',
        Status: 'Active',
        Role: 'Owner',
      }),
    ]);
    expect((await search({ customerName: 'ace' })).body.Data.map((c: { Uid: string }) => c.Uid)).toContain(
      ada,
    );
  });

  it('matches below 3 characters as a prefix only', async () => {
    expect((await search({ customerName: 'ad' })).body.Data.map((c: { Uid: string }) => c.Uid)).toEqual([
      ada,
    ]);
    expect((await search({ customerName: 'da' })).status).toBe(404);
  });

  it('finds by email prefix and exact, any case', async () => {
    expect((await search({ emailid: 'ada.love' })).body.Data[0]!.Uid).toBe(ada);
    expect((await search({ emailid: 'ADA.LOVELACE@ANALYTICAL.EXAMPLE' })).body.Data[0]!.Uid).toBe(ada);
    expect((await search({ emailid: 'lovelace' })).status).toBe(404); // not a prefix
  });

  it('finds by exact API key and API secret only', async () => {
    expect((await search({ apikey: site.apiKey })).body.Data[0]!.Uid).toBe(ada);
    expect((await search({ apikey: site.apiKey.toUpperCase() })).body.Data[0]!.Uid).toBe(ada);
    expect((await search({ apikey: site.apiKey.slice(0, 20) })).status).toBe(404);
    expect((await search({ apisecret: site.secret })).body.Data[0]!.Uid).toBe(ada);
    expect((await search({ apisecret: site.secret.slice(0, -1) })).status).toBe(404);
  });

  it('finds the owner by site name', async () => {
    expect((await search({ sitename: 'ANALYTICAL' })).body.Data.map((c: { Uid: string }) => c.Uid)).toEqual([
      ada,
    ]);
  });

  it('treats %, _ and \\ in the input as plain characters', async () => {
    expect((await search({ customerName: '100%' })).body.Data).toHaveLength(1);
    expect((await search({ customerName: '%' })).status).toBe(404);
    expect((await search({ customerName: '___' })).status).toBe(404);
    expect((await search({ emailid: 'odd_' })).body.Data).toHaveLength(1);
    expect((await search({ emailid: 'odd%' })).status).toBe(404);
    expect((await search({ customerName: '\\' })).status).toBe(404);
  });

  it('keeps a + in the term (sent as %2B)', async () => {
    await insertCustomer(t.db, { first: 'Plus', last: 'Sign', email: 'plus+tag@example.com' });
    const r = await t.call('searchCustomer', { query: { emailid: 'plus+tag' }, session: s });
    expect(r.body.Data[0]!.Email).toBe('plus+tag@example.com');
  });

  it('ranks the exact name first, then names starting with the term, then names holding it', async () => {
    const made = async (first: string, last: string) =>
      insertCustomer(t.db, { first, last, email: `${first}.${last}.${Math.random()}@rank.example` });
    const exact = [await made('Johan', 'Rankle'), await made('JOHAN', 'rankle')].sort();
    const prefix = [await made('Johan', 'Ranklee'), await made('Johan', 'Rankleaf')];
    const inside = [
      await made('Bjohan', 'Rankle'),
      await made('Ajohan', 'Rankle'),
      await made('X', 'Johan Rankle'),
    ];
    const r = (await search({ customerName: 'johan rankle' })).body as SearchAnswer;
    expect(r.Data.map((c) => c.Uid)).toEqual([
      ...exact,
      prefix[1],
      prefix[0],
      inside[1],
      inside[0],
      inside[2],
    ]);
    expect(r).toMatchObject({ Total: 7, Capped: false, Limit: SEARCH_COUNT_LIMIT, NextCursor: '' });
    // below 3 characters: exact, then prefix
    await made('Jo', '');
    const short = (await search({ customerName: 'jo ' })).body as SearchAnswer;
    expect(short.Data[0]!.FullName).toBe('Jo');
  });

  it('answers the same pages every time', async () => {
    const once = await allPages({ customerName: 'mithso' });
    const again = await allPages({ customerName: 'mithso' });
    expect(again).toEqual(once);
    expect(once.length).toBeGreaterThan(1);
  });

  it('pages a substring search through every match past 200, each once, in rank order, with its Total', async () => {
    const pages = await allPages({ customerName: 'mithso' });
    expect(pages.map((p) => p.Data.length)).toEqual([50, 50, 50, 50, MANY - 200]);
    expect(pages.every((p) => p.Total === MANY && !p.Capped && p.Limit === SEARCH_COUNT_LIMIT)).toBe(true);
    const rows = pages.flatMap((p) => p.Data);
    expect(new Set(rows.map((c) => c.Uid)).size).toBe(MANY);
    expectOrdered(rows.map((c) => [c.FullName.toLowerCase(), c.Uid]));
  });

  it('past the count limit says "more than", walks the name index in order, and still lists every match', async () => {
    const n = SEARCH_COUNT_LIMIT + 40;
    await t.db.query(
      `INSERT INTO customers (uid, first_name, last_name, email, created_at, modified_at)
       SELECT gen_random_uuid(), 'Walk' || n, 'Bulkwalker', 'walk' || n || '@walk.example', now(), now()
       FROM generate_series(1, $1::int) n`,
      [n],
    );
    const lead = await insertCustomer(t.db, { first: 'Ulkwalker', last: 'Lead', email: 'lead@walk.example' });
    const pages = await allPages({ customerName: 'ulkwalk' });
    expect(pages.every((p) => p.Total === SEARCH_COUNT_LIMIT && p.Capped)).toBe(true);
    const rows = pages.flatMap((p) => p.Data);
    expect(rows[0]!.Uid).toBe(lead); // the one name starting with the term
    expect(rows).toHaveLength(n + 1);
    expect(new Set(rows.map((c) => c.Uid)).size).toBe(n + 1);
    expectOrdered(rows.slice(1).map((c) => [c.FullName.toLowerCase(), c.Uid]));
    // The walk, its fallback to the trigram index and the sort answer the same pages.
    const page = (opts: { many: boolean; walkWindow?: number }) =>
      searchCustomers(t.db, 'customerName', 'ulkwalk', undefined, opts);
    const sorted = await page({ many: false });
    expect(await page({ many: true })).toEqual(sorted);
    expect(await page({ many: true, walkWindow: 5 })).toEqual(sorted);
    const second = sorted.next!;
    const rest = await searchCustomers(t.db, 'customerName', 'ulkwalk', second, { many: false });
    expect(
      await searchCustomers(t.db, 'customerName', 'ulkwalk', second, { many: true, walkWindow: 3 }),
    ).toEqual(rest);
    // A window that finds 40 of the page's 51 walks on from its last entry, not to the sort.
    const { db: recording, sent } = recordingQueries(t.db);
    expect(
      await searchCustomers(recording, 'customerName', 'ulkwalk', second, { many: true, walkWindow: 40 }),
    ).toEqual(rest);
    // two windows, and between them the read of the first one's last entry
    expect(sent.filter((sql) => /LIMIT \$\d+\) w/.test(sql))).toHaveLength(2);
    expect(sent.filter((sql) => /limit \$\d+ offset \$\d+$/.test(sql))).toHaveLength(1);
    expect(sent.some((sql) => sql.includes('translate('))).toBe(false);
  });

  it('pages a name prefix through every match, by name then uid, with no cap', async () => {
    const pages = await allPages({ customerName: 'Ma' });
    expect(pages.map((p) => p.Data.length)).toEqual([50, 50, 50, 50, MANY - 200]);
    expect(pages.every((p) => !p.Capped && p.Total === MANY)).toBe(true);
    const rows = pages.flatMap((p) => p.Data);
    expect(new Set(rows.map((c) => c.Uid)).size).toBe(MANY);
    expectOrdered(rows.map((c) => [c.FullName.toLowerCase(), c.Uid]));
  });

  it('finds by exact UID, any case, and refuses what is not a UID', async () => {
    expect((await search({ uid: ada })).body).toMatchObject({
      Data: [{ Uid: ada }],
      Total: 1,
      NextCursor: '',
    });
    expect((await search({ uid: ada.toUpperCase() })).body.Data[0]!.Uid).toBe(ada);
    expect((await search({ uid: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    const bad = await search({ uid: ada.slice(0, 8) });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({
      ErrorCode: 900,
      FieldErrors: [{ Field: 'uid', Message: SEARCH_MESSAGES.badUid }],
    });
  });

  it('finds by phone number, exact or prefix, whatever separators either side was written with', async () => {
    const intl = await insertCustomer(t.db, {
      first: 'Phone',
      last: 'Abroad',
      email: 'abroad@phone.example',
      phone: '+44 (20) 7946-0958',
    });
    // No match is a 404 (927) without Data.
    const uids = async (phone: string) => {
      const r = await search({ phone });
      return (r.status === 200 ? r.body.Data : []).map((c: { Uid: string }) => c.Uid);
    };
    expect(await uids('0123456789')).toEqual([ada]);
    expect(await uids('012-345')).toEqual([ada]);
    expect(await uids(' (012) 345 6789 ')).toEqual([ada]);
    expect(await uids('+442079460958')).toEqual([intl]);
    expect(await uids('+44 20')).toEqual([intl]);
    expect(await uids('4420')).toEqual([]); // without its '+', another number
    expect(await uids('01234567890')).toEqual([]);
    const bad = await search({ phone: 'call me' });
    expect(bad.status).toBe(400);
    expect(bad.error.FieldErrors).toEqual([{ Field: 'phone', Message: SEARCH_MESSAGES.badPhone }]);
  });

  it('pages phone numbers by number, then uid', async () => {
    for (let i = 0; i < 55; i++)
      await insertCustomer(t.db, {
        first: 'Dial',
        last: `${i}`,
        email: `dial${i}@phone.example`,
        phone: `55501${String(i % 60).padStart(5, '0')}`,
      });
    const pages = await allPages({ phone: '55501' });
    const rows = pages.flatMap((p) => p.Data);
    expect(pages[0]!.Total).toBe(55);
    expect(new Set(rows.map((c) => c.Uid)).size).toBe(55);
    expect(rows.map((c) => c.FullName)).toEqual(Array.from({ length: 55 }, (_, i) => `Dial ${i}`));
  });

  it('refuses a term that is too long', async () => {
    const r = await search({ customerName: 'a'.repeat(321) });
    expect(r.status).toBe(400);
    expect(r.error).toMatchObject({ ErrorCode: 900, Description: 'The search term is too long.' });
  });

  it('finds a customer by either address and lists them once, at the first address that matches', async () => {
    const dual = await insertCustomer(t.db, {
      first: 'Dual',
      last: 'Address',
      email: 'dualaddr.b@example.com',
    });
    const other = await insertCustomer(t.db, {
      first: 'Dual',
      last: 'Other',
      email: 'dualaddr.ab@example.com',
    });
    await t.db.query("UPDATE customers SET auth_email = 'DualAddr.A@example.com' WHERE uid = $1", [dual]);
    const uids = async (term: string) =>
      ((await search({ emailid: term })).body as SearchAnswer).Data.map((c) => c.Uid);
    expect(await uids('dualaddr.a@')).toEqual([dual]); // the sign-in email
    expect(await uids('dualaddr.b')).toEqual([dual]); // the email
    // 'dualaddr.a@' < 'dualaddr.ab@' < 'dualaddr.b@': listed at its first address, once
    expect(await uids('dualaddr')).toEqual([dual, other]);
    // a page that ends between the customer's two addresses does not list them again
    const pages: string[] = [];
    let after: Awaited<ReturnType<typeof searchCustomers>>['next'];
    do {
      const page = await searchCustomers(t.db, 'emailid', 'dualaddr', after, { pageSize: 1 });
      pages.push(...page.rows.map((r) => r.uid));
      after = page.next;
    } while (after);
    expect(pages).toEqual([dual, other]);
  });

  it('counts an email prefix over its byte range, past ASCII and to the top code point', async () => {
    expect(prefixEnd('zuza')).toBe('zuzb');
    expect(prefixEnd('a\u{10ffff}')).toBe('b');
    expect(prefixEnd('x\ud7ff')).toBe('x\ue000'); // over the surrogates
    expect(prefixEnd('\u{10ffff}')).toBeUndefined();
    const made = [
      'zoë.a@umlaut.example',
      'zoë.b@umlaut.example',
      'zoëy@umlaut.example',
      'zoe@umlaut.example',
    ];
    for (const email of made) await insertCustomer(t.db, { first: 'Umlaut', last: 'Zoe', email });
    // a full page (2 here) asks for the count: exactly the three that start with 'zoë'
    const page = await searchCounted(t.db, 'emailid', 'ZOË', undefined, SEARCH_COUNT_LIMIT, { pageSize: 2 });
    expect(page.count).toEqual({ total: 3, capped: false });
    expect(await countMatches(t.db, 'emailid', 'zoë.', 10)).toEqual({ total: 2, capped: false });
    expect(await countMatches(t.db, 'emailid', 'zoë', 2)).toEqual({ total: 2, capped: true });
  });

  it('runs an unscoped email page, its count and a later name page prepared, and walks a prefix of top code points', async () => {
    // the byte range's statements do not depend on the term: one plan per connection serves all
    for (const x of ['a', 'b', 'c'])
      await insertCustomer(t.db, { first: 'Prepared', last: 'Walk', email: `prepwalk.${x}@example.com` });
    const { db: recording, sent } = recordingQueries(t.db);
    const first = await searchCounted(recording, 'emailid', 'prepwalk', undefined, SEARCH_COUNT_LIMIT, {
      pageSize: 2,
    });
    expect(first.count).toEqual({ total: 3, capped: false });
    await searchCustomers(recording, 'emailid', 'prepwalk', first.next, { pageSize: 2 });
    await searchCounted(recording, 'emailid', 'prepwalk.b', undefined, SEARCH_COUNT_LIMIT, { pageSize: 1 });
    expect(sent).toHaveLength(4); // the last page is not full: no count
    expect(sent.filter((q) => preparedName(q) === undefined)).toEqual([]);
    expect(new Set(sent).size).toBe(3); // first page, its count, a later page: three texts for all terms
    // a name's later page walks its prefix the same way
    const firstName = await searchCustomers(t.db, 'customerName', 'pr', undefined, { pageSize: 1 });
    const names = recordingQueries(t.db);
    await searchCustomers(names.db, 'customerName', 'pr', firstName.next, { pageSize: 1 });
    expect(names.sent).toHaveLength(1);
    expect(preparedName(names.sent[0]!)).toBeDefined();
    // without an end to the range (every character at the top), everything from the prefix on
    const top = '\u{10ffff}\u{10ffff}';
    await insertCustomer(t.db, { first: 'Top', last: 'Points', email: `${top}a@top.example` });
    await insertCustomer(t.db, { first: 'Top', last: 'Points', email: `${top}b@top.example` });
    const page = await searchCounted(t.db, 'emailid', top, undefined, SEARCH_COUNT_LIMIT, { pageSize: 1 });
    expect(page.count).toEqual({ total: 2, capped: false });
    const next = await searchCustomers(t.db, 'emailid', top, page.next, { pageSize: 1 });
    expect([...page.rows, ...next.rows].map((r) => r.email)).toEqual([
      `${top}a@top.example`,
      `${top}b@top.example`,
    ]);
    expect((await search({ emailid: '\u{10ffff}' })).body.Data).toHaveLength(2);
  });

  it("plans its prepared prefix statements on their indexes, whatever the term (a prepared statement's generic plan)", async () => {
    const { db: recording, sent, params: sentParams } = recordingQueries(t.db);
    for (const x of ['a', 'b', 'c'])
      await insertCustomer(t.db, {
        first: 'Genplan',
        last: x,
        email: `genplan.${x}@example.com`,
        phone: `+44 55 0${x.charCodeAt(0)}`,
      });
    for (const [criterion, term] of [
      ['emailid', 'genplan'],
      ['phone', '+44 55'],
      ['customerName', 'ge'],
    ] as const) {
      const first = await searchCounted(recording, criterion, term, undefined, SEARCH_COUNT_LIMIT, {
        pageSize: 1,
      });
      await searchCustomers(recording, criterion, term, first.next, { pageSize: 1 });
    }
    const made = sent
      .map((sql, i) => [sql, sentParams[i]!] as const)
      .filter(([sql]) => preparedName(sql) !== undefined);
    expect(made).toHaveLength(7); // email and phone: first page, count, second page; a name's second page
    // generic plans only, and a sequential scan priced out: one is left only where no index fits
    await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await tx.query('SET LOCAL enable_seqscan = off');
      for (const [i, [sql, params]] of made.entries()) {
        await tx.query(`PREPARE generic_${i} AS ${sql}`);
        const args = params.map((v) => `'${String(v).replaceAll("'", "''")}'`).join(', ');
        const plan = (await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE generic_${i}(${args})`)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(plan, sql).not.toMatch(/Seq Scan on (customers|customer_addresses)/);
        await tx.query(`DEALLOCATE generic_${i}`);
      }
    });
  });

  it('pages an email prefix by email', async () => {
    const pages = await allPages({ emailid: 'MANY' });
    expect(pages[0]).toMatchObject({ Total: MANY, Capped: false });
    const emails = pages.flatMap((p) => p.Data.map((c) => c.Email.toLowerCase()));
    expect(emails).toHaveLength(MANY);
    expect(emails).toEqual([...emails].sort());
    expect(new Set(emails).size).toBe(emails.length);
  });

  it('a cursor keeps its place when customers are added before it', async () => {
    const first = (await search({ customerName: 'ma' })).body as SearchAnswer;
    await insertCustomer(t.db, { first: 'Maa', last: 'Early', email: 'maa.early@example.com' });
    const second = (await search({ customerName: 'ma', cursor: first.NextCursor })).body as SearchAnswer;
    const firstUids = new Set(first.Data.map((c) => c.Uid));
    expect(second.Data.filter((c) => firstUids.has(c.Uid))).toEqual([]);
    expect(second.Data[0]!.FullName > first.Data.at(-1)!.FullName).toBe(true);
    expect((await search({ customerName: 'maa' })).body.Data).toHaveLength(1); // it was added
  });

  it('answers a page past the last match with no customers rather than 927', async () => {
    const past = cursorOf(['customerName', 2, 'zzzz', ada, 10, false]);
    const r = await search({ customerName: 'ma', cursor: past });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Data: [], NextCursor: '' });
    const byKey = await search({ apikey: site.apiKey });
    expect(byKey.body).toMatchObject({ Data: [expect.objectContaining({ Uid: ada })], NextCursor: '' });
    const afterAda = cursorOf(['apikey', 0, 'ada lovelace', ada, 1, false]);
    expect((await search({ apikey: site.apiKey, cursor: afterAda })).body).toMatchObject({ Data: [] });
  });

  it('refuses a cursor that is not one, or is from another kind of search', async () => {
    const fromEmail = (await search({ emailid: 'many' })).body.NextCursor as string;
    const forged = [
      cursorOf(['customerName', 1, 'x', 'not-a-uid', 5, false]),
      cursorOf(['customerName', 3, 'x', ada, 5, false]), // no such tier
      cursorOf(['customerName', 1, 'x', ada, SEARCH_COUNT_LIMIT + 1, false]),
      cursorOf(['customerName', 'x', ada]), // the old shape
    ];
    for (const cursor of ['garbage', fromEmail, ...forged, 'x'.repeat(2001)]) {
      const r = await search({ customerName: 'ma', cursor });
      expect(r.status).toBe(400);
      expect(r.error).toMatchObject({ ErrorCode: 900, Description: SEARCH_MESSAGES.badCursor });
    }
    expect((await search({ emailid: 'many', cursor: fromEmail })).status).toBe(200);
  });

  it('pages through every owner of the matching sites once, however many of their sites match', async () => {
    // 3 owners of 402 matching sites each a third, and 230 owners of one to three 'fleetsite-'
    // sites each (and a site that does not match): more owners than a site-name search once
    // looked at (the owners of its first 200 sites).
    const bulk = [];
    for (let i = 0; i < 3; i++)
      bulk.push(
        await insertCustomer(t.db, {
          first: `Owner${i}`,
          last: 'Bulk',
          email: `owner${i}@bulk-sites.example`,
        }),
      );
    for (let i = 0; i < 402; i++) await insertSite(t.db, { owner: bulk[i % 3]!, name: `bulkshop-${i}` });
    const fleet: string[] = [];
    for (let i = 0; i < 230; i++) {
      const owner = await insertCustomer(t.db, {
        first: `Fleet${String(i % 7)}`,
        last: `Owner${String(i).padStart(3, '0')}`,
        email: `fleet${i}@fleet-sites.example`,
      });
      fleet.push(owner);
      for (let j = 0; j <= i % 3; j++) await insertSite(t.db, { owner, name: `fleetsite-${i}-${j}` });
    }
    await insertSite(t.db, { owner: fleet[0]!, name: 'fleet-other' });

    const pages = await allPages({ sitename: 'fleetsite' });
    const got = pages.flatMap((p) => p.Data.map((c) => c.Uid));
    const keys = await keysOf(fleet);
    expect(got).toEqual(inOrder(keys, 'name'));
    for (const p of pages) expect([p.Total, p.Capped, p.Limit]).toEqual([230, false, SEARCH_COUNT_LIMIT]);
    const bulkPage = (await search({ sitename: 'bulkshop' })).body;
    expect(bulkPage.Data.map((c: { Uid: string }) => c.Uid).sort()).toEqual([...bulk].sort());
    expect(bulkPage).toMatchObject({ Total: 3, Capped: false, NextCursor: '' });

    // Counted exactly up to the limit, then capped; three owners of 402 sites are three, past
    // the sites a count reads first.
    expect(await countMatches(t.db, 'sitename', 'fleetsite', 229)).toEqual({ total: 229, capped: true });
    expect(await countMatches(t.db, 'sitename', 'fleetsite', 230)).toEqual({ total: 230, capped: false });
    expect(await countMatches(t.db, 'sitename', 'bulkshop', 20)).toEqual({ total: 3, capped: false });
    // bulkshop-40, -400 and -401: two owners
    expect((await search({ sitename: 'bulkshop-40' })).body).toMatchObject({ Total: 2, Capped: false });

    // The walk of the owners' name btree (as when more than the limit match), with windows too
    // small to fill a page (the sort takes over), answers the same pages.
    const name = { key: 'name' as const, descending: false };
    for (const walkWindow of [undefined, 7, 1]) {
      let after: SearchPosition | undefined;
      const walked: string[] = [];
      do {
        const page = await searchCustomers(t.db, 'sitename', 'fleetsite', after, { many: true, walkWindow });
        walked.push(...page.rows.map((r) => r.uid));
        after = page.next;
      } while (after);
      expect(walked, String(walkWindow)).toEqual(got);
    }
    const sorted = await searchCustomers(t.db, 'sitename', 'fleetsite', undefined, { sort: name });
    expect(sorted.rows.map((r) => r.uid)).toEqual(got.slice(0, SEARCH_PAGE_SIZE));
  });

  it('keeps a site-name search in step with renamed sites, renamed owners and moved sites', async () => {
    const a = await insertCustomer(t.db, { first: 'Zed', last: 'Keeper', email: 'zed@keeper.example' });
    const b = await insertCustomer(t.db, { first: 'Amy', last: 'Keeper', email: 'amy@keeper.example' });
    const { appId } = await insertSite(t.db, { owner: a, name: 'keeperhub-1' });
    await insertSite(t.db, { owner: b, name: 'keeperhub-2' });
    const uids = async (term: string, sort?: string) =>
      ((await search({ sitename: term, ...(sort ? { sort } : {}) })).body.Data ?? []).map(
        (c: { Uid: string }) => c.Uid,
      );
    expect(await uids('keeperhub')).toEqual([b, a]);
    // the owner renamed: the order follows
    await t.db.query("UPDATE customers SET first_name = 'Abe', modified_at = now() WHERE uid = $1", [a]);
    expect(await uids('keeperhub')).toEqual([a, b]);
    expect(await uids('keeperhub', '-modified')).toEqual([a, b]);
    // the site renamed, then moved to the other owner
    await t.db.query("UPDATE sites SET app_name = 'renamedhub-1' WHERE app_id = $1", [appId]);
    expect(await uids('keeperhub')).toEqual([b]);
    expect(await uids('renamedhub')).toEqual([a]);
    await t.db.query('UPDATE sites SET owner_uid = $2 WHERE app_id = $1', [appId, b]);
    expect(await uids('renamedhub')).toEqual([b]);
    await t.db.query('DELETE FROM sites WHERE app_id = $1', [appId]);
    expect((await search({ sitename: 'renamedhub' })).status).toBe(404);

    // Were an owner's sites ever to carry different keys (here b's second site, as if b were still
    // named 'zzz' and created in 2001), with another owner between them, the pages would still
    // move on.
    const c = await insertCustomer(t.db, { first: 'Carl', last: 'Keeper', email: 'carl@keeper.example' });
    await insertSite(t.db, { owner: c, name: 'keeperhub-4' });
    const { appId: second } = await insertSite(t.db, { owner: b, name: 'keeperhub-3' });
    await t.db.query("UPDATE site_owner_keys SET k = 'zzz', created_at = '2001-01-01Z' WHERE app_id = $1", [
      second,
    ]);
    for (const sort of [undefined, ...SORTS]) {
      const o = sort ? { key: sort.replace('-', '') as 'name', descending: sort.startsWith('-') } : undefined;
      const seen: string[] = [];
      let after: SearchPosition | undefined;
      for (let i = 0; i < 5; i++) {
        const page = await searchCustomers(t.db, 'sitename', 'keeperhub', after, { pageSize: 1, sort: o });
        seen.push(...page.rows.map((r) => r.uid));
        after = page.next;
        if (!after) break;
      }
      expect(after, String(sort)).toBeUndefined();
      expect(new Set(seen), String(sort)).toEqual(new Set([b, c]));
    }
  });

  it('matches site-name substrings across dashes exactly', async () => {
    const dash = await insertCustomer(t.db, { first: 'Dash', last: 'Owner', email: 'dash@sites.example' });
    const q = await insertCustomer(t.db, { first: 'Queue', last: 'Owner', email: 'queue@sites.example' });
    await insertSite(t.db, { owner: dash, name: 'block-cloud-7' });
    await insertSite(t.db, { owner: q, name: 'blockqcloud-7' }); // the index reads '-' as 'q'
    const uids = async (term: string) =>
      ((await search({ sitename: term })).body.Data ?? []).map((c: { Uid: string }) => c.Uid);
    expect(await uids('k-clo')).toEqual([dash]);
    expect(await uids('kqclo')).toEqual([q]);
    expect(await uids('BLOCK-CLOUD-7')).toEqual([dash]);
    // No site name holds a dot or a space, or is 64 characters long: no match, and no query (a
    // term without a letter or digit would read every entry of the trigram index).
    const { db: recording, sent } = recordingQueries(t.db);
    for (const term of ['...', 'block cloud', 'k.c', 'b'.repeat(64)]) {
      expect((await search({ sitename: term })).status, term).toBe(404);
      expect(await searchCounted(recording, 'sitename', term), term).toEqual({
        rows: [],
        next: undefined,
        count: { total: 0, capped: false },
      });
    }
    expect(sent).toEqual([]);
  });

  it('answers 927 with the spec message when nothing matches', async () => {
    const r = await search({ customerName: 'zzzqqq' });
    expect(r.status).toBe(404);
    expect(r.error).toMatchObject({ ErrorCode: 927, Description: MESSAGES.searchNotFound });
  });

  it('takes exactly one criterion', async () => {
    expect((await search({ customerName: 'ada', emailid: 'ada' })).error.Description).toBe(
      SEARCH_MESSAGES.oneCriterion,
    );
    expect((await search({})).error.Description).toBe(SEARCH_MESSAGES.noCriterion);
    expect((await search({ customerName: '   ' })).error.Description).toBe(SEARCH_MESSAGES.noCriterion);
  });
});

const SORTS = ['name', '-name', 'created', '-created', 'modified', '-modified'] as const;
const SORT_MESSAGE = 'sort must be one of name, -name, created, -created, modified, -modified.';
interface Keys {
  uid: string;
  name: string;
  created: string;
  modified: string;
}
/** The sort keys of these customers, as the database holds them (microseconds kept). */
async function keysOf(uids: string[]): Promise<Map<string, Keys>> {
  const micro = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;
  const r = await t.db.query<Keys>(
    `SELECT uid::text AS uid, lower(first_name) || ' ' || lower(last_name) AS name,
       ${micro('created_at')} AS created, ${micro('modified_at')} AS modified
     FROM customers WHERE uid = ANY($1::uuid[])`,
    [uids],
  );
  return new Map(r.rows.map((k) => [k.uid, k]));
}
/** The uids in the order of `sort`: its key in byte order (ASCII here), then uid; reversed for '-'. */
function inOrder(keys: Map<string, Keys>, sort: (typeof SORTS)[number]): string[] {
  const key = sort.replace('-', '') as 'name' | 'created' | 'modified';
  const cmp = (a: Keys, b: Keys) =>
    a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
  const out = [...keys.values()].sort(cmp).map((k) => k.uid);
  return sort.startsWith('-') ? out.reverse() : out;
}
const exportOf = (query: Record<string, string>, session = s) =>
  t.call('searchCustomerExport', { session, query });
const EXPORT_HEADER = 'Uid,Customer Name,Email,Status,Role,Created Date,Modified Date';

describe('GET /admin/searchcustomer: sort', () => {
  // Many: sorted matches; Ma: a name prefix (the name btree's range by name); ulkwalk and the
  // walk@ addresses: more than SEARCH_COUNT_LIMIT, so pages walk the sort key's index.
  const queries: Array<Record<string, string>> = [
    { customerName: 'mithso' },
    { customerName: 'Ma' },
    { customerName: 'ulkwalk' },
    { emailid: 'many' },
    { emailid: 'walk' },
    { phone: '55501' },
    { sitename: 'bulkshop' },
    { sitename: 'fleetsite' },
  ];
  beforeAll(async () => {
    // Created and modified dates with ties (then uid decides) and microseconds apart.
    await t.db.query(
      `UPDATE customers SET
         created_at = timestamptz '2026-01-01T00:00:00Z' + (abs(hashtext(uid::text)) % 17) * interval '1 hour'
           + (abs(hashtext(email)) % 3) * interval '1 microsecond',
         modified_at = timestamptz '2026-03-01T00:00:00Z' - (abs(hashtext(email)) % 13) * interval '1 minute'
       WHERE uid <> $1`,
      [ada],
    );
  });

  it('orders every criterion by name, created and modified, both ways, through every page once', async () => {
    for (const q of queries) {
      const plain = await allPages(q);
      const uids = plain.flatMap((p) => p.Data.map((c) => c.Uid));
      expect(uids.length, JSON.stringify(q)).toBeGreaterThan(2);
      const keys = await keysOf(uids);
      for (const sort of SORTS) {
        const pages = await allPages({ ...q, sort });
        const got = pages.flatMap((p) => p.Data.map((c) => c.Uid));
        expect(got, `${JSON.stringify(q)} ${sort}`).toEqual(inOrder(keys, sort));
        // the count is the search's, on every page
        for (const p of pages)
          expect([p.Total, p.Capped, p.Limit]).toEqual([plain[0]!.Total, plain[0]!.Capped, plain[0]!.Limit]);
      }
    }
  });

  it('without sort keeps the rank order; the walk, its fallback and the sort answer the same pages', async () => {
    expect((await search({ customerName: 'johan rankle', sort: '' })).body.Data).toEqual(
      (await search({ customerName: 'johan rankle' })).body.Data,
    );
    // found by their sign-in email alone, first by created and by -modified: a walk must test it
    const bySignIn = await insertCustomer(t.db, {
      first: 'Signin',
      last: 'Only',
      email: 'other@signin.example',
      at: new Date('2001-01-01T00:00:00Z'),
    });
    await t.db.query(
      "UPDATE customers SET auth_email = 'WalkBy@signin.example', modified_at = '2099-01-01Z' WHERE uid = $1",
      [bySignIn],
    );
    // A few thousand matches (here 1,042) are sorted without a walk: a window in time order
    // would not fill a page at 1M. With the bound at 0 the walk runs.
    const { db: recording, sent } = recordingQueries(t.db);
    const created = { sort: { key: 'created' as const, descending: false } };
    const walks = () => sent.filter((sql) => /LIMIT \$\d+\) w\s/.test(sql)).length;
    await searchCustomers(recording, 'emailid', 'walk', undefined, { ...created, many: true });
    expect(walks()).toBe(0);
    expect(sent.some((sql) => sql.includes('WITH m AS MATERIALIZED'))).toBe(true);
    await searchCustomers(recording, 'emailid', 'walk', undefined, { ...created, many: true, walkMin: 0 });
    expect(walks()).toBe(1);
    for (const sort of ['created', '-modified']) {
      const o = { sort: { key: sort.replace('-', '') as 'created', descending: sort.startsWith('-') } };
      const walked = await searchCustomers(t.db, 'emailid', 'walk', undefined, {
        ...o,
        many: true,
        walkMin: 0,
      });
      expect(walked.rows[0]!.uid, sort).toBe(bySignIn);
    }
    for (const sort of SORTS) {
      const o = { sort: { key: sort.replace('-', '') as 'name', descending: sort.startsWith('-') } };
      for (const [criterion, term] of [
        ['customerName', 'ulkwalk'],
        ['emailid', 'walk'],
        ['sitename', 'fleetsite'],
      ] as const) {
        const sorted = await searchCustomers(t.db, criterion, term, undefined, { ...o, many: false });
        expect(
          await searchCustomers(t.db, criterion, term, undefined, { ...o, many: true, walkMin: 0 }),
        ).toEqual(sorted);
        expect(
          await searchCustomers(t.db, criterion, term, undefined, {
            ...o,
            many: true,
            walkMin: 0,
            walkWindow: 5,
          }),
        ).toEqual(sorted);
        const rest = await searchCustomers(t.db, criterion, term, sorted.next, { ...o, many: false });
        expect(
          await searchCustomers(t.db, criterion, term, sorted.next, {
            ...o,
            many: true,
            walkMin: 0,
            walkWindow: 3,
          }),
        ).toEqual(rest);
        expect(rest.rows[0]!.uid).not.toBe(sorted.rows.at(-1)!.uid);
      }
    }
  });

  it('refuses a cursor of another sort or criterion, and a forged sort key', async () => {
    const created = (await search({ customerName: 'mithso', sort: 'created' })).body.NextCursor as string;
    const plain = (await search({ customerName: 'mithso' })).body.NextCursor as string;
    expect(created).not.toBe('');
    const wrong: Array<Record<string, string>> = [
      { customerName: 'mithso', sort: '-created', cursor: created },
      { customerName: 'mithso', sort: 'name', cursor: created },
      { customerName: 'mithso', cursor: created },
      { emailid: 'mithso', sort: 'created', cursor: created },
      { customerName: 'mithso', sort: 'created', cursor: plain },
      {
        customerName: 'mithso',
        sort: 'created',
        cursor: cursorOf(['customerName', 0, '2026-13-01 nonsense', ada, 10, false, 'created']),
      },
      {
        customerName: 'mithso',
        sort: 'name',
        cursor: cursorOf(['customerName', 2, 'many1 smithson', ada, 10, false, 'name']), // a tier under a sort
      },
    ];
    for (const q of wrong) {
      const r = await search(q);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(r.error).toMatchObject({ ErrorCode: 900, Description: SEARCH_MESSAGES.badCursor });
    }
    expect((await search({ customerName: 'mithso', sort: 'created', cursor: created })).status).toBe(200);
  });

  it('refuses a sort the list does not have, with the contract message', async () => {
    for (const sort of ['email', '--name', 'Name', 'name ', 'x'.repeat(41)]) {
      for (const call of [search, exportOf]) {
        const r = await call({ customerName: 'mithso', sort });
        expect(r.status, sort).toBe(400);
        expect(r.error.FieldErrors).toEqual([{ Field: 'sort', Message: SORT_MESSAGE }]);
      }
    }
  });
});

describe('GET /admin/searchcustomer/export', () => {
  const linesOf = (body: string) => body.split('\r\n').slice(0, -1);

  it('answers the concatenated pages of the same query and sort as CSV, with x-export-rows', async () => {
    // ulkwalk and walk@ match more than an export's batch (2,000 rows): the file is read in
    // batches of the matches' uids, sorted once, and must still be the list's pages joined.
    const cases: Array<Record<string, string>> = [
      { customerName: 'ulkwalk', sort: '-created' },
      { customerName: 'ulkwalk', sort: 'name' },
      { customerName: 'ulkwalk', sort: '-modified' },
      { customerName: 'ulkwalk' },
      { customerName: 'mithso' },
      { customerName: 'Ma' },
      { customerName: 'Ma', sort: '-name' },
      { customerName: 'johan rankle' },
      { emailid: 'walk', sort: 'name' },
      { emailid: 'walk', sort: '-created' },
      { phone: '55501', sort: 'modified' },
      { sitename: 'bulkshop', sort: '-modified' },
      { uid: ada },
    ];
    for (const q of cases) {
      const pages = await allPages(q);
      const rows = pages.flatMap((p) => p.Data) as unknown as Array<Record<string, string>>;
      const r = await exportOf(q);
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe('text/csv; charset=utf-8');
      const criterion = Object.keys(q).find((k) => k !== 'sort')!;
      expect(r.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="customers-${criterion}-\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z\\.csv"$`),
      );
      expect(r.headers['x-export-rows']).toBe(String(rows.length));
      const lines = linesOf(r.raw.body);
      expect(lines[0]).toBe(EXPORT_HEADER);
      expect(lines.slice(1), JSON.stringify(q)).toEqual(
        rows.map((c) =>
          [c.Uid, c.FullName, c.Email, c.Status, c.Role, c.CreatedDate, c.ModifiedDate].join(','),
        ),
      );
    }
  });

  it('escapes names a spreadsheet would run as formulas, and records the export without its term', async () => {
    const made = [
      await insertCustomer(t.db, {
        first: '=HYPERLINK("https://evil.example")',
        last: 'Formulaic',
        email: 'f1@formula.example',
      }),
      await insertCustomer(t.db, { first: '@SUM(A1)', last: 'Formulaic', email: 'f2@formula.example' }),
      await insertCustomer(t.db, { first: '-2+3', last: 'Formulaic, Jr', email: 'f3@formula.example' }),
    ];
    const r = await exportOf({ customerName: 'formulaic', sort: 'name' });
    expect(r.headers['x-export-rows']).toBe('3');
    const lines = linesOf(r.raw.body);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe(
      `${made[2]},"'-2+3 Formulaic, Jr",f3@formula.example,Active,Owner,2026-01-10T09:00:00.000Z,2026-01-10T09:00:00.000Z`,
    );
    expect(lines[2]).toContain(`,"'=HYPERLINK(""https://evil.example"") Formulaic",`);
    expect(lines[3]).toContain(`,'@SUM(A1) Formulaic,`);
    const trail = await t.db.query<{ details: Record<string, unknown>; actor_email: string }>(
      `SELECT details, actor_email FROM activity_log WHERE action = 'customers.export' ORDER BY id DESC LIMIT 1`,
    );
    expect(trail.rows[0]).toEqual({
      details: { criterion: 'customerName', sort: 'name', rows: 3 },
      actor_email: 'support@example.com',
    });
    expect(JSON.stringify(trail.rows[0])).not.toContain('formulaic');
  });

  it('refuses a caller without search access, and a search with no criterion', async () => {
    await t.addStaff('auditor@example.com', ['Auditor']);
    const auditor = await t.login('auditor@example.com');
    expect((await exportOf({ customerName: 'mithso' }, auditor)).status).toBe(403);
    expect((await exportOf({})).error.Description).toBe(SEARCH_MESSAGES.noCriterion);
  });

  it('runs two exports at once and turns a third away until one ends', async () => {
    const open = (query: Record<string, string>) => t.stream('searchCustomerExport', { session: s, query });
    const first = await open({ customerName: 'ulkwalk', sort: 'created' });
    const second = await open({ emailid: 'walk' });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const third = await exportOf({ customerName: 'mithso' });
    expect(third.status).toBe(429);
    expect(third.error).toMatchObject({ ErrorCode: 979, Description: SEARCH_MESSAGES.exportBusy });
    // reading one to its end frees its place
    const chunks: Buffer[] = [];
    for await (const chunk of first.stream()) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString('utf8').split('\r\n').length).toBe(
      Number(first.headers['x-export-rows']) + 2,
    );
    expect((await exportOf({ customerName: 'mithso' })).status).toBe(200);
    // The client goes away mid-file: its body is destroyed, which gives back its place and its
    // snapshot's connection (the database's close at the end would wait for that connection).
    second.raw.res.destroy();
  });
});

describe('customer reads', () => {
  it('customerprofilebyuid answers the profile fields of spec section 3', async () => {
    const r = await get('customerProfile', { uid: ada });
    expect(r.body.Data).toMatchObject({
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
    const r = await get('userProfile', { uid: ada });
    expect(r.body.Data).toMatchObject({
      LastLoginDate: '2026-01-14T08:00:00.000Z',
      OwnedSites: 1,
      SharedSites: 1,
    });
    const logins = await get('loginSessions', { uid: ada });
    expect(logins.body.Data[0]).toEqual({
      AccessType: 'API',
      Browser: 'curl/8.5',
      ClientAddress: '198.51.100.4',
      Location: 'Dublin, IE',
      LoginDate: '2026-01-14T08:00:00.000Z',
    });
  });

  it('answers a clear 404 for an unknown uid and 400 for a malformed one', async () => {
    const unknown = await get('customerProfile', { uid: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(unknown.error.Description).toBe('There is no customer with that uid.');
    expect((await get('customerProfile', { uid: 'nope' })).status).toBe(400);
  });

  it('activitylogs pages newest first with a cursor', async () => {
    for (let i = 0; i < 45; i++) {
      await recordEvent(t.db, {
        at: new Date(Date.UTC(2026, 0, 1, 0, i)),
        action: 'team.create',
        actorEmail: 'support@example.com',
        targetType: 'customer',
        targetId: ada,
        details: { n: i },
      });
    }
    const first = await get('activityLogs', { uid: ada });
    expect(first.body.Data).toHaveLength(20);
    expect(first.body.Data[0]!.Details).toEqual({ n: 44 });
    const second = await get('activityLogs', { uid: ada, cursor: first.body.NextCursor });
    expect(second.body.Data[0]!.Details).toEqual({ n: 24 });
    const third = await get('activityLogs', { uid: ada, cursor: second.body.NextCursor });
    expect(third.body.Data).toHaveLength(5);
    expect(third.body.NextCursor).toBe(0);
    expect((await get('activityLogs', { uid: ada, cursor: -1 })).status).toBe(400);
  });
});

describe('sites', () => {
  it('apps, sharedapps and allapps', async () => {
    const owned = (await get('customerApps', { uid: ada })).body.Data;
    expect(owned).toEqual([
      expect.objectContaining({
        appId: site.appId,
        AppName: 'analytical-engine',
        ApiKey: site.apiKey,
        uid: ada,
        Role: 'Owner',
      }),
    ]);
    const sharedList = (await get('sharedApps', { uid: ada })).body.Data;
    expect(sharedList).toEqual([
      expect.objectContaining({
        AppName: 'cobol-compiler',
        ApiKey: shared.apiKey,
        uid: grace,
        Role: 'Developer',
      }),
    ]);
    const all = (await get('customerAllApps', { uid: ada })).body.Data.map(
      (x: { AppName: string }) => x.AppName,
    );
    expect(all).toEqual(['analytical-engine', 'cobol-compiler']);
  });

  it('appinfobyid masks the custom connection string and never sends it whole', async () => {
    const r = await get('appInfoById', { uId: ada, appId: site.appId });
    const info = r.body.Data;
    expect(info.Database).toEqual({
      Name: 'analytical-engine-db',
      Custom: true,
      ConnectionString: 'postgres://app_user:****@db.internal:5432/analytics?sslmode=require',
    });
    expect(r.raw.body).not.toContain('S3cretPass');
    expect(info).toMatchObject({
      Plan: 'Developer',
      PlanStatus: 'Trial',
      DataCenter: 'eu-central',
      DataCenterName: 'EU Central (Frankfurt)',
      OwnerEmail: 'Ada.Lovelace@Analytical.example',
    });
    const raw = await t.db.query<{ custom_db_conn: Buffer }>(
      'SELECT custom_db_conn FROM sites WHERE app_id = $1',
      [site.appId],
    );
    expect(Buffer.from(raw.rows[0]!.custom_db_conn).toString('latin1')).not.toContain('S3cretPass');
  });

  it('a site is reachable only through a customer who owns or shares it', async () => {
    expect((await get('appById', { uId: ada, appId: shared.appId })).body.Data.Role).toBe('Developer');
    const r = await get('appById', { uId: grace, appId: site.appId });
    expect(r.status).toBe(404);
    expect((await get('appById', { uId: ada, appId: 'x' })).error.Description).toBe(
      'appId must be a number.',
    );
  });

  it('site/datacenter, site/feature and site/basicsettings', async () => {
    const dc = (await get('siteDataCenter', { userId: ada, appId: site.appId })).body.Data;
    expect(dc.Current).toEqual({
      DataCenter: 'eu-central',
      GlobalServer: 'euc-shared-1',
      DbName: 'analytical-engine-db',
      CustomDb: true,
    });
    expect(dc.DataCenters.length).toBeGreaterThan(3);
    const f = (await get('siteFeature', { userId: ada, appId: site.appId })).body.Data;
    expect(f).toEqual({ appId: site.appId, Features: ['social-login', 'mfa'] });
    const b = (await get('siteBasicSettings', { uID: ada, appId: site.appId })).body.Data;
    expect(b).toMatchObject({
      AppName: 'analytical-engine',
      ProductionUrl: 'https://analytical-engine.example.com',
      Status: 'active',
    });
  });

  it('features and customer roles catalogues', async () => {
    const f = (await t.call('features', { session: s })).body.Data;
    expect(f.Features.map((x: { Key: string }) => x.Key)).toContain('mfa');
    expect(f.FeatureSets.map((x: { Name: string }) => x.Name)).toContain('Developer Premium');
    const roles = (await t.call('customerRoles', { session: s })).body.Data;
    expect(roles.find((r: { Name: string }) => r.Name === 'Analyst')!.Permissions).toMatchObject({
      ViewData: true,
      EditData: false,
    });
  });
});
