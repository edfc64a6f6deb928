import type { BulkDryRunBody } from '@sac/contract/bulk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertGrant, insertRequest } from '../../../test/impersonation-fixtures.ts';
import { loadConfig } from '../../config.ts';
import { runBulkJobs } from './bulk.service.ts';

type S = { xtoken: string; xsign: string };
type RequestsBody = Extract<BulkDryRunBody, { Action: 'request.revoke' | 'request.reject' }>;
let t: TestApp;
let owner = '';
let requesterUid = '';
let n = 0;

/** Small bounds, so the tests reach them: at most 12 items, approval over 4. */
beforeAll(async () => {
  t = await createTestApp({ bulk: { ...loadConfig({}).bulk, maxItems: 12, approvalOver: 4 } });
  await t.addStaff('first@example.com', ['SuperAdmin']);
  await t.addStaff('second@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
  requesterUid = await t.addStaff('req@example.com', ['Support']);
  owner = await insertCustomer(t.db, { first: 'O', last: 'Wner', email: 'owner@bulk.example' });
});
afterAll(() => t.close());

const as = (who: 'first' | 'second' | 'admin') => t.login(`${who}@example.com`);
const site = async () => (await insertSite(t.db, { owner, name: `req-${++n}` })).appId;
/** A pending request of req@ on a fresh site. */
const pending = async (initiator = 'req@example.com') =>
  (
    await insertRequest(t.db, {
      appId: await site(),
      initiator,
      assignees: ['first@example.com'],
      consent: 'granted',
      at: t.clock.now(),
    })
  ).id;
/** A live grant of req@ on a fresh site. */
const grant = async (minutes = 60) =>
  insertGrant(t.db, {
    appId: await site(),
    initiatorUid: requesterUid,
    initiatorEmail: 'req@example.com',
    roles: ['Developer'],
    now: t.clock.now(),
    minutes,
  });

const statuses = async (ids: number[]) =>
  (
    await t.db.query<{ status: string }>(
      'SELECT status FROM impersonation_requests WHERE id = ANY($1) ORDER BY id',
      [ids],
    )
  ).rows.map((r) => r.status);

async function dryRun(session: S, body: RequestsBody) {
  const r = await t.call('bulkRequestsDryRun', { session, body });
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
const outcomes = (j: Awaited<ReturnType<typeof job>>) =>
  j.Items.map((i) => [i.Target, i.Outcome, i.OutcomeReason ?? i.PlannedReason]);

describe('bulk actions on the impersonation requests', () => {
  it('rejects all the list shows under its filter; over BULK_APPROVAL_OVER a second SuperAdmin approves', async () => {
    const s = await as('first');
    const ids = [await pending(), await pending(), await pending(), await pending(), await pending()];
    // an approved grant is not in the Pending filter
    await grant();
    const plan = await dryRun(s, { Action: 'request.reject', Selection: { Kind: 'all', Status: 'Pending' } });
    expect(plan).toMatchObject({ List: 'impersonation-requests', Uid: null, Count: 5, Bound: 12 });
    expect(plan).toMatchObject({ ApprovalNeeded: true, UndoUntil: null });
    expect(plan.Planned).toEqual({ Change: 5, Refuse: 0 });
    expect(plan.Items.map((i) => i.Target).sort()).toEqual([...ids].sort());
    expect((await act('bulkRun', s, plan.Id)).body.Data.State).toBe('awaiting-approval');
    const own = await act('bulkApprove', s, plan.Id);
    expect([own.status, own.error.ErrorCode]).toEqual([403, 1192]);
    expect(await runBulkJobs(t.ctx)).toBe(0);
    expect(await statuses(ids)).toEqual(Array(5).fill('Pending'));
    expect((await act('bulkApprove', await as('second'), plan.Id)).status).toBe(200);
    expect(await runBulkJobs(t.ctx)).toBe(5);
    const done = await job(s, plan.Id);
    expect(done.Progress).toEqual({ Changed: 5, Refused: 0, Cancelled: 0, Pending: 0 });
    expect(await statuses(ids)).toEqual(Array(5).fill('Rejected'));
    // not reversible: no undo
    expect(done.UndoUntil).toBeNull();
    const undo = await act('bulkUndo', s, plan.Id);
    expect([undo.status, undo.error.ErrorCode]).toEqual([409, 1195]);
  });

  it('revokes live grants through the single revocation: its log and trail rows name the job, the holder is told', async () => {
    const s = await as('first');
    const live = [await grant(), await grant()];
    const waiting = await pending();
    const expired = await grant(1);
    t.clock.advance(2 * 60_000);
    const plan = await dryRun(s, {
      Action: 'request.revoke',
      Selection: { Kind: 'rows', Ids: [...live, waiting, expired, 999_999] },
      Comments: 'Incident 42',
    });
    expect(plan.Planned).toEqual({ Change: 2, Refuse: 3 });
    expect(plan.Items.map((i) => [i.Target, i.Planned, i.PlannedReason])).toEqual([
      [live[0], 'change', null],
      [live[1], 'change', null],
      [waiting, 'refuse', 'Only an approved request can be revoked.'],
      [expired, 'refuse', 'This request has expired.'],
      [999_999, 'refuse', 'No such request (any more): deleted, or never made.'],
    ]);
    expect(plan.ApprovalNeeded).toBe(true);
    await act('bulkRun', s, plan.Id);
    await act('bulkApprove', await as('second'), plan.Id);
    await runBulkJobs(t.ctx);
    const done = await job(s, plan.Id);
    // the run did what the dry run said
    for (const i of done.Items) expect(i.Outcome).toBe(i.Planned === 'change' ? 'changed' : 'refused');
    expect(await statuses([...live, waiting])).toEqual(['Revoked', 'Revoked', 'Pending']);
    const log = await t.db.query<{
      request_id: string;
      event: string;
      details: { bulkJob?: number; Comments?: string };
    }>(
      "SELECT request_id, event, details FROM impersonation_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(plan.Id)],
    );
    expect(log.rows.map((r) => [Number(r.request_id), r.event, r.details.Comments])).toEqual([
      [live[0], 'revoke', 'Incident 42'],
      [live[1], 'revoke', 'Incident 42'],
    ]);
    const trail = await t.db.query<{ action: string }>(
      "SELECT action FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(plan.Id)],
    );
    expect(trail.rows.map((r) => r.action)).toEqual([
      'bulk.start',
      'bulk.approve',
      'impersonation.revoke',
      'impersonation.revoke',
    ]);
    const bell = await t.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM staff_notifications WHERE recipient_uid = $1 AND kind = 'revoked' AND request_id = ANY($2)",
      [requesterUid, live],
    );
    expect(Number(bell.rows[0]!.n)).toBe(2);
  });

  it('gives each rejection its comment, as the single rejection does: the requester reads it on their request', async () => {
    const s = await as('first');
    const ids = [await pending(), await pending()];
    const long = await t.call('bulkRequestsDryRun', {
      session: s,
      body: { Action: 'request.reject', Selection: { Kind: 'rows', Ids: ids }, Comments: 'x'.repeat(2001) },
    });
    expect([long.status, long.error.FieldErrors?.[0]?.Field]).toEqual([400, 'Comments']);
    const plan = await dryRun(s, {
      Action: 'request.reject',
      Selection: { Kind: 'rows', Ids: ids },
      Comments: '  Duplicate of the request made on Monday.  ',
    });
    await act('bulkRun', s, plan.Id);
    await runBulkJobs(t.ctx);
    const requester = await t.login('req@example.com');
    for (const id of ids) {
      const read = await t.call('impersonationList', {
        session: requester,
        query: { requestId: String(id) },
      });
      expect(read.body.Data[0]!.Action).toMatchObject({
        Status: 'Rejected',
        Reason: 'Duplicate of the request made on Monday.',
      });
    }
    const log = await t.db.query<{ details: { Comments?: string } }>(
      "SELECT details FROM impersonation_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(plan.Id)],
    );
    expect(log.rows.map((r) => r.details.Comments)).toEqual(
      Array(2).fill('Duplicate of the request made on Monday.'),
    );
  });

  it('refuses an item a single decision or edit changed since the dry run, saying why, and runs the rest', async () => {
    const s = await as('first');
    const [a, b, c] = [await pending(), await pending(), await pending()];
    const plan = await dryRun(s, { Action: 'request.reject', Selection: { Kind: 'rows', Ids: [a, b, c] } });
    expect(plan.Planned).toEqual({ Change: 3, Refuse: 0 });
    // meanwhile another SuperAdmin rejects one by hand, and the requester edits another
    const single = await t.call('impersonationAction', {
      session: await as('second'),
      query: { requestId: String(a) },
      body: { Status: 'Reject', Comments: 'by hand' },
    });
    expect(single.status, single.raw.body).toBe(200);
    await t.db.query(
      "UPDATE impersonation_requests SET description = 'edited', version = version + 1 WHERE id = $1",
      [b],
    );
    await act('bulkRun', s, plan.Id);
    await runBulkJobs(t.ctx);
    expect(outcomes(await job(s, plan.Id))).toEqual([
      [a, 'refused', 'Changed by someone else since the dry run (version 1, now 2).'],
      [b, 'refused', 'Changed by someone else since the dry run (version 1, now 2).'],
      [c, 'changed', null],
    ]);
    const reason = await t.db.query<{ reason: string }>(
      'SELECT reason FROM impersonation_requests WHERE id = $1',
      [a],
    );
    expect(reason.rows[0]!.reason).toBe('by hand');
    expect(await statuses([a, b, c])).toEqual(['Rejected', 'Pending', 'Rejected']);
  });

  it('leaves one’s own request to another approver, as the single rejection does', async () => {
    const s = await as('first');
    const mine = await pending('first@example.com');
    const theirs = await pending();
    const plan = await dryRun(s, {
      Action: 'request.reject',
      Selection: { Kind: 'rows', Ids: [mine, theirs] },
    });
    expect(plan.Items.map((i) => [i.Target, i.Planned, i.PlannedReason])).toEqual([
      [mine, 'refuse', 'You cannot approve or reject your own request.'],
      [theirs, 'change', null],
    ]);
    await act('bulkRun', s, plan.Id);
    await runBulkJobs(t.ctx);
    expect(await statuses([mine, theirs])).toEqual(['Pending', 'Rejected']);
  });

  it('keeps a scoped approver to the sites of their scope, in the dry run and in the run', async () => {
    await t.db.query(
      "INSERT INTO roles (name, permissions, scope_data_centers) VALUES ('eu-approver', $1, '{eu-central}')",
      [['impersonation.request', 'impersonation.approve']],
    );
    await t.addStaff('scoped@example.com', ['eu-approver']);
    const scoped = await t.login('scoped@example.com');
    const [inside, outside, movesOut] = [await pending(), await pending(), await pending()];
    const siteOf = async (id: number) =>
      (await t.db.query<{ app_id: string }>('SELECT app_id FROM impersonation_requests WHERE id = $1', [id]))
        .rows[0]!.app_id;
    await t.db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [await siteOf(outside)]);
    const plan = await dryRun(scoped, {
      Action: 'request.reject',
      Selection: { Kind: 'rows', Ids: [inside, outside, movesOut] },
    });
    const outOfScope = "Outside your role's scope (data center or plan).";
    expect(plan.Items.map((i) => [i.Target, i.Planned, i.PlannedReason])).toEqual([
      [inside, 'change', null],
      [outside, 'refuse', outOfScope],
      [movesOut, 'change', null],
    ]);
    // the site of one moves out of the approver's scope before the run
    await t.db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [await siteOf(movesOut)]);
    await act('bulkRun', scoped, plan.Id);
    await runBulkJobs(t.ctx);
    expect(outcomes(await job(scoped, plan.Id))).toEqual([
      [inside, 'changed', null],
      [outside, 'refused', outOfScope],
      [movesOut, 'refused', outOfScope],
    ]);
    expect(await statuses([inside, outside, movesOut])).toEqual(['Rejected', 'Pending', 'Pending']);
  });

  it('refuses a selection over BULK_MAX_ITEMS, naming the bound', async () => {
    const s = await as('first');
    for (let i = 0; i < 13; i++) await pending();
    const r = await t.call('bulkRequestsDryRun', {
      session: s,
      body: { Action: 'request.reject', Selection: { Kind: 'all', Status: 'Pending' } },
    });
    expect([r.status, r.error.ErrorCode]).toEqual([400, 1190]);
    expect(r.error.Description).toContain('more than 12 requests');
  });

  it('is the approvers’: others may neither plan nor handle a job of the requests', async () => {
    const admin = await as('admin');
    const id = await pending();
    const plan = await t.call('bulkRequestsDryRun', {
      session: admin,
      body: { Action: 'request.reject', Selection: { Kind: 'rows', Ids: [id] } },
    });
    expect(plan.status).toBe(403);
    const s = await as('first');
    const mine = await dryRun(s, { Action: 'request.reject', Selection: { Kind: 'rows', Ids: [id] } });
    for (const call of ['bulkRun', 'bulkCancel'] as const) {
      const r = await act(call, admin, mine.Id);
      expect([r.status, r.error.ErrorCode]).toEqual([403, 902]);
    }
    const read = await t.call('bulkJob', { session: admin, query: { id: String(mine.Id) } });
    expect([read.status, read.error.ErrorCode]).toEqual([403, 902]);
    expect(await statuses([id])).toEqual(['Pending']);
  });
});
