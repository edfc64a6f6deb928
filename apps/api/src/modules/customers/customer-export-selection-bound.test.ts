import { HEADERS } from '@sac/contract/constants';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertCustomer } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

// The export's row limit made 2 here (it is 50,000): a selection's customers past the first 2
// matches in the list's order show whether the selection reads all the matches or the picked.
vi.mock('@sac/contract/customers', async (actual) => ({
  ...(await actual<typeof import('@sac/contract/customers')>()),
  CUSTOMER_EXPORT_ROW_LIMIT: 2,
}));

let t: TestApp;
let s: { xtoken: string; xsign: string };
/** Five customers named Bounded, Bnd0 to Bnd4: in that order in the list. */
const uids: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('support@example.com', ['Support']);
  s = await t.login('support@example.com');
  for (let i = 0; i < 5; i++)
    uids.push(
      await insertCustomer(t.db, {
        first: `Bnd${i}`,
        last: 'Bounded',
        email: `bnd${i}@export-bound.example`,
        at: new Date(Date.UTC(2026, 0, 10, i)),
      }),
    );
});
afterAll(() => t.close());

describe('the export of a selection of a name or sorted search', () => {
  it('reads the customers picked, not the first matches up to the export’s limit: one past it is exported', async () => {
    for (const search of [
      { customerName: 'bounded' },
      { customerName: 'bnd' },
      { customerName: 'bounded', sort: '-created' },
      { emailid: 'bnd', sort: 'name' },
    ]) {
      const picked = [uids[4]!, uids[0]!, uids[3]!];
      const r = await t.callLoose('searchCustomerExport', {
        session: s,
        query: { ...search, uids: picked.join(',') },
      });
      expect(r.status, r.raw.body).toBe(200);
      const rows = r.raw.body
        .split('\r\n')
        .filter((l) => l !== '')
        .slice(1);
      const order = search.sort === '-created' ? [uids[4], uids[3], uids[0]] : [uids[0], uids[3], uids[4]];
      expect(
        [r.headers[HEADERS.exportRows], rows.map((l) => l.split(',')[0])],
        JSON.stringify(search),
      ).toEqual(['3', order]);
    }
  });
});
