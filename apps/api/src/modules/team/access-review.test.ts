import { randomUUID } from 'node:crypto';
import { ACCESS_REVIEW_EXPORT_COLUMNS } from '@sac/contract/access-review';
import { HEADERS } from '@sac/contract/constants';
import { ENDPOINT_BUDGETS } from '@sac/contract/endpoint-budgets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { loadConfig } from '../../config.ts';
import { recordStatements } from '../../db/statement-log.ts';
import { periodicJobs } from '../../ops/periodic.ts';
import { insertStaff } from '../auth/staff.repo.ts';
import { AUTOMATIC_REVIEWER, expireOverdueRoles } from './access-review.service.ts';

type Session = { xtoken: string; xsign: string };
const DAY = 86_400_000;

/** A staff member's row of the team list, as a SuperAdmin reads it. */
async function row(t: TestApp, session: Session, uid: string) {
  const r = await t.call('teamList', { session });
  expect(r.status).toBe(200);
  return r.body.Data.find((u) => u.Uid === uid)!;
}

const decide = (t: TestApp, session: Session, Uid: string, Decision: string, version?: number) =>
  t.callLoose('teamReviewDecide', {
    session,
    body: { Uid, Decision },
    headers: version === undefined ? {} : { 'if-match': `"${version}"` },
  });

async function trail(t: TestApp, action: string, targetId: string) {
  const r = await t.db.query<{ actor_email: string | null; details: Record<string, unknown> }>(
    'SELECT actor_email, details FROM activity_log WHERE action = $1 AND target_id = $2 ORDER BY id',
    [action, targetId],
  );
  return r.rows;
}

