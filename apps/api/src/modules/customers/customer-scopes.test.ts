import { HEADERS } from '@sac/contract/constants';
import { SCOPE_WRITE_MESSAGES } from '@sac/contract/customer-writes';
import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite, shareSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { flushCustomerViews } from '../dashboard/dashboard.service.ts';

/*
 * The 'service' routes of customers, sites, the dashboard and custom domains keep to a scoped
 * role's data centers and plans (role-scopes.ts) in their SQL: a 'Support EU' (eu-central) and a
 * 'Support Free' (the Free plan) see only their customers and sites, in every search criterion,
 * export, list and count; an unscoped role beside a scoped one sees everything.
 */

type S = { xtoken: string; xsign: string };
let t: TestApp;
let eu: S;
let free: S;
let both: S;
let admin: S;
const uid: Record<'eva' | 'sam' | 'max' | 'nora', string> = { eva: '', sam: '', max: '', nora: '' };
const site: Record<'euShop' | 'evaUs' | 'usShop', { appId: number; apiKey: string }> = {
  euShop: { appId: 0, apiKey: '' },
  evaUs: { appId: 0, apiKey: '' },
  usShop: { appId: 0, apiKey: '' },
};
/** Customers in the EU scope: Eva (owner), Max (member) and the paging batch. */
const PAGED = 55;

const PERMISSIONS = ['customers.read', 'customers.write', 'sites.read', 'sites.write', 'site-settings.read'];

async function addRole(name: string, dataCenters: string[] | null, plans: string[] | null) {
  await t.db.query(
    'INSERT INTO roles (name, permissions, scope_data_centers, scope_plans) VALUES ($1, $2, $3, $4)',
    [name, PERMISSIONS, dataCenters, plans],
  );
}

const place = (appId: number, dataCenter: string, plan: string) =>
  t.db.query('UPDATE sites SET data_center = $2, plan = $3 WHERE app_id = $1', [appId, dataCenter, plan]);

beforeAll(async () => {
  t = await createTestApp();
  const person = (first: string, n: number) =>
    insertCustomer(t.db, {
      first,
      last: 'Scopetest',
      email: `scope-${first.toLowerCase()}@example.com`,
      phone: `+44 20 7946 000${n}`,
    });
  uid.eva = await person('Eva', 1);
  uid.sam = await person('Sam', 2);
  uid.max = await person('Max', 3);
  uid.nora = await person('Nora', 4);
  site.euShop = await insertSite(t.db, { owner: uid.eva, name: 'scope-eu-shop' });
  site.evaUs = await insertSite(t.db, { owner: uid.eva, name: 'scope-eva-us' });
  site.usShop = await insertSite(t.db, { owner: uid.sam, name: 'scope-us-shop' });
  await place(site.evaUs.appId, 'us-east', 'Developer');
  await place(site.usShop.appId, 'us-east', 'Free');
  await shareSite(t.db, site.euShop.appId, uid.max, 'Developer');
  // Trials ending within the dashboard's week: one in each scope; the rest later.
  await t.db.query("UPDATE sites SET trial_ends_at = '2026-06-01' WHERE app_id = $1", [site.evaUs.appId]);
  await t.db.query("UPDATE sites SET trial_ends_at = '2026-01-18' WHERE app_id = ANY($1::bigint[])", [
    [site.euShop.appId, site.usShop.appId],
  ]);
  // A batch to page through: as many customers in eu-central as in us-east, none on Free.
  for (let i = 0; i < PAGED; i++) {
    for (const dc of ['eu-central', 'us-east']) {
      const owner = await insertCustomer(t.db, {
        first: `Pg${i}${dc.slice(0, 2)}`,
        last: 'Scopepage',
        email: `pg${i}-${dc}@bulk.example`,
      });
      const s = await insertSite(t.db, { owner, name: `pg-${dc}-${i}` });
      await t.db.query("UPDATE sites SET data_center = $2, trial_ends_at = '2026-06-01' WHERE app_id = $1", [
        s.appId,
        dc,
      ]);
    }
  }
  for (const [domain, appId] of [
    ['login.eu-shop.example', site.euShop.appId],
    ['login.us-shop.example', site.usShop.appId],
  ] as const) {
    await t.db.query(
      "INSERT INTO custom_domains (domain, app_id, token, created_at) VALUES ($1, $2, 'x', now())",
      [domain, appId],
    );
  }
  await addRole('Support EU', ['eu-central'], null);
  await addRole('Support Free', null, ['Free']);
  await t.addStaff('eu@example.com', ['Support EU']);
  await t.addStaff('free@example.com', ['Support Free']);
  await t.addStaff('both@example.com', ['Support EU', 'Admin']);
  await t.addStaff('admin@example.com', ['SuperAdmin']);
  eu = await t.login('eu@example.com');
  free = await t.login('free@example.com');
  both = await t.login('both@example.com');
  admin = await t.login('admin@example.com');
});
afterAll(() => t.close());

