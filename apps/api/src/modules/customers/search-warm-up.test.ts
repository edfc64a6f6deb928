import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { freshDb, recordingQueries } from '../../../test/harness.ts';
import type { Db } from '../../db/db.ts';
import { warmUpSearch } from './search-warm-up.ts';

let db: Db;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  // enough customers under the warm-up's first letters and pairs that their searches have a next page
  for (let i = 0; i < 60; i++) {
    const uid = await insertCustomer(db, { first: `Anna${i}`, last: 'Warm', email: `ana${i}@warm.example` });
    if (i < 3) await insertSite(db, { owner: uid, name: `app-${i}` });
  }
});
afterAll(() => drop());

describe('search warm-up', () => {
  it('runs searches of every criterion, first pages and the pages after them, up to maxQueries', async () => {
    const r = recordingQueries(db);
    const done = await warmUpSearch(r.db, { budgetMs: 60_000, maxQueries: 40, stopped: () => false });
    // it stops between searches, and a search sends up to four statements
    expect(done.queries).toBeGreaterThanOrEqual(40);
    expect(done.queries).toBeLessThan(44);
    expect(r.sent).toHaveLength(done.queries);
    const some = (re: RegExp) => r.sent.some((sql) => re.test(sql));
    expect(
      some(
        /FROM customer_addresses a JOIN customers c ON c\.uid = a\.uid\s+WHERE \(a\.address ~>=~ \$1 AND a\.address ~<~ \$2\)\s+AND NOT/,
      ),
    ).toBe(true); // email, first page
    expect(some(/a\.address ~>~ \$\d/)).toBe(true); // email, a next page
    // name, first page: the count and the exact and prefix tiers' walk in one statement
    expect(
      some(
        /^select \(select count\(\*\) as "n" from \(select 1 as "one" from "customers" as "c" where \(lower/,
      ),
    ).toBe(true);
    expect(some(/lower\(c\.last_name\)\) = \$\d THEN 0 ELSE 1 END/)).toBe(true);
    expect(some(/~>=~ \$\d/)).toBe(true); // name prefix, a next page
    expect(some(/from "customer_name_keys" as "n" where translate\(n\.k/)).toBe(true); // substring count
    expect(some(/from "site_owner_keys" as "t" where translate\(t\.n/)).toBe(true); // site name
  });

  it('stops when told to, and runs nothing with no time budget', async () => {
    let calls = 0;
    const r = recordingQueries(db);
    const stopped = await warmUpSearch(r.db, {
      budgetMs: 60_000,
      maxQueries: 100,
      stopped: () => ++calls > 10,
    });
    expect(stopped.queries).toBeLessThan(40); // under ten searches of up to four statements; 100 without the stop
    expect(r.sent).toHaveLength(stopped.queries);

    const none = recordingQueries(db);
    expect(
      (await warmUpSearch(none.db, { budgetMs: 0, maxQueries: 100, stopped: () => false })).queries,
    ).toBe(0);
    expect(none.sent).toHaveLength(0);
  });

  it('changes nothing it reads', async () => {
    const counts = async () =>
      (
        await db.query<{ c: number; s: number; a: number }>(
          `SELECT (SELECT count(*)::int FROM customers) AS c, (SELECT count(*)::int FROM sites) AS s,
                  (SELECT count(*)::int FROM activity_log) AS a`,
        )
      ).rows[0];
    const before = await counts();
    await warmUpSearch(db, { budgetMs: 60_000, maxQueries: 30, stopped: () => false });
    expect(await counts()).toEqual(before);
  });
});