describe('the review cycle, with the clock moved by hand', () => {
  let t: TestApp;
  let saUid: string;
  let memberUid: string;
  beforeAll(async () => {
    t = await createTestApp();
    saUid = await t.addStaff('sa@example.com', ['SuperAdmin']);
    await t.addStaff('sa2@example.com', ['SuperAdmin']);
    await t.addStaff('admin@example.com', ['Admin']);
    await t.addStaff('auditor@example.com', ['Auditor']);
    memberUid = await t.addStaff('member@example.com', ['Support']);
  });
  afterAll(() => t.close());

  it('a member is ok, then due 14 days before the deadline, then overdue; a confirmation starts the clock again', async () => {
    const start = t.clock.now();
    let sa = await t.login('sa@example.com');
    const fresh = await row(t, sa, memberUid);
    expect(fresh.Review).toEqual({
      State: 'ok',
      ConfirmedAt: null,
      ConfirmedBy: null,
      DueAt: new Date(start.getTime() + 90 * DAY).toISOString(),
    });
    expect((await t.call('dashboard', { session: sa })).body.AccessReview).toMatchObject({
      Days: 90,
      AutoRevoke: false,
      Due: 0,
      Overdue: 0,
      Items: [],
    });

    t.clock.advance(75 * DAY);
    sa = await t.login('sa@example.com');
    expect((await row(t, sa, memberUid)).Review!.State).toBe('ok');
    t.clock.advance(1 * DAY);
    sa = await t.login('sa@example.com');
    expect((await row(t, sa, memberUid)).Review!.State).toBe('due');
    const due = (await t.call('dashboard', { session: sa })).body.AccessReview!;
    // every account here was made at the same instant: all five are due
    expect(due).toMatchObject({ Due: 5, Overdue: 0 });
    expect(due.Items.map((i) => i.State)).toEqual(['due', 'due', 'due', 'due', 'due']);

    t.clock.advance(14 * DAY);
    sa = await t.login('sa@example.com');
    const overdue = await row(t, sa, memberUid);
    expect(overdue.Review!.State).toBe('overdue');
    expect((await t.call('dashboard', { session: sa })).body.AccessReview).toMatchObject({
      Due: 0,
      Overdue: 5,
    });

    const r = await decide(t, sa, memberUid, 'confirm', overdue.Version);
    expect(r.status, r.raw.body).toBe(200);
    const now = t.clock.now();
    expect(r.body.Data).toEqual({
      Uid: memberUid,
      Decision: 'confirm',
      Roles: ['Support'],
      Version: overdue.Version + 1,
      Review: {
        State: 'ok',
        ConfirmedAt: now.toISOString(),
        ConfirmedBy: 'sa@example.com',
        DueAt: new Date(now.getTime() + 90 * DAY).toISOString(),
      },
    });
    expect((await row(t, sa, memberUid)).Review!.State).toBe('ok');
    const after = (await t.call('dashboard', { session: sa })).body.AccessReview!;
    expect(after).toMatchObject({ Overdue: 4 });
    expect(after.Items.map((i) => i.Uid)).not.toContain(memberUid);
    expect(await trail(t, 'team.review.confirm', memberUid)).toEqual([
      { actor_email: 'sa@example.com', details: { email: 'member@example.com', roles: ['Support'] } },
    ]);
    // the member keeps their roles and their session: a confirmation changes nothing of the account
    const member = await t.login('member@example.com');
    expect((await t.call('session', { session: member })).status).toBe(200);
  });

  it('no one confirms their own roles, and only a SuperAdmin confirms anyone', async () => {
    const sa = await t.login('sa@example.com');
    const own = await decide(t, sa, saUid, 'confirm', (await row(t, sa, saUid)).Version);
    expect(own.status).toBe(403);
    expect(own.error.ErrorCode).toBe(1170);
    const version = (await row(t, sa, memberUid)).Version;
    const admin = await t.login('admin@example.com');
    const byAdmin = await decide(t, admin, memberUid, 'confirm', version);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.error.ErrorCode).toBe(902);
    expect((await decide(t, admin, memberUid, 'revoke')).error.ErrorCode).toBe(902);
    const auditor = await t.login('auditor@example.com');
    expect((await decide(t, auditor, memberUid, 'confirm', version)).status).toBe(403);
    // neither refusal left a decision in the trail
    expect(await trail(t, 'team.review.confirm', saUid)).toEqual([]);
    expect(await trail(t, 'team.review.revoke', memberUid)).toEqual([]);
  });

  it('a confirmation names the version it confirms, and roles changed meanwhile are not confirmed', async () => {
    const sa = await t.login('sa@example.com');
    const before = await row(t, sa, memberUid);
    const bare = await decide(t, sa, memberUid, 'confirm');
    expect(bare.status).toBe(400);
    expect(bare.error.ErrorCode).toBe(1172);
    // an Admin changes the roles after the reviewer read them
    const admin = await t.login('admin@example.com');
    const changed = await t.call('teamUpdateRoles', {
      session: admin,
      body: { role: ['Support'], uid: memberUid, unAssignRoles: [] },
    });
    expect(changed.status, changed.raw.body).toBe(200);
    const stale = await decide(t, sa, memberUid, 'confirm', before.Version);
    expect(stale.status).toBe(412);
    expect(stale.error.ErrorCode).toBe(930);
    // an Admin's role change is no confirmation: the review stands where it was
    expect((await row(t, sa, memberUid)).Review).toEqual(before.Review);
    const bad = await t.callLoose('teamReviewDecide', {
      session: sa,
      body: { Uid: memberUid, Decision: 'maybe' },
    });
    expect(bad.status).toBe(400);
    expect(bad.error.Description).toContain('Decision must be confirm or revoke.');
  });

  it("a SuperAdmin's role change counts as a confirmation", async () => {
    t.clock.advance(80 * DAY);
    const sa = await t.login('sa@example.com');
    expect((await row(t, sa, memberUid)).Review!.State).toBe('due');
    const r = await t.call('teamUpdateRoles', {
      session: sa,
      body: { role: ['Support'], uid: memberUid, unAssignRoles: [] },
    });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Data.Review).toMatchObject({
      State: 'ok',
      ConfirmedAt: t.clock.now().toISOString(),
      ConfirmedBy: 'sa@example.com',
    });
  });

  it('a revocation removes every role through the role change: sessions end at once; the trail keeps the roles', async () => {
    const sa = await t.login('sa@example.com');
    const member = await t.login('member@example.com');
    const version = (await row(t, sa, memberUid)).Version;
    // the revoke is held to the endpoint's budget too (statement-budgets.test.ts measures a confirm)
    const { out: r, counts } = await recordStatements(() => decide(t, sa, memberUid, 'revoke', version));
    expect(r.status, r.raw.body).toBe(200);
    expect(counts.statements).toBeGreaterThan(0);
    expect(counts.statements).toBeLessThanOrEqual(ENDPOINT_BUDGETS.teamReviewDecide.statements);
    expect(counts.commits).toBeLessThanOrEqual(ENDPOINT_BUDGETS.teamReviewDecide.commits);
    expect(r.body.Data).toMatchObject({ Decision: 'revoke', Roles: [], Review: { State: 'none' } });
    expect((await t.call('session', { session: member })).status).toBe(401);
    expect(await trail(t, 'team.review.revoke', memberUid)).toEqual([
      {
        actor_email: 'sa@example.com',
        details: { email: 'member@example.com', roles: ['Support'], sessionsEnded: 1 },
      },
    ]);
    // signed in again, the member holds no permission
    const again = await t.login('member@example.com');
    expect((await t.call('teamList', { session: again })).status).toBe(403);
    // with no roles there is nothing to review
    const nothing = await decide(t, sa, memberUid, 'confirm', r.body.Data.Version);
    expect(nothing.status).toBe(409);
    expect(nothing.error.ErrorCode).toBe(1171);
    expect((await row(t, sa, memberUid)).Review!.State).toBe('none');
  });

  it('exports every member with their review, for auditors, and records the export', async () => {
    const auditor = await t.login('auditor@example.com');
    const r = await t.call('teamReviewExport', { session: auditor });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="access-review-.*\.csv"$/);
    const lines = r.raw.body.trim().split('\r\n');
    expect(lines[0]).toBe(ACCESS_REVIEW_EXPORT_COLUMNS.join(','));
    expect(r.headers[HEADERS.exportRows]).toBe(String(lines.length - 1));
    expect(lines).toHaveLength(6);
    const member = lines.find((l) => l.startsWith(memberUid))!.split(',');
    expect(member.slice(1, 5)).toEqual(['member', 'member@example.com', 'no', '']);
    expect(member.at(-1)).toBe('none');
    const sa2 = lines.find((l) => l.includes('sa2@example.com'))!.split(',');
    expect(sa2[4]).toBe('SuperAdmin');
    expect(sa2.at(-1)).toBe('overdue');
    expect(sa2[6]).toBe(''); // never confirmed
    const rows = await t.db.query<{ actor_email: string; details: { rows: number } }>(
      "SELECT actor_email, details FROM activity_log WHERE action = 'access-review.export'",
    );
    expect(rows.rows).toEqual([{ actor_email: 'auditor@example.com', details: { rows: 5, days: 90 } }]);
    const admin = await t.login('admin@example.com');
    expect((await t.call('teamReviewExport', { session: admin })).status).toBe(403);
  });
});