/** The uids a search answers (every page), and its Total; none when it answers 404. */
async function searched(session: S, query: Record<string, string>) {
  const r = await t.call('searchCustomer', { session, query });
  if (r.status === 404) return { uids: [] as string[], total: 0 };
  expect(r.status, r.raw.body).toBe(200);
  const uids = r.body.Data.map((c) => c.Uid);
  let cursor = r.body.NextCursor;
  while (cursor) {
    const next = await t.call('searchCustomer', { session, query: { ...query, cursor } });
    expect(next.status, next.raw.body).toBe(200);
    expect(next.body.Total).toBe(r.body.Total);
    uids.push(...next.body.Data.map((c) => c.Uid));
    cursor = next.body.NextCursor;
  }
  return { uids: uids.sort(), total: r.body.Total, capped: r.body.Capped };
}

/** The uids of an export's rows, and the row count its header announced. */
async function exported(session: S, query: Record<string, string>) {
  const r = await t.call('searchCustomerExport', { session, query });
  expect(r.status, r.raw.body).toBe(200);
  const lines = r.raw.body.trim().split('\n').slice(1);
  return { uids: lines.map((l) => l.split(',')[0]!).sort(), rows: Number(r.headers[HEADERS.exportRows]) };
}

const sorted = (...u: string[]) => [...u].sort();
const ascending = (...n: number[]) => [...n].sort((a, b) => a - b);

