import type { BulkDryRunBody } from '@sac/contract/bulk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { loadConfig } from '../../config.ts';
import { runBulkJobs } from './bulk.service.ts';

type S = { xtoken: string; xsign: string };
type CustomersBody = Extract<BulkDryRunBody, { Action: `customer.${string}` }>;
let t: TestApp;
let n = 0;

/** Small bounds, so the tests reach them: at most 12 items, approval over 4. */
beforeAll(async () => {
  t = await createTestApp({ bulk: { ...loadConfig({}).bulk, maxItems: 12, approvalOver: 4 } });
  await t.addStaff('first@example.com', ['SuperAdmin']);
  await t.addStaff('second@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
  await t.addStaff('support@example.com', ['Support']);
  // a writer of sites in us-east only (their search lists the customers with a site there)
  await t.db.query(
    `INSERT INTO roles (name, permissions, scope_data_centers, scope_plans)
     VALUES ('us-east-writers', '{customers.read,sites.write}', '{us-east}', NULL)`,
  );
  await t.addStaff('east@example.com', ['us-east-writers']);
});
afterAll(() => t.close());

const as = (who: 'first' | 'second' | 'admin' | 'support' | 'east') => t.login(`${who}@example.com`);

/**
 * A fresh customer named `last` (default: their own) with `count` sites, `inactive` of them
 * inactive first: uid, email and appIds.
 */
async function customer(count: number, inactive = 0, last = `Cust${++n}`) {
  const email = `cust${++n}@bulk-customers.example`;
  const uid = await insertCustomer(t.db, { first: 'Bulk', last, email });
  const appIds: number[] = [];
  for (let i = 0; i < count; i++)
    appIds.push((await insertSite(t.db, { owner: uid, name: `bc-${n}-${i}` })).appId);
  for (const id of appIds.slice(0, inactive))
    await t.db.query("UPDATE sites SET status = 'inactive' WHERE app_id = $1", [id]);
  return { uid, email, appIds };
}

const statuses = async (appIds: number[]) =>
  (
    await t.db.query<{ status: string }>('SELECT status FROM sites WHERE app_id = ANY($1) ORDER BY app_id', [
      appIds,
    ])
  ).rows.map((r) => r.status);

async function dryRun(session: S, body: CustomersBody) {
  const r = await t.call('bulkCustomersDryRun', { session, body });
  expect(r.status, r.raw.body).toBe(200);
  return r.body.Data;
}
const job = async (session: S, id: number) => {
  const r = await t.call('bulkJob', { session, query: { id: String(id) } });
  expect(r.status, r.raw.body).toBe(200);
  return r.body.Data;
};
const act = (id: 'bulkRun' | 'bulkApprove' | 'bulkCancel' | 'bulkUndo', session: S, Id: number) =>
  t.call(id, { session, body: { Id } });

describe('bulk actions on the customer search: the sites of the customers selected', () => {
  it('plans each owned site with its customer, and the run does what the plan said, a trail row per site', async () => {
    const s = await as('first');
    const a = await customer(3, 1);
    const b = await customer(1);
    const none = await customer(0);
    const plan = await dryRun(s, {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'rows', Uids: [b.uid, a.uid, none.uid, b.uid] },
    });
    expect(plan).toMatchObject({ List: 'customers', Uid: null, State: 'planned', Count: 4, Bound: 12 });
    expect(plan.Selection).toEqual({ Kind: 'rows', Uids: [b.uid, a.uid, none.uid, b.uid] });
    // by customer in the selection's order, each site named with its owner
    expect(plan.Items.map((i) => [i.Target, i.Key, i.Label, i.Planned, i.PlannedReason])).toEqual([
      [b.appIds[0], b.uid, `bc-${n - 2}-0 (${b.email})`, 'change', null],
      [a.appIds[0], a.uid, `bc-${n - 4}-0 (${a.email})`, 'refuse', 'Already inactive.'],
      [a.appIds[1], a.uid, `bc-${n - 4}-1 (${a.email})`, 'change', null],
      [a.appIds[2], a.uid, `bc-${n - 4}-2 (${a.email})`, 'change', null],
    ]);
    expect(plan.Planned).toEqual({ Change: 3, Refuse: 1 });
    expect(await statuses([...a.appIds, ...b.appIds])).toEqual(['inactive', 'active', 'active', 'active']);

    expect((await act('bulkRun', s, plan.Id)).body.Data.State).toBe('queued');
    expect(await runBulkJobs(t.ctx)).toBe(4);
    const done = await job(s, plan.Id);
    expect(done.State).toBe('done');
    expect(done.Progress).toEqual({ Changed: 3, Refused: 1, Cancelled: 0, Pending: 0 });
    for (const i of done.Items) expect(i.Outcome).toBe(i.Planned === 'change' ? 'changed' : 'refused');
    expect(await statuses([...a.appIds, ...b.appIds])).toEqual(Array(4).fill('inactive'));

    // the job's row names the selection and the count; each site's row is about its own customer
    const trail = await t.db.query<{
      action: string;
      target_type: string;
      target_id: string;
      details: Record<string, unknown>;
    }>(
      "SELECT action, target_type, target_id, details FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(plan.Id)],
    );
    expect(trail.rows.map((r) => [r.action, r.target_type, r.target_id])).toEqual([
      ['bulk.start', 'bulkJob', String(plan.Id)],
      ['site.deactivate', 'customer', b.uid],
      ['site.deactivate', 'customer', a.uid],
      ['site.deactivate', 'customer', a.uid],
    ]);
    expect(trail.rows[0]!.details).toMatchObject({
      action: 'customer.deactivate-sites',
      list: 'customers',
      count: 4,
      selection: { Kind: 'rows', Uids: [b.uid, a.uid, none.uid, b.uid] },
    });

    // customers who own no site: nothing to plan, said so
    const empty = await t.call('bulkCustomersDryRun', {
      session: s,
      body: { Action: 'customer.activate-sites', Selection: { Kind: 'rows', Uids: [none.uid] } },
    });
    expect([empty.status, empty.error.Description]).toEqual([
      400,
      'None of the selected customers owns a site you may change.',
    ]);
  });

  it('resolves "all matching" by the search’s own criterion, server-side, and keeps the criterion, not the term', async () => {
    const s = await as('first');
    const x = await customer(1, 0, 'Quillfeather');
    const y = await customer(2, 0, 'Quillfeather');
    await customer(1, 0, 'Someoneelse');
    const plan = await dryRun(s, {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'all', Search: { customerName: 'quillfeath' } },
    });
    expect(new Set(plan.Items.map((i) => i.Key))).toEqual(new Set([x.uid, y.uid]));
    expect(plan.Count).toBe(3);
    expect(plan.Selection).toEqual({ Kind: 'all', Criterion: 'customerName' });
    // what GET /admin/searchcustomer answers for the same term
    const listed = await t.call('searchCustomer', { session: s, query: { customerName: 'quillfeath' } });
    expect(new Set(listed.body.Data.map((c) => c.Uid))).toEqual(new Set([x.uid, y.uid]));
    // by email (either address, a prefix), and by a site's name
    const byEmail = await dryRun(s, {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'all', Search: { emailid: x.email } },
    });
    expect(byEmail.Items.map((i) => i.Key)).toEqual([x.uid]);
    const bySite = await dryRun(s, {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'all', Search: { sitename: `bc-${n - 1}-1` } },
    });
    expect(bySite.Items.map((i) => i.Key)).toEqual([y.uid, y.uid]);

    await act('bulkRun', s, plan.Id);
    await runBulkJobs(t.ctx);
    const start = await t.db.query<{ details: Record<string, unknown> }>(
      "SELECT details FROM activity_log WHERE action = 'bulk.start' AND details->>'bulkJob' = $1",
      [String(plan.Id)],
    );
    expect(start.rows[0]!.details.selection).toEqual({ Kind: 'all', Criterion: 'customerName' });
    expect(JSON.stringify(start.rows[0]!.details)).not.toContain('quill');
    const kept = await t.db.query<{ selection: unknown }>('SELECT selection FROM bulk_jobs WHERE id = $1', [
      plan.Id,
    ]);
    expect(JSON.stringify(kept.rows[0]!.selection)).not.toContain('quill');

    // the search's own rules: one criterion, a valid one
    const two = await t.call('bulkCustomersDryRun', {
      session: s,
      body: {
        Action: 'customer.deactivate-sites',
        Selection: { Kind: 'all', Search: { customerName: 'a', emailid: 'b' } },
      },
    });
    expect([two.status, two.error.FieldErrors?.[0]?.Message]).toEqual([
      400,
      'Please search by one criterion at a time.',
    ]);
  });

  it('keeps to the actor’s scope: sites outside it are neither planned nor named', async () => {
    const east = await as('east');
    const c = await customer(2);
    await t.db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [c.appIds[1]]);
    const plan = await dryRun(east, {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'all', Search: { emailid: c.email } },
    });
    expect(plan.Items.map((i) => i.Target)).toEqual([c.appIds[1]]);
    expect(JSON.stringify(plan)).not.toContain(`bc-${n}-0`);
    // a customer with no site in the scope: not found by the search, nothing planned
    const out = await customer(1);
    const r = await t.call('bulkCustomersDryRun', {
      session: east,
      body: { Action: 'customer.deactivate-sites', Selection: { Kind: 'all', Search: { uid: out.uid } } },
    });
    expect(r.status).toBe(400);
    // a role without sites.write may not plan it
    const support = await t.call('bulkCustomersDryRun', {
      session: await as('support'),
      body: { Action: 'customer.deactivate-sites', Selection: { Kind: 'rows', Uids: [c.uid] } },
    });
    expect([support.status, support.error.ErrorCode]).toEqual([403, 902]);
  });

  /** A customer with two sites and one with one, picked by row, and the deactivation's dry run. */
  async function planTwoCustomers() {
    const s = await as('first');
    const a = await customer(2);
    const b = await customer(1);
    const plan = await dryRun(s, {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'rows', Uids: [a.uid, b.uid] },
    });
    return { s, a, b, plan };
  }

  it('refuses an item a single edit changed since the dry run, saying why, and runs the rest', async () => {
    const { s, a, b, plan } = await planTwoCustomers();
    expect(plan.Planned).toEqual({ Change: 3, Refuse: 0 });
    // meanwhile another staff member deactivates one site by hand and saves another's settings
    const other = await as('admin');
    const single = await t.call('setSiteStatus', {
      session: other,
      query: { uId: a.uid, appId: String(a.appIds[0]) },
      body: { Status: 'inactive' },
    });
    expect(single.status, single.raw.body).toBe(200);
    const saved = await t.call('updateSiteBasicSettings', {
      session: other,
      query: { uID: b.uid, appId: String(b.appIds[0]) },
      body: { data: { StagingUrl: 'https://theirs.example.com' } },
    });
    expect(saved.status, saved.raw.body).toBe(200);

    await act('bulkRun', s, plan.Id);
    await runBulkJobs(t.ctx);
    const done = await job(s, plan.Id);
    expect(done.Items.map((i) => [i.Target, i.Outcome, i.OutcomeReason])).toEqual([
      [a.appIds[0], 'refused', 'Its status changed since the dry run (it was active, it is inactive).'],
      [a.appIds[1], 'changed', null],
      [b.appIds[0], 'refused', 'Changed by someone else since the dry run (version 1, now 2).'],
    ]);
    expect(await statuses([...a.appIds, ...b.appIds])).toEqual(['inactive', 'inactive', 'active']);
    const staging = await t.db.query<{ staging_url: string }>(
      'SELECT staging_url FROM sites WHERE app_id = $1',
      [b.appIds[0]],
    );
    expect(staging.rows[0]!.staging_url).toBe('https://theirs.example.com');
  });

  it('undoes a finished job once, within 10 minutes, over the sites it changed, refusing what moved on', async () => {
    const { s, a, b, plan } = await planTwoCustomers();
    await act('bulkRun', s, plan.Id);
    await runBulkJobs(t.ctx);
    const done = await job(s, plan.Id);
    expect(done.UndoUntil).toBe(new Date(t.clock.now().getTime() + 10 * 60_000).toISOString());
    // one site is reactivated by hand before the undo
    await t.call('setSiteStatus', {
      session: s,
      query: { uId: b.uid, appId: String(b.appIds[0]) },
      body: { Status: 'active' },
    });
    const undo = await act('bulkUndo', s, plan.Id);
    expect(undo.status, undo.raw.body).toBe(200);
    expect(undo.body.Data).toMatchObject({
      Action: 'customer.activate-sites',
      List: 'customers',
      UndoOf: plan.Id,
      State: 'queued',
      Count: 3,
      Selection: { Kind: 'rows', AppIds: [...a.appIds, ...b.appIds] },
    });
    expect(undo.body.Data.Items.map((i) => [i.Key, i.PlannedReason])).toEqual([
      [a.uid, null],
      [a.uid, null],
      [b.uid, 'Already active.'],
    ]);
    await runBulkJobs(t.ctx);
    expect(await statuses([...a.appIds, ...b.appIds])).toEqual(['active', 'active', 'active']);
    expect((await job(s, undo.body.Data.Id)).Progress).toEqual({
      Changed: 2,
      Refused: 1,
      Cancelled: 0,
      Pending: 0,
    });
    const again = await act('bulkUndo', s, plan.Id);
    expect([again.status, again.error.ErrorCode]).toEqual([409, 1195]);

    // ten minutes after its end, no more
    const c = await customer(1);
    const p2 = await dryRun(s, {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'rows', Uids: [c.uid] },
    });
    await act('bulkRun', s, p2.Id);
    await runBulkJobs(t.ctx);
    t.clock.advance(10 * 60_000 + 1);
    const late = await act('bulkUndo', await as('first'), p2.Id);
    expect([late.status, late.error.ErrorCode]).toEqual([409, 1195]);
    expect(await statuses(c.appIds)).toEqual(['inactive']);
  });

  it('holds a job over BULK_APPROVAL_OVER for a second SuperAdmin, as every list’s job', async () => {
    const s = await as('first');
    const a = await customer(3);
    const b = await customer(2);
    const plan = await dryRun(s, {
      Action: 'customer.deactivate-sites',
      Selection: { Kind: 'rows', Uids: [a.uid, b.uid] },
    });
    expect(plan).toMatchObject({ Count: 5, ApprovalOver: 4, ApprovalNeeded: true });
    expect((await act('bulkRun', s, plan.Id)).body.Data.State).toBe('awaiting-approval');
    const told = (await t.call('staffNotifications', { session: await as('second') })).body.Data.filter(
      (x) => x.Kind === 'bulk-approval' && x.JobId === plan.Id,
    );
    expect(told).toMatchObject([{ Actor: 'first@example.com', Count: 5 }]);
    const own = await act('bulkApprove', s, plan.Id);
    expect([own.status, own.error.ErrorCode]).toEqual([403, 1192]);
    const admin = await act('bulkApprove', await as('admin'), plan.Id);
    expect([admin.status, admin.error.ErrorCode]).toEqual([403, 1193]);
    expect(await runBulkJobs(t.ctx)).toBe(0);
    expect(await statuses([...a.appIds, ...b.appIds])).toEqual(Array(5).fill('active'));
    const ok = await act('bulkApprove', await as('second'), plan.Id);
    expect(ok.body.Data).toMatchObject({ State: 'queued', ApprovedBy: 'second@example.com' });
    await runBulkJobs(t.ctx);
    expect(await statuses([...a.appIds, ...b.appIds])).toEqual(Array(5).fill('inactive'));
    const approve = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM activity_log WHERE action = 'bulk.approve' AND details->>'bulkJob' = $1",
      [String(plan.Id)],
    );
    expect(approve.rows[0]!.n).toBe(1);
  });

  it('refuses a selection over BULK_MAX_ITEMS sites, or a search matching more customers, naming the bound', async () => {
    const s = await as('first');
    const big = await customer(13);
    const sites = await t.call('bulkCustomersDryRun', {
      session: s,
      body: { Action: 'customer.deactivate-sites', Selection: { Kind: 'rows', Uids: [big.uid] } },
    });
    expect([sites.status, sites.error.ErrorCode]).toEqual([400, 1190]);
    expect(sites.error.Description).toContain('more than 12 sites');
    for (let i = 0; i < 13; i++) await customer(0, 0, 'Manyfold');
    const many = await t.call('bulkCustomersDryRun', {
      session: s,
      body: {
        Action: 'customer.deactivate-sites',
        Selection: { Kind: 'all', Search: { customerName: 'manyfold' } },
      },
    });
    expect([many.status, many.error.ErrorCode]).toEqual([400, 1190]);
    expect(many.error.Description).toBe(
      'The search matches more than 12 customers; a bulk action takes at most 12 (BULK_MAX_ITEMS). Narrow the search.',
    );
  });
});
