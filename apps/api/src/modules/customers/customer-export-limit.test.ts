import { CUSTOMER_EXPORT_COLUMNS, CUSTOMER_EXPORT_ROW_LIMIT, SEARCH_MESSAGES } from '@sac/contract/customers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

// A harness of its own: the limit needs more customers than any other search test wants to see.
let t: TestApp;
let s: { xtoken: string; xsign: string };

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('support@example.com', ['Support']);
  s = await t.login('support@example.com');
  // One more customer named Overflow than an export may hold; one statement, not 50,001 calls.
  await t.db.query(
    `INSERT INTO customers (uid, first_name, last_name, email, organization, phone, auth_email, contact_email,
       time_zone, created_at, modified_at)
     SELECT gen_random_uuid(), 'Many' || i, 'Overflow', 'overflow' || i || '@bulk.example', '', '',
       'overflow' || i || '@bulk.example', 'overflow' || i || '@bulk.example', 'Europe/London', now(), now()
     FROM generate_series(1, $1::int) AS i`,
    [CUSTOMER_EXPORT_ROW_LIMIT + 1],
  );
}, 120_000);
afterAll(() => t.close());

const exportOf = (query: Record<string, string>) => t.call('searchCustomerExport', { session: s, query });
const exportsInTrail = async () =>
  (
    await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM activity_log WHERE action = 'customers.export'`,
    )
  ).rows[0]!.n;

describe('the customer export limit', () => {
  it(`refuses a search matching more than ${CUSTOMER_EXPORT_ROW_LIMIT} customers, records nothing, and frees its place`, async () => {
    const queries: Array<Record<string, string>> = [
      { customerName: 'overflow' },
      { emailid: 'overflow' },
      { customerName: 'overflow', sort: 'name' },
    ];
    for (const q of queries) {
      const r = await exportOf(q);
      expect(r.status, JSON.stringify(q)).toBe(400);
      expect(r.error.Description).toBe(SEARCH_MESSAGES.exportTooMany);
      expect(r.headers['content-type']).toContain('application/json');
    }
    expect(await exportsInTrail()).toBe(0);
    // Three refusals in a row: none kept one of the two export places.
    const narrowed = await exportOf({ emailid: 'overflow1@bulk.example' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.headers['x-export-rows']).toBe('1');
  });

  it('exports a selection of such a search: the customers picked, found among its first matches', async () => {
    // the first two addresses of the email walk: it stops there
    const picked = (
      await t.db.query<{ uid: string }>(
        "SELECT uid FROM customers WHERE email IN ('overflow10000@bulk.example', 'overflow10001@bulk.example')",
      )
    ).rows.map((r) => r.uid);
    const r = await exportOf({ emailid: 'overflow', uids: picked.join(',') });
    expect(r.status).toBe(200);
    expect(r.headers['x-export-rows']).toBe('2');
    expect(r.raw.body.split('\r\n').filter((l) => l !== '')).toHaveLength(3);
  });

  it('answers a search matching nobody with the header alone', async () => {
    const r = await exportOf({ customerName: 'nobody-is-called-this' });
    expect(r.status).toBe(200);
    expect(r.headers['x-export-rows']).toBe('0');
    expect(r.raw.body).toBe(`${CUSTOMER_EXPORT_COLUMNS.join(',')}\r\n`);
  });
});
