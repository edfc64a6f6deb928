import type { BulkDryRunBody } from '@sac/contract/bulk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { loadConfig } from '../../config.ts';
import { runBulkJobs } from './bulk.service.ts';

type S = { xtoken: string; xsign: string };
type SessionsBody = Extract<BulkDryRunBody, { Action: 'session.end' }>;
let t: TestApp;
let n = 0;

/** Small bounds, so the tests reach them: at most 12 items, approval over 4. */
beforeAll(async () => {
  t = await createTestApp({ bulk: { ...loadConfig({}).bulk, maxItems: 12, approvalOver: 4 } });
  await t.addStaff('first@example.com', ['SuperAdmin']);
  await t.addStaff('second@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
});
afterAll(() => t.close());

const as = (who: string) => t.login(`${who}@example.com`);
/** A fresh colleague with `count` live sessions: their uid and sessions, oldest first. */
async function colleague(count: number, roles = ['Support']) {
  const email = `c${++n}@example.com`;
  const uid = await t.addStaff(email, roles);
  const sessions: S[] = [];
  for (let i = 0; i < count; i++) sessions.push(await t.login(email, undefined, `192.0.2.${i + 1}`));
  const ids = (
    await t.db.query<{ id: string }>(
      'SELECT id FROM staff_sessions WHERE uid = $1 AND revoked_at IS NULL ORDER BY id',
      [uid],
    )
  ).rows.map((r) => Number(r.id));
  return { uid, sessions, ids };
}
const works = async (s: S) => (await t.call('session', { session: s })).status === 200;

async function dryRun(session: S, body: SessionsBody) {
  const r = await t.call('bulkSessionsDryRun', { session, body });
  expect(r.status, r.raw.body).toBe(200);
  return r.body.Data;
}
const job = async (session: S, id: number) => {
  const r = await t.call('bulkJob', { session, query: { id: String(id) } });
  expect(r.status, r.raw.body).toBe(200);
  return r.body.Data;
};
const act = (id: 'bulkRun' | 'bulkApprove' | 'bulkUndo', session: S, Id: number) =>
  t.call(id, { session, body: { Id } });

describe("bulk end of a colleague's sessions", () => {
  it('ends the sessions picked through the single end, refusing one ended meanwhile', async () => {
    const boss = await as('first');
    const c = await colleague(3);
    const [a, b] = c.ids as [number, number, number];
    const plan = await dryRun(boss, {
      Action: 'session.end',
      StaffUid: c.uid,
      Selection: { Kind: 'rows', Ids: [a, b] },
    });
    expect(plan).toMatchObject({ List: 'staff-sessions', StaffUid: c.uid, Uid: null, ApprovalNeeded: false });
    expect(plan.Planned).toEqual({ Change: 2, Refuse: 0 });
    // meanwhile another SuperAdmin ends one of them by hand
    const single = await t.call('endStaffSessions', {
      session: await as('second'),
      body: { uid: c.uid, Id: b },
    });
    expect(single.status, single.raw.body).toBe(200);
    expect((await act('bulkRun', boss, plan.Id)).body.Data.State).toBe('queued');
    await runBulkJobs(t.ctx);
    const done = await job(boss, plan.Id);
    expect(done.Items.map((i) => [i.Target, i.Outcome, i.OutcomeReason])).toEqual([
      [a, 'changed', null],
      [b, 'refused', 'Not a live session of this staff member (any more): it has ended.'],
    ]);
    expect(done.UndoUntil).toBeNull();
    expect([await works(c.sessions[0]!), await works(c.sessions[1]!), await works(c.sessions[2]!)]).toEqual([
      false,
      false,
      true,
    ]);
    const trail = await t.db.query<{ action: string; details: { sessionId?: number } }>(
      "SELECT action, details FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(plan.Id)],
    );
    expect(trail.rows.map((r) => [r.action, r.details.sessionId ?? null])).toEqual([
      ['bulk.start', null],
      ['session.end', a],
    ]);
  });

  it('ends all their live sessions; over BULK_APPROVAL_OVER a second SuperAdmin approves', async () => {
    const boss = await as('first');
    const c = await colleague(5);
    const plan = await dryRun(boss, { Action: 'session.end', StaffUid: c.uid, Selection: { Kind: 'all' } });
    expect(plan).toMatchObject({ Count: 5, ApprovalNeeded: true });
    expect((await act('bulkRun', boss, plan.Id)).body.Data.State).toBe('awaiting-approval');
    const own = await act('bulkApprove', boss, plan.Id);
    expect([own.status, own.error.ErrorCode]).toEqual([403, 1192]);
    expect(await runBulkJobs(t.ctx)).toBe(0);
    expect(await works(c.sessions[4]!)).toBe(true);
    expect((await act('bulkApprove', await as('second'), plan.Id)).status).toBe(200);
    await runBulkJobs(t.ctx);
    expect((await job(boss, plan.Id)).Progress).toEqual({ Changed: 5, Refused: 0, Cancelled: 0, Pending: 0 });
    for (const s of c.sessions) expect(await works(s)).toBe(false);
  });

  it('refuses every session of a SuperAdmin while the actor is in the cool-down, as the single end does', async () => {
    const rising = await colleague(0, ['Admin']);
    const promoted = await t.call('teamUpdateRoles', {
      session: await as('first'),
      body: { role: ['SuperAdmin'], uid: rising.uid, unAssignRoles: ['Admin'] },
    });
    expect(promoted.status, promoted.raw.body).toBe(200);
    const newcomer = await t.login(`c${n}@example.com`);
    const target = await colleague(2, ['SuperAdmin']);
    const plan = await dryRun(newcomer, {
      Action: 'session.end',
      StaffUid: target.uid,
      Selection: { Kind: 'all' },
    });
    expect(plan.Planned).toEqual({ Change: 0, Refuse: 2 });
    expect(plan.Items[0]!.PlannedReason).toMatch(/cool/i);
    const single = await t.call('endStaffSessions', {
      session: newcomer,
      body: { uid: target.uid, Id: target.ids[0] },
    });
    expect(single.error.Description).toBe(plan.Items[0]!.PlannedReason);
  });

  it('is a SuperAdmin’s, of a colleague: refused to an Admin and on one’s own account; bounded', async () => {
    const c = await colleague(13);
    const admin = await t.call('bulkSessionsDryRun', {
      session: await as('admin'),
      body: { Action: 'session.end', StaffUid: c.uid, Selection: { Kind: 'all' } },
    });
    expect(admin.status).toBe(403);
    const boss = await as('first');
    const me = (await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'first@example.com'"))
      .rows[0]!.uid;
    const own = await t.call('bulkSessionsDryRun', {
      session: boss,
      body: { Action: 'session.end', StaffUid: me, Selection: { Kind: 'all' } },
    });
    expect(own.status).toBe(403);
    const big = await t.call('bulkSessionsDryRun', {
      session: boss,
      body: { Action: 'session.end', StaffUid: c.uid, Selection: { Kind: 'all' } },
    });
    expect([big.status, big.error.ErrorCode]).toEqual([400, 1190]);
    expect(big.error.Description).toContain('more than 12 sessions');
  });
});
