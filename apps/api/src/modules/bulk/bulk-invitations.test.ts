import type { BulkDryRunBody } from '@sac/contract/bulk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import {
  acceptInvitation,
  invitationMails,
  invitationToken,
  inviteeOf,
} from '../../../test/invitation-fixtures.ts';
import { loadConfig } from '../../config.ts';
import { runBulkJobs } from './bulk.service.ts';

type S = { xtoken: string; xsign: string };
type InvitationsBody = Extract<BulkDryRunBody, { Action: 'invitation.resend' }>;
let t: TestApp;
let n = 0;

/** Small bounds, so the tests reach them: at most 12 items, approval over 4. */
beforeAll(async () => {
  t = await createTestApp({ bulk: { ...loadConfig({}).bulk, maxItems: 12, approvalOver: 4 } });
  await t.addStaff('first@example.com', ['SuperAdmin']);
  await t.addStaff('second@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
  await t.addStaff('support@example.com', ['Support']);
});
afterAll(() => t.close());

const as = (who: string) => t.login(`${who}@example.com`);

/** A member invited by the first SuperAdmin with `roles`, their invitation pending. */
const invitee = async (roles = ['Support']) =>
  inviteeOf(t, await as('first'), `inv${++n}@example.com`, roles);
const waitMails = (email: string, count: number) => invitationMails(t, email, count);
const accept = (token: string) => acceptInvitation(t, token);

async function dryRun(session: S, body: InvitationsBody) {
  const r = await t.call('bulkInvitationsDryRun', { session, body });
  expect(r.status, r.raw.body).toBe(200);
  return r.body.Data;
}
const job = async (session: S, id: number) => {
  const r = await t.call('bulkJob', { session, query: { id: String(id) } });
  expect(r.status, r.raw.body).toBe(200);
  return r.body.Data;
};
const run = async (session: S, id: number) => {
  const r = await t.call('bulkRun', { session, body: { Id: id } });
  expect(r.status, r.raw.body).toBe(200);
  await runBulkJobs(t.ctx);
  return job(session, id);
};
const uidOf = async (email: string) =>
  (await t.db.query<{ uid: string }>('SELECT uid FROM staff WHERE email = $1', [email])).rows[0]!.uid;

describe('bulk resend of invitations on the team list', () => {
  it('resends the pending ones through the single resend; refuses accepted, deactivated and changed-since members', async () => {
    const boss = await as('first');
    const a = await invitee();
    const b = await invitee();
    const c = await invitee();
    const gone = await invitee();
    await t.db.query('UPDATE staff SET deactivated_at = now() WHERE uid = $1', [gone.uid]);
    const accepted = await uidOf('support@example.com');
    const plan = await dryRun(boss, {
      Action: 'invitation.resend',
      Selection: { Kind: 'rows', Uids: [a.uid, b.uid, c.uid, accepted, gone.uid] },
    });
    expect(plan).toMatchObject({ List: 'team-invitations', Uid: null, Count: 5, ApprovalNeeded: true });
    expect(plan.Items.map((i) => [i.Key, i.Planned, i.PlannedReason])).toEqual([
      [a.uid, 'change', null],
      [b.uid, 'change', null],
      [c.uid, 'change', null],
      [accepted, 'refuse', 'Not a pending invitee: they accepted their invitation already.'],
      [gone.uid, 'refuse', 'Deactivated: an invitation cannot be sent to them.'],
    ]);
    // meanwhile: b's roles change (another SuperAdmin), c accepts their invitation
    const changed = await t.call('teamUpdateRoles', {
      session: await as('second'),
      body: { role: ['Auditor'], uid: b.uid, unAssignRoles: ['Support'] },
    });
    expect(changed.status, changed.raw.body).toBe(200);
    expect((await accept(c.token)).status).toBe(200);
    expect((await t.call('bulkRun', { session: boss, body: { Id: plan.Id } })).body.Data.State).toBe(
      'awaiting-approval',
    );
    expect((await t.call('bulkApprove', { session: await as('second'), body: { Id: plan.Id } })).status).toBe(
      200,
    );
    await runBulkJobs(t.ctx);
    const done = await job(boss, plan.Id);
    expect(done.Items.map((i) => [i.Key, i.Outcome, i.OutcomeReason])).toEqual([
      [a.uid, 'changed', null],
      [b.uid, 'refused', 'Changed by someone else since the dry run (version 0, now 1).'],
      [c.uid, 'refused', 'Its invitation changed since the dry run (it was pending, it is accepted).'],
      [accepted, 'refused', 'Not a pending invitee: they accepted their invitation already.'],
      [gone.uid, 'refused', 'Deactivated: an invitation cannot be sent to them.'],
    ]);
    expect(done.UndoUntil).toBeNull();
    // a's invitation was mailed again, with a new link; the old one is void
    const fresh = await invitationToken(t, a.email, 2);
    expect(fresh).not.toBe(a.token);
    expect((await accept(a.token)).error.ErrorCode).toBe(905);
    expect((await accept(fresh)).status).toBe(200);
    expect((await waitMails(b.email, 1)).length).toBe(1);
    const trail = await t.db.query<{ action: string; target_id: string }>(
      "SELECT action, target_id FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(plan.Id)],
    );
    expect(trail.rows.map((r) => [r.action, r.target_id])).toEqual([
      ['bulk.start', String(plan.Id)],
      ['bulk.approve', String(plan.Id)],
      ['team.invite.resend', a.uid],
    ]);
  });

  it("keeps to the actor's rights: an Admin's plan refuses an invited SuperAdmin and Admin; Support may not", async () => {
    const admin = await as('admin');
    const support = await invitee(['Support']);
    const superAdmin = await invitee(['Admin']);
    await t.db.query("UPDATE staff_roles SET role = 'SuperAdmin' WHERE uid = $1", [superAdmin.uid]);
    const plan = await dryRun(admin, {
      Action: 'invitation.resend',
      Selection: { Kind: 'rows', Uids: [support.uid, superAdmin.uid] },
    });
    expect(plan.Items.map((i) => [i.Planned, i.PlannedReason])).toEqual([
      ['change', null],
      ['refuse', "Outside your rights: you may not manage this member's account."],
    ]);
    const done = await run(admin, plan.Id);
    expect(done.Progress).toEqual({ Changed: 1, Refused: 1, Cancelled: 0, Pending: 0 });
    expect(done.Items.map((i) => i.OutcomeReason)).toEqual([null, plan.Items[1]!.PlannedReason]);
    const refused = await t.call('bulkInvitationsDryRun', {
      session: await as('support'),
      body: { Action: 'invitation.resend', Selection: { Kind: 'all' } },
    });
    expect(refused.status).toBe(403);
    // a job of the team list is not a Support's to read
    expect(
      (await t.call('bulkJob', { session: await as('support'), query: { id: String(plan.Id) } })).status,
    ).toBe(403);
  });

  it("refuses the actor's own account as the single resend does: with the resend's refusal (1197)", async () => {
    const boss = await as('first');
    const own = await uidOf('first@example.com');
    const other = await invitee();
    const plan = await dryRun(boss, {
      Action: 'invitation.resend',
      Selection: { Kind: 'rows', Uids: [own, other.uid] },
    });
    const single = await t.call('teamResendInvitation', { session: boss, body: { uid: own } });
    expect([single.status, single.error.ErrorCode]).toEqual([403, 1197]);
    expect(plan.Items.map((i) => [i.Planned, i.PlannedReason])).toEqual([
      ['refuse', single.error.Description],
      ['change', null],
    ]);
    const done = await run(boss, plan.Id);
    expect(done.Items.map((i) => [i.Outcome, i.OutcomeReason])).toEqual([
      ['refused', single.error.Description],
      ['changed', null],
    ]);
  });

  it('plans every member the list shows for "all", bounded by BULK_MAX_ITEMS', async () => {
    const boss = await as('first');
    const members = Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM staff')).rows[0]!.n);
    expect(members).toBeLessThanOrEqual(12);
    const plan = await dryRun(boss, { Action: 'invitation.resend', Selection: { Kind: 'all' } });
    expect(plan.Count).toBe(members);
    const pending = Number(
      (
        await t.db.query<{ n: string }>(
          'SELECT count(*) AS n FROM staff WHERE invitation_pending AND deactivated_at IS NULL',
        )
      ).rows[0]!.n,
    );
    expect(plan.Planned.Change).toBe(pending);
    while ((await t.db.query('SELECT 1 FROM staff')).rows.length <= 12) await invitee();
    const big = await t.call('bulkInvitationsDryRun', {
      session: boss,
      body: { Action: 'invitation.resend', Selection: { Kind: 'all' } },
    });
    expect([big.status, big.error.ErrorCode]).toEqual([400, 1190]);
    expect(big.error.Description).toContain('more than 12 members');
  });

  it("holds a SuperAdmin invitee for the actor's SuperAdmin cool-down, in the dry run and under the lock", async () => {
    const boss = await as('first');
    const rising = await t.addStaff('rising@example.com', ['Admin']);
    const promoted = await t.call('teamUpdateRoles', {
      session: boss,
      body: { role: ['SuperAdmin'], uid: rising, unAssignRoles: ['Admin'] },
    });
    expect(promoted.status, promoted.raw.body).toBe(200);
    const [superAdmin, other] = [await invitee(['SuperAdmin']), await invitee()];
    const newcomer = await as('rising');
    const plan = await dryRun(newcomer, {
      Action: 'invitation.resend',
      Selection: { Kind: 'rows', Uids: [superAdmin.uid, other.uid] },
    });
    expect(plan.Items.map((i) => i.Planned)).toEqual(['refuse', 'change']);
    const single = await t.call('teamResendInvitation', { session: newcomer, body: { uid: superAdmin.uid } });
    expect([single.status, single.error.ErrorCode]).toEqual([403, 948]);
    expect(plan.Items[0]!.PlannedReason).toBe(single.error.Description);

    // a settled SuperAdmin plans it; they become a new SuperAdmin again before the run
    const settled = await t.addStaff('settled@example.com', ['SuperAdmin']);
    const later = await dryRun(await as('settled'), {
      Action: 'invitation.resend',
      Selection: { Kind: 'rows', Uids: [superAdmin.uid] },
    });
    expect(later.Items.map((i) => i.Planned)).toEqual(['change']);
    const started = await t.call('bulkRun', { session: await as('settled'), body: { Id: later.Id } });
    expect(started.body.Data.State).toBe('queued');
    await t.db.query("UPDATE staff_roles SET granted_at = $2 WHERE uid = $1 AND role = 'SuperAdmin'", [
      settled,
      t.clock.now(),
    ]);
    await runBulkJobs(t.ctx);
    const done = await job(boss, later.Id);
    expect(done.Items.map((i) => i.Outcome)).toEqual(['refused']);
    expect(done.Items[0]!.OutcomeReason).toMatch(/^You became a SuperAdmin on .* cool-down/);
    const trail = await t.db.query<{ action: string }>(
      "SELECT action FROM activity_log WHERE details->>'bulkJob' = $1 ORDER BY id",
      [String(later.Id)],
    );
    expect(trail.rows.map((r) => r.action)).toEqual(['bulk.start']);
  });
});
