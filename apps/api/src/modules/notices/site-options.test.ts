import { NOTICE_SITE_SEARCH_LIMIT } from '@sac/contract/notices';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

/*
 * The notice site picker past its cut: more sites match than it answers. An app of its own, so
 * the many sites made here reach no other notice test's audience.
 */
let t: TestApp;
let ada: { xtoken: string; xsign: string };

/** A customer with `sites` sites named `${prefix}-NN`; their names do not hold the search term. */
async function ownerWithSites(first: string, last: string, prefix: string, sites: number) {
  const uid = await insertCustomer(t.db, {
    first,
    last,
    email: `${first}.${last}@owners.example`.toLowerCase(),
  });
  for (let i = 1; i <= sites; i++)
    await insertSite(t.db, { owner: uid, name: `${prefix}-${String(i).padStart(2, '0')}` });
}

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('ada@example.com', ['Admin']);
  ada = await t.login('ada@example.com');
  // The worse owner match ("zora" inside the name, not at its start) has more sites than the picker answers, and
  // their names sort before the better match's: a cut before the owners' order would lose Zora's.
  await ownerWithSites('Azora', 'Other', 'aa-site', NOTICE_SITE_SEARCH_LIMIT + 5);
  await ownerWithSites('Zora', 'Best', 'zz-site', 3);
  // A site whose own name matches comes before every owner's site.
  const someone = await insertCustomer(t.db, { first: 'Nils', last: 'Named', email: 'nils@owners.example' });
  await insertSite(t.db, { owner: someone, name: 'zora-launch' });
});
afterAll(() => t.close());

describe('notice site picker past its cut', () => {
  it('answers the site-name matches, then the best-matching owner first, cut after that order', async () => {
    const r = await t.call('noticeSiteOptions', { session: ada, query: { term: 'zora' } });
    expect(r.status, r.raw.body).toBe(200);
    const names = (r.body.Data as { AppName: string; OwnerName: string }[]).map((s) => s.AppName);
    expect(names).toHaveLength(NOTICE_SITE_SEARCH_LIMIT);
    expect(names.slice(0, 4)).toEqual(['zora-launch', 'zz-site-01', 'zz-site-02', 'zz-site-03']);
    // the rest from the worse match, in name order, up to the cut
    expect(names.slice(4)).toEqual(
      Array.from(
        { length: NOTICE_SITE_SEARCH_LIMIT - 4 },
        (_, i) => `aa-site-${String(i + 1).padStart(2, '0')}`,
      ),
    );
  });
});
