import { EXPORT_SELECTION_UIDS_MAX } from '@sac/contract/bulk';
import { HEADERS } from '@sac/contract/constants';
import { CUSTOMER_EXPORT_COLUMNS } from '@sac/contract/customers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let s: S;
let east: S;
/** Five customers named Selectable, created an hour apart; the last one's site is in us-east. */
const uids: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('support@example.com', ['Support']);
  await t.db.query(
    `INSERT INTO roles (name, permissions, scope_data_centers, scope_plans)
     VALUES ('us-east-readers', '{customers.read}', '{us-east}', NULL)`,
  );
  await t.addStaff('east@example.com', ['us-east-readers']);
  s = await t.login('support@example.com');
  east = await t.login('east@example.com');
  for (let i = 0; i < 5; i++) {
    const uid = await insertCustomer(t.db, {
      first: `Sel${i}`,
      last: 'Selectable',
      email: `sel${i}@export-selection.example`,
      at: new Date(Date.UTC(2026, 0, 10, i)),
    });
    const { appId } = await insertSite(t.db, { owner: uid, name: `selsite-${i}` });
    if (i === 4) await t.db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [appId]);
    uids.push(uid);
  }
  await insertCustomer(t.db, { first: 'Other', last: 'Person', email: 'other@export-selection.example' });
});
afterAll(() => t.close());

const exportOf = (query: Record<string, string>, session = s) =>
  t.callLoose('searchCustomerExport', { session, query });
const lines = (body: string) => body.split('\r\n').filter((l) => l !== '');
const lastTrail = async () =>
  (
    await t.db.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM activity_log WHERE action = 'customers.export' ORDER BY id DESC LIMIT 1",
    )
  ).rows[0]!.details;

describe('export of a selection of the customer search', () => {
  it('is the search’s own export of the customers picked: same columns and lines, in its order, its trail row naming the selection', async () => {
    const searches: Array<Record<string, string>> = [
      { customerName: 'selectable' },
      { customerName: 'selectable', sort: '-created' },
      { emailid: 'sel' },
      { sitename: 'selsite' },
    ];
    for (const search of searches) {
      const whole = await exportOf(search);
      expect(whole.status, whole.raw.body).toBe(200);
      const [header, ...all] = lines(whole.raw.body);
      expect(header).toBe(CUSTOMER_EXPORT_COLUMNS.join(','));
      const picked = await exportOf({ ...search, uids: `${uids[3]},${uids[0]},${uids[3]!.toUpperCase()}` });
      expect(picked.status, picked.raw.body).toBe(200);
      expect(picked.headers[HEADERS.exportRows]).toBe('2');
      const [pickedHeader, ...rows] = lines(picked.raw.body);
      expect(pickedHeader).toBe(header);
      // the whole export's lines of the two, in its order
      expect(rows, JSON.stringify(search)).toEqual(
        all.filter((l) => l.startsWith(`${uids[0]},`) || l.startsWith(`${uids[3]},`)),
      );
      const criterion = Object.keys(search)[0];
      expect(await lastTrail()).toEqual({
        criterion,
        sort: search.sort ?? null,
        rows: 2,
        selection: 2,
      });
    }
  });

  it('keeps to the search and to the viewer’s scope', async () => {
    const other = (
      await t.db.query<{ uid: string }>(
        "SELECT uid FROM customers WHERE email = 'other@export-selection.example'",
      )
    ).rows[0]!.uid;
    // a customer the search does not match is not exported, picked or not
    const notMatched = await exportOf({ customerName: 'selectable', uids: `${uids[1]},${other}` });
    expect(notMatched.headers[HEADERS.exportRows]).toBe('1');
    expect(lines(notMatched.raw.body)[1]!.startsWith(`${uids[1]},`)).toBe(true);
    // a viewer scoped to us-east lists the last customer alone
    const scoped = await exportOf({ customerName: 'selectable', uids: `${uids[0]},${uids[4]}` }, east);
    expect(scoped.headers[HEADERS.exportRows]).toBe('1');
    expect(lines(scoped.raw.body)[1]!.startsWith(`${uids[4]},`)).toBe(true);
  });

  it(`is bounded at ${EXPORT_SELECTION_UIDS_MAX} customers, and refuses uids that are not uids`, async () => {
    const many = Array.from(
      { length: EXPORT_SELECTION_UIDS_MAX + 1 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const atBound = await exportOf({ customerName: 'selectable', uids: many.slice(1).join(',') });
    expect([atBound.status, atBound.headers[HEADERS.exportRows]]).toEqual([200, '0']);
    const big = await exportOf({ customerName: 'selectable', uids: many.join(',') });
    expect(big.status).toBe(400);
    expect(big.error.FieldErrors![0]).toMatchObject({ Field: 'uids' });
    expect(big.error.FieldErrors![0]!.Message).toBe(
      `An export of a selection takes at most ${EXPORT_SELECTION_UIDS_MAX} rows; export all matching instead.`,
    );
    const bad = await exportOf({ customerName: 'selectable', uids: `${uids[0]},42` });
    expect([bad.status, bad.error.FieldErrors![0]!.Field]).toEqual([400, 'uids']);
  });
});
