import { describe, expect, it } from 'vitest';
import { siteJobSuite } from '../../../test/bulk-fixtures.ts';
import { CONSOLE_ORIGIN } from '../../../test/harness.ts';
import { runBulkJobs } from './bulk.service.ts';

const suite = siteJobSuite();
const { app, as, sitesOf, statuses, dryRun, job, act } = suite;

describe('bulk site deactivation', () => {
  it('runs what its dry run planned, item by item, each a trail row naming the job', async () => {
    const s = await as('first');
    const { uid, appIds } = await sitesOf(4, 1);
    const plan = await dryRun(s, {
      Action: 'site.deactivate',
      Uid: uid,
      Selection: { Kind: 'rows', AppIds: [...appIds, 999_999] },
    });
    expect(plan).toMatchObject({ State: 'planned', Count: 5, Bound: 12, ApprovalNeeded: true });
    expect(plan.Planned).toEqual({ Change: 3, Refuse: 2 });
    const refusals = plan.Items.filter((i) => i.Planned === 'refuse').map((i) => i.PlannedReason);
    expect(refusals).toEqual(['Already inactive.', 'Not a site of this customer (any more).']);
    // nothing changed by the plan
    expect(await statuses(appIds)).toEqual(['inactive', 'active', 'active', 'active']);

    const run = await act('bulkRun', s, plan.Id);
    expect(run.status, run.raw.body).toBe(200);
    expect(run.body.Data.State).toBe('awaiting-approval');
    expect(await runBulkJobs(app().ctx)).toBe(0);
    expect((await act('bulkApprove', await as('second'), plan.Id)).status).toBe(200);
    expect(await runBulkJobs(app().ctx)).toBe(5);

    const done = await job(s, plan.Id);
    expect(done.State).toBe('done');
    expect(done.Progress).toEqual({ Changed: 3, Refused: 2, Cancelled: 0, Pending: 0 });
    // each item did what the dry run said it would
    for (const i of done.Items) expect(i.Outcome).toBe(i.Planned === 'change' ? 'changed' : 'refused');
    expect(await statuses(appIds)).toEqual(['inactive', 'inactive', 'inactive', 'inactive']);
    const trail = await app().db.query<{ action: string; details: { bulkJob?: number; count?: number } }>(
      "SELECT action, details FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(plan.Id)],
    );
    expect(trail.rows.map((r) => r.action)).toEqual([
      'bulk.start',
      'bulk.approve',
      'site.deactivate',
      'site.deactivate',
      'site.deactivate',
    ]);
    expect(trail.rows[0]!.details.count).toBe(5);
  });

  it('refuses an item a single edit changed since the dry run, saying why, and runs the rest', async () => {
    const s = await as('first');
    const { uid, appIds } = await sitesOf(3);
    const [a, b] = appIds as [number, number, number];
    const plan = await dryRun(s, { Action: 'site.deactivate', Uid: uid, Selection: { Kind: 'all' } });
    expect(plan.Planned).toEqual({ Change: 3, Refuse: 0 });
    // meanwhile, another staff member deactivates one site by hand and saves another's settings
    const other = await as('admin');
    const single = await app().call('setSiteStatus', {
      session: other,
      query: { uId: uid, appId: String(a) },
      body: { Status: 'inactive' },
    });
    expect(single.status, single.raw.body).toBe(200);
    const saved = await app().call('updateSiteBasicSettings', {
      session: other,
      query: { uID: uid, appId: String(b) },
      body: { data: { StagingUrl: 'https://theirs.example.com' } },
    });
    expect(saved.status, saved.raw.body).toBe(200);

    expect((await act('bulkRun', s, plan.Id)).body.Data.State).toBe('queued');
    await runBulkJobs(app().ctx);
    const done = await job(s, plan.Id);
    expect(done.Items.map((i) => [i.Outcome, i.OutcomeReason])).toEqual([
      ['refused', 'Its status changed since the dry run (it was active, it is inactive).'],
      ['refused', 'Changed by someone else since the dry run (version 1, now 2).'],
      ['changed', null],
    ]);
    const staging = await app().db.query<{ staging_url: string }>(
      'SELECT staging_url FROM sites WHERE app_id = $1',
      [b],
    );
    expect(staging.rows[0]!.staging_url).toBe('https://theirs.example.com');
    expect(await statuses(appIds)).toEqual(['inactive', 'active', 'inactive']);
  });

  it('undoes a finished job once, within 10 minutes, refusing what moved on since', async () => {
    const s = await as('first');
    const { uid, appIds } = await sitesOf(3);
    const plan = await dryRun(s, {
      Action: 'site.deactivate',
      Uid: uid,
      Selection: { Kind: 'rows', AppIds: appIds },
    });
    await act('bulkRun', s, plan.Id);
    await runBulkJobs(app().ctx);
    const done = await job(s, plan.Id);
    expect(done.UndoUntil).toBe(new Date(app().clock.now().getTime() + 10 * 60_000).toISOString());
    // one site is reactivated by hand before the undo
    await app().call('setSiteStatus', {
      session: s,
      query: { uId: uid, appId: String(appIds[0]) },
      body: { Status: 'active' },
    });
    const undo = await act('bulkUndo', s, plan.Id);
    expect(undo.status, undo.raw.body).toBe(200);
    expect(undo.body.Data).toMatchObject({
      Action: 'site.activate',
      UndoOf: plan.Id,
      State: 'queued',
      Count: 3,
    });
    expect(undo.body.Data.Items[0]!.PlannedReason).toBe('Already active.');
    await runBulkJobs(app().ctx);
    expect(await statuses(appIds)).toEqual(['active', 'active', 'active']);
    expect((await job(s, undo.body.Data.Id)).Progress).toEqual({
      Changed: 2,
      Refused: 1,
      Cancelled: 0,
      Pending: 0,
    });
    expect((await job(s, plan.Id)).UndoneBy).toBe(undo.body.Data.Id);
    const again = await act('bulkUndo', s, plan.Id);
    expect(again.status).toBe(409);
    expect(again.error.ErrorCode).toBe(1195);

    // another job's undo ends 10 minutes after it
    const { uid: u2, appIds: ids2 } = await sitesOf(1);
    const p2 = await dryRun(s, {
      Action: 'site.deactivate',
      Uid: u2,
      Selection: { Kind: 'rows', AppIds: ids2 },
    });
    await act('bulkRun', s, p2.Id);
    await runBulkJobs(app().ctx);
    app().clock.advance(10 * 60_000 + 1);
    const late = await act('bulkUndo', await as('first'), p2.Id);
    expect(late.status).toBe(409);
    expect(late.error.ErrorCode).toBe(1195);
    expect(await statuses(ids2)).toEqual(['inactive']);
  });

  it('holds a job over BULK_APPROVAL_OVER for a second SuperAdmin, never its requester', async () => {
    const s = await as('first');
    const { uid, appIds } = await sitesOf(5);
    const plan = await dryRun(s, {
      Action: 'site.deactivate',
      Uid: uid,
      Selection: { Kind: 'all', Status: 'active' },
    });
    expect(plan).toMatchObject({ Count: 5, ApprovalOver: 4, ApprovalNeeded: true });
    expect((await act('bulkRun', s, plan.Id)).body.Data.State).toBe('awaiting-approval');
    // the other SuperAdmin is told in the bell (and by mail), with the job and its size; not its requester
    const told = async (who: 'first' | 'second') =>
      (await app().call('staffNotifications', { session: await as(who) })).body.Data.filter(
        (n) => n.Kind === 'bulk-approval' && n.JobId === plan.Id,
      );
    expect(await told('second')).toMatchObject([{ Actor: 'first@example.com', Count: 5, JobId: plan.Id }]);
    expect(await told('first')).toEqual([]);
    // the mail links to the job's own page, whatever its list
    const mail = await app().smtp.waitFor(
      (m) => m.to.includes('second@example.com') && m.subject.startsWith(`Bulk job ${plan.Id} `),
    );
    expect(mail.text).toContain(`${CONSOLE_ORIGIN}/bulk-job?id=${plan.Id}`);
    const own = await act('bulkApprove', s, plan.Id);
    expect([own.status, own.error.ErrorCode]).toEqual([403, 1192]);
    const admin = await act('bulkApprove', await as('admin'), plan.Id);
    expect([admin.status, admin.error.ErrorCode]).toEqual([403, 1193]);
    expect(await runBulkJobs(app().ctx)).toBe(0);
    expect(await statuses(appIds)).toEqual(Array(5).fill('active'));
    const ok = await act('bulkApprove', await as('second'), plan.Id);
    expect(ok.status, ok.raw.body).toBe(200);
    expect(ok.body.Data).toMatchObject({ State: 'queued', ApprovedBy: 'second@example.com' });
    const twice = await act('bulkApprove', await as('second'), plan.Id);
    expect([twice.status, twice.error.ErrorCode]).toEqual([409, 1191]);
    await runBulkJobs(app().ctx);
    expect(await statuses(appIds)).toEqual(Array(5).fill('inactive'));

    // at most four items: no approval
    const { uid: u2 } = await sitesOf(4);
    const small = await dryRun(s, { Action: 'site.deactivate', Uid: u2, Selection: { Kind: 'all' } });
    expect(small.ApprovalNeeded).toBe(false);
  });

  it('refuses a selection over BULK_MAX_ITEMS, naming the bound', async () => {
    const s = await as('first');
    const { uid } = await sitesOf(13);
    const r = await app().call('bulkDryRun', {
      session: s,
      body: { Action: 'site.deactivate', Uid: uid, Selection: { Kind: 'all' } },
    });
    expect(r.status).toBe(400);
    expect(r.error.ErrorCode).toBe(1190);
    expect(r.error.Description).toContain('at most 12');
  });

  it('cancels a running job between items: what ran stays, the rest is left as it was', async () => {
    const s = await as('first');
    const { uid, appIds } = await sitesOf(4);
    const plan = await dryRun(s, {
      Action: 'site.deactivate',
      Uid: uid,
      Selection: { Kind: 'rows', AppIds: appIds },
    });
    await act('bulkRun', s, plan.Id);
    expect(await runBulkJobs(app().ctx, { maxItems: 1 })).toBe(1);
    expect((await job(s, plan.Id)).State).toBe('running');
    const other = await act('bulkCancel', await as('admin'), plan.Id);
    expect([other.status, other.error.ErrorCode]).toEqual([403, 1194]);
    const c = await act('bulkCancel', s, plan.Id);
    expect(c.status, c.raw.body).toBe(200);
    expect(c.body.Data.State).toBe('cancelled');
    expect(await runBulkJobs(app().ctx)).toBe(0);
    const after = await job(s, plan.Id);
    expect(after.Progress).toEqual({ Changed: 1, Refused: 0, Cancelled: 3, Pending: 0 });
    expect(await statuses(appIds)).toEqual(['inactive', 'active', 'active', 'active']);
    const twice = await act('bulkCancel', s, plan.Id);
    expect([twice.status, twice.error.ErrorCode]).toEqual([409, 1191]);
  });

  it('wakes the runner when a job is queued, never by the runner’s own claims', async () => {
    let wakes = 0;
    const off = app().db.onNotification?.('sac_bulk_due', () => wakes++) ?? (() => {});
    const settle = () => new Promise((r) => setTimeout(r, 300));
    try {
      await runBulkJobs(app().ctx);
      await runBulkJobs(app().ctx);
      await settle();
      expect(wakes).toBe(0);
      const s = await as('first');
      const { uid } = await sitesOf(1);
      const plan = await dryRun(s, { Action: 'site.deactivate', Uid: uid, Selection: { Kind: 'all' } });
      await settle();
      expect(wakes).toBe(0);
      await act('bulkRun', s, plan.Id);
      await settle();
      expect(wakes).toBe(1);
      await runBulkJobs(app().ctx);
      await settle();
      expect(wakes).toBe(1);
    } finally {
      off();
    }
  });

  it('asks for a step-up to run, and runs only its requester’s plan', async () => {
    const s = await as('first');
    const { uid } = await sitesOf(1);
    const plan = await dryRun(s, { Action: 'site.deactivate', Uid: uid, Selection: { Kind: 'all' } });
    const theirs = await act('bulkRun', await as('second'), plan.Id);
    expect([theirs.status, theirs.error.ErrorCode]).toEqual([403, 1194]);
    app().clock.advance(11 * 60_000);
    const stale = await act('bulkRun', s, plan.Id);
    expect([stale.status, stale.error.ErrorCode]).toEqual([403, 911]);
  });
});