describe('the automatic removal of overdue roles', () => {
  it('is off by default: no job, and overdue members keep their roles', async () => {
    const t = await createTestApp();
    try {
      expect(periodicJobs(t.ctx).map((j) => j.name)).not.toContain('access-review-expire');
      const uid = await t.addStaff('member@example.com', ['Support']);
      await t.addStaff('sa@example.com', ['SuperAdmin']);
      t.clock.advance(91 * DAY);
      expect(await expireOverdueRoles(t.ctx)).toBe(0);
      const sa = await t.login('sa@example.com');
      expect((await row(t, sa, uid)).Roles).toEqual(['Support']);
      expect(await trail(t, 'team.review.expire', uid)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('when on, removes the roles of overdue members only, never the last SuperAdmin, each a trail row', async () => {
    const t = await createTestApp({ accessReview: { days: 30, autoRevoke: true } });
    try {
      expect(periodicJobs(t.ctx).map((j) => j.name)).toContain('access-review-expire');
      const late = await t.addStaff('late@example.com', ['Support', 'Auditor']);
      const sa1 = await t.addStaff('sa1@example.com', ['SuperAdmin']);
      const sa2 = await t.addStaff('sa2@example.com', ['SuperAdmin']);
      t.clock.advance(20 * DAY);
      const recent = await t.addStaff('recent@example.com', ['Support']);
      const lateSession = await t.login('late@example.com');
      t.clock.advance(10 * DAY);
      expect(await expireOverdueRoles(t.ctx)).toBe(2); // late's and one SuperAdmin's
      const one = await t.login('sa1@example.com');
      const keeper =
        (await t.call('teamList', { session: one })).status === 200 ? one : await t.login('sa2@example.com');
      const list = (await t.call('teamList', { session: keeper })).body.Data;
      const rolesOf = (uid: string) => list.find((u) => u.Uid === uid)!.Roles;
      expect(rolesOf(late)).toEqual([]);
      expect(rolesOf(recent)).toEqual(['Support']);
      // one SuperAdmin stays: the console keeps someone who can give roles back
      expect([rolesOf(sa1), rolesOf(sa2)].filter((r) => r.includes('SuperAdmin'))).toHaveLength(1);
      expect((await t.call('session', { session: lateSession })).status).toBe(401);
      const rows = await trail(t, 'team.review.expire', late);
      expect(rows).toEqual([
        {
          actor_email: AUTOMATIC_REVIEWER,
          details: {
            email: 'late@example.com',
            roles: ['Auditor', 'Support'],
            dueAt: expect.stringMatching(/^\d{4}-/),
            days: 30,
            sessionsEnded: 1,
          },
        },
      ]);
      // the dashboard says so
      const board = (await t.call('dashboard', { session: keeper })).body.AccessReview!;
      expect(board).toMatchObject({ AutoRevoke: true, Days: 30, Overdue: 1 });
      // a second run finds nothing more to remove (the last SuperAdmin is kept, not retried into a loss)
      expect(await expireOverdueRoles(t.ctx)).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('the last SuperAdmin who can sign in', () => {
  it('keeps the role when the only other holder is an invitee who never accepted', async () => {
    const t = await createTestApp({ accessReview: { days: 30, autoRevoke: true } });
    try {
      const root = await t.addStaff('root@example.com', ['SuperAdmin']);
      t.clock.advance(DAY);
      const invitee = randomUUID();
      await insertStaff(t.db, {
        uid: invitee,
        email: 'invitee@example.com',
        fullName: 'Invitee',
        passwordHash: '!',
        roles: ['SuperAdmin'],
        at: t.clock.now(),
        invitationPending: true,
      } as never);
      t.clock.advance(40 * DAY); // both overdue
      await expireOverdueRoles(t.ctx);
      const roles = await t.db.query<{ uid: string; role: string }>('SELECT uid, role FROM staff_roles');
      expect(roles.rows.filter((r) => r.uid === root).map((r) => r.role)).toEqual(['SuperAdmin']);
      const s = await t.login('root@example.com');
      expect((await t.call('teamList', { session: s })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('ACCESS_REVIEW_* settings', () => {
  it('default to 90 days and off, and are checked at start', () => {
    expect(loadConfig({}).accessReview).toEqual({ days: 90, autoRevoke: false });
    expect(loadConfig({ ACCESS_REVIEW_DAYS: '30', ACCESS_REVIEW_AUTO_REVOKE: 'on' }).accessReview).toEqual({
      days: 30,
      autoRevoke: true,
    });
    for (const days of ['3', '1000', '12.5', 'ninety'])
      expect(() => loadConfig({ ACCESS_REVIEW_DAYS: days })).toThrow(
        /ACCESS_REVIEW_DAYS must be a whole number/,
      );
    expect(() => loadConfig({ ACCESS_REVIEW_AUTO_REVOKE: 'maybe' })).toThrow(/ACCESS_REVIEW_AUTO_REVOKE/);
  });
});