describe('search and export keep to the scope', () => {
  const terms: Array<Record<string, string>> = [
    { customerName: 'scopetest' },
    { customerName: 'Eva' },
    { emailid: 'scope-' },
    { phone: '+44207946' },
  ];
  for (const query of terms) {
    for (const sort of [undefined, 'created', '-name']) {
      const q = sort ? { ...query, sort } : query;
      it(`${JSON.stringify(q)}: EU, Free, and an unscoped role beside a scoped one`, async () => {
        const everyone = await searched(admin, q);
        const inEu = everyone.uids.filter((u) => u === uid.eva || u === uid.max);
        const inFree = everyone.uids.filter((u) => u === uid.sam);
        const e = await searched(eu, q);
        expect(e.uids).toEqual(inEu);
        expect(e.total).toBe(inEu.length);
        const f = await searched(free, q);
        expect(f.uids).toEqual(inFree);
        expect(f.total).toBe(inFree.length);
        expect(await searched(both, q)).toEqual(everyone);
        for (const [session, expected] of [
          [eu, inEu],
          [free, inFree],
          [both, everyone.uids],
        ] as const) {
          if (expected.length === 0) continue;
          const x = await exported(session, q);
          expect(x).toEqual({ uids: expected, rows: expected.length });
        }
      });
    }
  }

  it('site name: the owners of matching sites in scope only (a customer in scope, a site out of it, does not match)', async () => {
    for (const sort of [undefined, 'created']) {
      const q = (sitename: string): Record<string, string> => (sort ? { sitename, sort } : { sitename });
      expect((await searched(admin, q('scope-'))).uids).toEqual(sorted(uid.eva, uid.sam));
      expect(await searched(eu, q('scope-'))).toMatchObject({ uids: [uid.eva], total: 1 });
      expect(await searched(free, q('scope-'))).toMatchObject({ uids: [uid.sam], total: 1 });
      expect((await searched(eu, q('scope-eva-us'))).uids).toEqual([]);
      expect((await searched(admin, q('scope-eva-us'))).uids).toEqual([uid.eva]);
      expect(await exported(eu, q('scope-'))).toEqual({ uids: [uid.eva], rows: 1 });
      expect((await searched(both, q('scope-'))).uids).toEqual(sorted(uid.eva, uid.sam));
    }
  });

  it('uid and API key: found only in scope (a key of a site out of scope finds nobody)', async () => {
    for (const [who, expected] of [
      [uid.eva, [uid.eva]],
      [uid.max, [uid.max]],
      [uid.sam, []],
      [uid.nora, []],
    ] as const) {
      expect((await searched(eu, { uid: who })).uids).toEqual(expected);
      expect((await searched(both, { uid: who })).uids).toEqual([who]);
    }
    expect((await searched(eu, { apikey: site.euShop.apiKey })).uids).toEqual([uid.eva]);
    expect((await searched(eu, { apikey: site.evaUs.apiKey })).uids).toEqual([]);
    expect((await searched(eu, { apikey: site.usShop.apiKey })).uids).toEqual([]);
    expect((await searched(free, { apikey: site.usShop.apiKey })).uids).toEqual([uid.sam]);
    expect((await searched(both, { apikey: site.evaUs.apiKey })).uids).toEqual([uid.eva]);
    expect(await exported(eu, { uid: uid.sam })).toEqual({ uids: [], rows: 0 });
    expect(await exported(eu, { apikey: site.euShop.apiKey })).toEqual({ uids: [uid.eva], rows: 1 });
  });

  it('pages and counts the scope alone: Total, cursors, and the export of a larger match', async () => {
    for (const sort of [undefined, 'created']) {
      const q: Record<string, string> = sort
        ? { customerName: 'scopepage', sort }
        : { customerName: 'scopepage' };
      const all = await searched(admin, q);
      expect(all.total).toBe(2 * PAGED);
      const e = await searched(eu, q);
      expect(e.total).toBe(PAGED);
      expect(e.uids.length).toBe(PAGED);
      const x = await exported(eu, q);
      expect(x).toEqual({ uids: e.uids, rows: PAGED });
      // the page size is 50, so the scoped list took a cursor
      const first = await t.call('searchCustomer', { session: eu, query: q });
      expect(first.body.NextCursor).not.toBe('');
      expect(new Set(e.uids).size).toBe(PAGED);
      expect(all.uids.filter((u) => e.uids.includes(u)).length).toBe(PAGED);
    }
    const mails = await searched(eu, { emailid: 'pg' });
    expect(mails.total).toBe(PAGED);
    expect((await exported(eu, { emailid: 'pg' })).rows).toBe(PAGED);
    expect((await searched(eu, { sitename: 'pg-' })).total).toBe(PAGED);
    expect((await exported(eu, { sitename: 'pg-' })).rows).toBe(PAGED);
  });
});

