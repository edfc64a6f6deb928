import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

// A harness of its own: more matches than an export's batch (2,000 rows), which other search tests
// would see in their counts.
const ROWS = 4_500;
let t: TestApp;
let s: { xtoken: string; xsign: string };

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('support@example.com', ['Support']);
  s = await t.login('support@example.com');
  // 'Batchly Pnnnn' (substring tier of 'atchl'), every tenth 'Atchley Pnnnn' (its prefix tier);
  // created and modified times with ties, which uid decides.
  await t.db.query(
    `INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
       time_zone, created_at, modified_at)
     SELECT gen_random_uuid(), CASE WHEN i % 10 = 0 THEN 'Atchley' ELSE 'Batchly' END, 'P' || lpad(i::text, 4, '0'),
       'batch' || i || '@bulk.example', '', '555' || lpad(i::text, 5, '0'), 'batch' || i || '@bulk.example',
       'batch' || i || '@bulk.example', 'Europe/London',
       timestamptz '2026-01-01T00:00:00Z' + (i % 17) * interval '1 hour',
       timestamptz '2026-03-01T00:00:00Z' - (i % 13) * interval '1 minute'
     FROM generate_series(1, $1::int) AS i`,
    [ROWS],
  );
}, 120_000);
afterAll(() => t.close());

/** The uids of every page of the list, as the console pages it. */
async function listed(query: Record<string, string>): Promise<string[]> {
  const uids: string[] = [];
  let cursor = '';
  do {
    const r = await t.call('searchCustomer', {
      session: s,
      query: { ...query, ...(cursor ? { cursor } : {}) },
    });
    expect(r.status).toBe(200);
    const body = r.body as { Data: Array<{ Uid: string }>; NextCursor: string };
    uids.push(...body.Data.map((c) => c.Uid));
    cursor = body.NextCursor;
  } while (cursor);
  return uids;
}

describe('an export of more matches than one batch', () => {
  it('is the list pages joined, every match once, in each list order', async () => {
    const cases: Array<Record<string, string>> = [
      { customerName: 'atchl' },
      { customerName: 'atchl', sort: 'name' },
      { customerName: 'atchl', sort: '-name' },
      { customerName: 'atchl', sort: 'created' },
      { customerName: 'atchl', sort: '-modified' },
      { emailid: 'batch', sort: '-created' },
      { phone: '555', sort: 'name' },
    ];
    for (const q of cases) {
      const uids = await listed(q);
      expect(uids.length, JSON.stringify(q)).toBe(ROWS);
      const r = await t.call('searchCustomerExport', { session: s, query: q });
      expect(r.status).toBe(200);
      expect(r.headers['x-export-rows']).toBe(String(ROWS));
      const lines = r.raw.body.split('\r\n').slice(1, -1);
      expect(
        lines.map((l) => l.split(',')[0]),
        JSON.stringify(q),
      ).toEqual(uids);
    }
  });
});