describe("a customer's sites keep to the scope", () => {
  const appIds = async (session: S, id: 'customerApps' | 'customerAllApps' | 'sharedApps', who: string) => {
    const r = await t.call(id, { session, query: { uid: who } });
    return r.status === 200 ? r.body.Data.map((s) => s.appId).sort((a, b) => a - b) : r;
  };

  it('lists only the sites in scope, and refuses a customer outside it (403 outOfScope)', async () => {
    expect(await appIds(eu, 'customerApps', uid.eva)).toEqual([site.euShop.appId]);
    expect(await appIds(eu, 'customerAllApps', uid.eva)).toEqual([site.euShop.appId]);
    expect(await appIds(eu, 'sharedApps', uid.max)).toEqual([site.euShop.appId]);
    expect(await appIds(both, 'customerApps', uid.eva)).toEqual(
      ascending(site.euShop.appId, site.evaUs.appId),
    );
    for (const id of ['customerApps', 'customerAllApps', 'sharedApps'] as const) {
      for (const who of [uid.sam, uid.nora]) {
        const r = await t.call(id, { session: eu, query: { uid: who } });
        expect(r.status).toBe(403);
        expect(r.error).toMatchObject({
          ErrorCode: ERRORS.outOfScope.code,
          Description: ERRORS.outOfScope.text,
        });
      }
    }
    expect(await appIds(free, 'customerApps', uid.sam)).toEqual([site.usShop.appId]);
    // the account's site counts too
    const account = async (session: S, who: string) => {
      const r = await t.call('userProfile', { session, query: { uid: who } });
      expect(r.status, r.raw.body).toBe(200);
      return [r.body.Data.OwnedSites, r.body.Data.SharedSites];
    };
    expect(await account(eu, uid.eva)).toEqual([1, 0]);
    expect(await account(both, uid.eva)).toEqual([2, 0]);
    expect(await account(eu, uid.max)).toEqual([0, 1]);
    expect((await t.call('customerApps', { session: free, query: { uid: uid.eva } })).status).toBe(403);
  });
});

describe('dashboard, trials ending and custom domains keep to the scope', () => {
  const dashboardOf = async (session: S) => {
    const r = await t.call('dashboard', { session });
    expect(r.status, r.raw.body).toBe(200);
    return r.body;
  };
  const dayCount = (days: Array<{ Day: string; Count: number }>, day: string) =>
    days.find((d) => d.Day === day)?.Count;

  it('counts only what the scope reaches: customers, sites by plan and data center, new ones, trials, domains', async () => {
    const d = await dashboardOf(eu);
    expect(d.Customers?.Total).toBe(2 + PAGED);
    expect(dayCount(d.Customers!.NewByDay, '2026-01-10')).toBe(2 + PAGED);
    expect(d.Sites?.Total).toBe(1 + PAGED);
    expect(dayCount(d.Sites!.NewByDay, '2026-01-10')).toBe(1 + PAGED);
    expect(d.Sites?.ByDataCenter.map((c) => [c.Code, c.Count])).toEqual([['eu-central', 1 + PAGED]]);
    expect(d.Sites?.ByPlan.find((p) => p.Plan === 'Free')?.Count).toBe(0);
    expect(d.Sites?.TrialsEndingSoon.Items.map((i) => i.AppId)).toEqual([site.euShop.appId]);
    expect(d.Sites?.TrialsEndingSoon.Count).toBe(1);
    expect(d.CustomDomains).toEqual({ PendingVerification: 1, FailingRechecks: 0 });

    const f = await dashboardOf(free);
    expect(f.Customers?.Total).toBe(1);
    expect(f.Sites?.Total).toBe(1);
    expect(f.Sites?.ByDataCenter.map((c) => [c.Code, c.Count])).toEqual([['us-east', 1]]);
    expect(f.Sites?.ByPlan.map((p) => [p.Plan, p.Count])).toEqual([
      ['Free', 1],
      ['Developer', 0],
      ['Developer Premium', 0],
    ]);
    expect(f.Sites?.TrialsEndingSoon.Items.map((i) => i.AppId)).toEqual([site.usShop.appId]);

    const all = await dashboardOf(admin);
    expect(all.Customers?.Total).toBe(4 + 2 * PAGED);
    expect(all.Sites?.Total).toBe(3 + 2 * PAGED);
    expect(all.CustomDomains?.PendingVerification).toBe(2);
    const b = await dashboardOf(both);
    expect([b.Customers, b.Sites, b.CustomDomains]).toEqual([all.Customers, all.Sites, all.CustomDomains]);
  });

  it('lists trials ending and custom domains of the scope only', async () => {
    const trials = async (session: S) => {
      const r = await t.call('trialsEnding', { session, query: {} });
      expect(r.status, r.raw.body).toBe(200);
      return r.body.Data.map((x) => x.AppId);
    };
    expect(await trials(eu)).toEqual([site.euShop.appId]);
    expect(await trials(free)).toEqual([site.usShop.appId]);
    expect(await trials(both)).toEqual(ascending(site.euShop.appId, site.usShop.appId));
    const domains = async (session: S) => {
      const r = await t.call('customDomainsAll', { session, query: {} });
      expect(r.status, r.raw.body).toBe(200);
      return r.body.Data.map((x) => x.Domain);
    };
    expect(await domains(eu)).toEqual(['login.eu-shop.example']);
    expect(await domains(free)).toEqual(['login.us-shop.example']);
    expect(await domains(both)).toEqual(['login.eu-shop.example', 'login.us-shop.example']);
  });

  it('drops a recently viewed customer who has left the scope', async () => {
    const recent = async () => (await dashboardOf(eu)).RecentCustomers?.map((c) => c.Uid).sort();
    for (const who of [uid.eva, uid.max]) {
      expect((await t.call('customerProfile', { session: eu, query: { uid: who } })).status).toBe(200);
    }
    expect(await recent()).toEqual(sorted(uid.eva, uid.max));
    await t.db.query('DELETE FROM site_members WHERE customer_uid = $1', [uid.max]);
    expect(await recent()).toEqual([uid.eva]); // views still in memory
    await flushCustomerViews(t.ctx);
    expect(await recent()).toEqual([uid.eva]); // and written
    await shareSite(t.db, site.euShop.appId, uid.max, 'Developer');
  });
});

describe('writes do not make or move a site out of the scope', () => {
  const customers = async () =>
    Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM customers')).rows[0]!.n);
  const sites = async () =>
    Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM sites')).rows[0]!.n);
  const newCustomer = (session: S, appname: string) =>
    t.call('createCustomer', {
      session,
      body: {
        firstname: 'New',
        lastname: 'Scoped',
        email: `${appname}@example.com`,
        organization: '',
        phone: '',
        timezone: 'Europe/Berlin',
        appname,
      },
    });
  const refused = (
    r: { status: number; error: { ErrorCode: number; Description: string } },
    text: string,
  ) => {
    expect(r.status).toBe(403);
    expect(r.error).toMatchObject({ ErrorCode: ERRORS.outOfScope.code, Description: text });
  };

  it('creates a customer only when a new site (Free, no data center) is in scope', async () => {
    const [c, s] = [await customers(), await sites()];
    refused(await newCustomer(eu, 'eu-made'), SCOPE_WRITE_MESSAGES.newSiteOutOfScope);
    expect([await customers(), await sites()]).toEqual([c, s]);
    const made = await newCustomer(free, 'free-made');
    expect(made.status, made.raw.body).toBe(200);
    expect((await newCustomer(both, 'both-made')).status).toBe(200);
  });

  it('adds a site only when it is in scope, to a customer in scope', async () => {
    const s = await sites();
    const add = (session: S, who: string, appname: string) =>
      t.call('addSite', { session, query: { uid: who }, body: { appname } });
    refused(await add(eu, uid.eva, 'eu-added'), SCOPE_WRITE_MESSAGES.newSiteOutOfScope);
    // a Free site would bring Eva (outside the Free scope) into it
    refused(await add(free, uid.eva, 'free-to-eva'), ERRORS.outOfScope.text);
    expect(await sites()).toBe(s);
    const ok = await add(free, uid.sam, 'free-to-sam');
    expect(ok.status, ok.raw.body).toBe(200);
    expect((await add(both, uid.eva, 'both-to-eva')).status).toBe(200);
  });

  it('refuses moving a site to a data center or plan out of scope, or copying from a site out of it', async () => {
    const row = async (appId: number) =>
      (
        await t.db.query<{ data_center: string; plan: string; features: string[]; global_server: string }>(
          'SELECT data_center, plan, features, global_server FROM sites WHERE app_id = $1',
          [appId],
        )
      ).rows[0];
    const before = await row(site.euShop.appId);
    const dc = await t.call('siteDataCenter', {
      session: eu,
      query: { userId: uid.eva, appId: site.euShop.appId },
    });
    const move = (session: S, body: Record<string, unknown>) =>
      t.callLoose('updateSiteDataCenter', {
        session,
        query: { userId: uid.eva, appId: String(site.euShop.appId) },
        headers: { 'if-match': dc.headers.etag as string },
        body,
      });
    refused(
      await move(eu, { Source: 'global-server', GlobalServer: 'use-shared-1', DbName: 'moved_db' }),
      SCOPE_WRITE_MESSAGES.moveOutOfScope,
    );
    refused(
      await move(eu, { Source: 'existing-site', FromAppId: site.evaUs.appId }),
      SCOPE_WRITE_MESSAGES.sourceOutOfScope,
    );
    const ft = await t.call('siteFeature', {
      session: eu,
      query: { userId: uid.eva, appId: site.euShop.appId },
    });
    refused(
      await t.callLoose('updateSiteFeatures', {
        session: eu,
        query: { userId: uid.eva, appId: String(site.euShop.appId) },
        headers: { 'if-match': ft.headers.etag as string },
        body: { FromAppId: site.evaUs.appId },
      }),
      SCOPE_WRITE_MESSAGES.sourceOutOfScope,
    );
    expect(await row(site.euShop.appId)).toEqual(before);
    // within the scope the same move is made
    const inside = await move(eu, {
      Source: 'global-server',
      GlobalServer: 'euc-shared-1',
      DbName: 'moved_db',
    });
    expect(inside.status, inside.raw.body).toBe(200);

    const plan = async (session: S, Plan: string) => {
      const b = await t.call('siteBasicSettings', {
        session,
        query: { uID: uid.sam, appId: site.usShop.appId },
      });
      return t.call('updateSiteBasicSettings', {
        session,
        query: { uID: uid.sam, appId: String(site.usShop.appId) },
        headers: { 'if-match': b.headers.etag as string },
        body: { data: { Plan } },
      } as never);
    };
    refused(await plan(free, 'Developer'), SCOPE_WRITE_MESSAGES.moveOutOfScope);
    expect((await row(site.usShop.appId))?.plan).toBe('Free');
    expect((await plan(free, 'Free')).status).toBe(200);
  });
});

describe("writes to a customer's account need every site they use in scope", () => {
  const ACCOUNT_TEXT =
    "This customer also uses sites outside your role's scope: their account (profile, password, email) can be changed only by someone whose scope covers all of them.";

  it('lets a scoped holder read a customer with a site outside the scope, but not change their account', async () => {
    // Eva owns euShop (in the EU scope) and evaUs (us-east): readable, not changeable, by Support EU
    expect((await t.call('customerProfile', { session: eu, query: { uid: uid.eva } })).status).toBe(200);
    const before = await t.db.query('SELECT password_hash, email_verified FROM customers WHERE uid = $1', [
      uid.eva,
    ]);
    for (const r of [
      await t.callLoose('setCustomerPassword', {
        session: eu,
        query: { uid: uid.eva },
        body: { password: 'Cust#1234' },
      }),
      await t.callLoose('verifyEmail', { session: eu, body: { uid: uid.eva } }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.error).toMatchObject({ ErrorCode: ERRORS.outOfScope.code, Description: ACCOUNT_TEXT });
    }
    const after = await t.db.query('SELECT password_hash, email_verified FROM customers WHERE uid = $1', [
      uid.eva,
    ]);
    expect(after.rows).toEqual(before.rows);
    // Max is only a member of euShop: every site he uses is in scope
    const max = await t.callLoose('verifyEmail', { session: eu, body: { uid: uid.max } });
    expect(max.status).not.toBe(403);
    // an unscoped role beside the scoped one reaches every site
    const anyone = await t.callLoose('verifyEmail', { session: both, body: { uid: uid.eva } });
    expect(anyone.status).not.toBe(403);
  });
});
