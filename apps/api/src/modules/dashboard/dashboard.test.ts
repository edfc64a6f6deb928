import { randomUUID } from 'node:crypto';
import type { Dashboard } from '@sac/contract/dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { insertGrant, insertRequest } from '../../../test/impersonation-fixtures.ts';
import { base32Decode, totpCodeAt, totpStepOf } from '../../lib/totp.ts';
import { LOCKOUT_THRESHOLD } from '../auth/login-throttle.ts';
import { flushCustomerViews } from './dashboard.service.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S;
let ada: S;
let sam: S;
let audrey: S;
let samUid: string;
let owner: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('ada@example.com', ['Admin']);
  samUid = await t.addStaff('sam@example.com', ['Support']);
  await t.addStaff('audrey@example.com', ['Auditor']);
  await t.addStaff('victim@example.com', ['Support']);
  await signIn();
  owner = await insertCustomer(t.db, { first: 'Grace', last: 'Hopper', email: 'grace@customer.example' });
});
afterAll(() => t.close());

/** Signs everyone in again (after the clock moved past the sessions' idle expiry). */
async function signIn() {
  boss = await t.login('boss@example.com');
  ada = await t.login('ada@example.com');
  sam = await t.login('sam@example.com');
  audrey = await t.login('audrey@example.com');
}

async function dashboardOf(session: S): Promise<Dashboard> {
  const r = await t.call('dashboard', { session });
  expect(r.status, r.raw.body).toBe(200);
  return r.body;
}
const count = async (sql: string) => Number((await t.db.query<{ n: number }>(sql)).rows[0]!.n);
const newCustomer = (session: S, n: string) =>
  t.call('createCustomer', {
    session,
    body: {
      firstname: 'New',
      lastname: `Customer ${n}`,
      email: `new-${n}@customer.example`,
      organization: '',
      phone: '5551234567',
      timezone: 'America/New_York',
      appname: `new-site-${n}`,
    },
  });

describe('GET /admin/dashboard', () => {
  it('answers only the parts whose lists the viewer may read', async () => {
    const b = await dashboardOf(boss);
    expect(Object.keys(b).sort()).toEqual(
      [
        'AccessReview',
        'BreakGlassReview',
        'CustomDomains',
        'Customers',
        'GeneratedAt',
        'Impersonation',
        'RecentCustomers',
        'Sites',
        'StaffActivity',
        'StaffSignIns',
        'StaffWithoutSecondFactor',
      ].sort(),
    );
    expect(b.Impersonation?.AwaitingMyDecision).toBeDefined();
    const a = await dashboardOf(ada);
    expect(a.StaffSignIns).toBeUndefined();
    expect(a.StaffWithoutSecondFactor).toBeUndefined();
    // the access review is decided by SuperAdmins alone, so only they are shown who is due
    expect(a.AccessReview).toBeUndefined();
    // so is the break-glass review queue: another SuperAdmin closes each review
    expect(a.BreakGlassReview).toBeUndefined();
    expect(a.Impersonation?.AwaitingMyDecision).toBeUndefined();
    expect(a.Customers && a.Sites && a.CustomDomains && a.RecentCustomers).toBeTruthy();
    const s = await dashboardOf(sam);
    expect(Object.keys(s).sort()).toEqual(
      ['CustomDomains', 'Customers', 'GeneratedAt', 'Impersonation', 'RecentCustomers', 'Sites'].sort(),
    );
    expect(s.Impersonation?.AwaitingMyDecision).toBeUndefined();
    const au = await dashboardOf(audrey);
    expect(Object.keys(au).sort()).toEqual(['GeneratedAt', 'StaffActivity', 'StaffSignIns']);
    expect(a.StaffActivity).toBeUndefined();
    expect(s.StaffActivity).toBeUndefined();
  });

  it('counts customers and sites per day, by plan and by data center, right after writes', async () => {
    const before = await dashboardOf(ada);
    const r = await newCustomer(ada, 'one');
    expect(r.status, r.raw.body).toBe(200);
    const { Customer, Site } = r.body.Data;
    const after = await dashboardOf(ada);
    expect(after.Customers!.Total).toBe(before.Customers!.Total + 1);
    expect(after.Sites!.Total).toBe(before.Sites!.Total + 1);
    expect(after.Customers!.NewByDay).toHaveLength(30);
    expect(after.Customers!.NewByDay.at(-1)).toEqual({
      Day: '2026-01-15',
      Count: before.Customers!.NewByDay.at(-1)!.Count + 1,
    });
    expect(after.Sites!.NewByDay.at(-1)!.Count).toBe(before.Sites!.NewByDay.at(-1)!.Count + 1);
    const plan = (d: Dashboard, p: string) => d.Sites!.ByPlan.find((x) => x.Plan === p)?.Count ?? 0;
    const dc = (d: Dashboard, c: string) => d.Sites!.ByDataCenter.find((x) => x.Code === c)?.Count ?? 0;
    const newPlan = (
      await t.db.query<{ plan: string }>('SELECT plan FROM sites WHERE app_id = $1', [Site.appId])
    ).rows[0]!.plan;
    expect(plan(after, newPlan)).toBe(plan(before, newPlan) + 1);
    expect(after.Sites!.ByPlan.map((p) => p.Plan)).toEqual(['Free', 'Developer', 'Developer Premium']);

    // The data-center step moves it between data centers.
    const set = await t.call('updateSiteDataCenter', {
      session: ada,
      query: { userId: Customer.Uid, appId: String(Site.appId) },
      body: { Source: 'global-server', GlobalServer: 'usw-shared-1', DbName: 'one_db' },
    });
    expect(set.status, set.raw.body).toBe(200);
    const moved = await dashboardOf(ada);
    expect(dc(moved, 'us-west')).toBe(dc(after, 'us-west') + 1);
    expect(moved.Sites!.ByDataCenter.find((x) => x.Code === 'us-west')?.Name).toBe('US West (Oregon)');
    // A change of plan moves it between plans; totals stay.
    await t.db.query(`UPDATE sites SET plan = 'Developer Premium' WHERE app_id = $1`, [Site.appId]);
    const upgraded = await dashboardOf(ada);
    expect(plan(upgraded, 'Developer Premium')).toBe(
      plan(after, 'Developer Premium') + (newPlan === 'Developer Premium' ? 0 : 1),
    );
    expect(upgraded.Sites!.Total).toBe(after.Sites!.Total);
    // Every counter agrees with a count of the tables.
    expect(upgraded.Customers!.Total).toBe(await count('SELECT count(*) AS n FROM customers'));
    expect(upgraded.Sites!.Total).toBe(await count('SELECT count(*) AS n FROM sites'));
    for (const p of upgraded.Sites!.ByPlan) {
      expect(p.Count).toBe(await count(`SELECT count(*) AS n FROM sites WHERE plan = '${p.Plan}'`));
    }
  });

  it('keeps the counters exact under concurrent creates', async () => {
    const before = await dashboardOf(ada);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => newCustomer(ada, `burst-${i}-${randomUUID().slice(0, 6)}`)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const after = await dashboardOf(ada);
    expect(after.Customers!.Total).toBe(before.Customers!.Total + 12);
    expect(after.Sites!.Total).toBe(before.Sites!.Total + 12);
    expect(after.Customers!.Total).toBe(await count('SELECT count(*) AS n FROM customers'));
    expect(after.Sites!.Total).toBe(await count('SELECT count(*) AS n FROM sites'));
    const perDc = after.Sites!.ByDataCenter.reduce((n, d) => n + d.Count, 0);
    expect(perDc).toBe(after.Sites!.Total);
  });

  it('lists trials ending within 7 days and counts custom domains pending verification', async () => {
    const before = await dashboardOf(sam);
    const soon = await insertSite(t.db, { owner, name: 'trial-soon' });
    const later = await insertSite(t.db, { owner, name: 'trial-later' });
    const ended = await insertSite(t.db, { owner, name: 'trial-ended' });
    const at = (d: number) => new Date(t.clock.now().getTime() + d * 86_400_000);
    await t.db.query('UPDATE sites SET trial_ends_at = $2 WHERE app_id = $1', [soon.appId, at(3)]);
    await t.db.query('UPDATE sites SET trial_ends_at = $2 WHERE app_id = $1', [later.appId, at(8)]);
    await t.db.query('UPDATE sites SET trial_ends_at = $2 WHERE app_id = $1', [ended.appId, at(-1)]);
    await t.db.query(
      `INSERT INTO custom_domains (domain, app_id, token, created_at) VALUES ('login.trial-soon.example', $1, 'x', now())`,
      [soon.appId],
    );
    const after = await dashboardOf(sam);
    expect(after.Sites!.TrialsEndingSoon.Count).toBe(before.Sites!.TrialsEndingSoon.Count + 1);
    expect(after.Sites!.TrialsEndingSoon.Items).toContainEqual({
      AppId: soon.appId,
      AppName: 'trial-soon',
      OwnerUid: owner,
      TrialEndsAt: at(3).toISOString(),
    });
    expect(after.Sites!.TrialsEndingSoon.Items.map((i) => i.AppName)).not.toContain('trial-later');
    expect(after.CustomDomains!.PendingVerification).toBe(before.CustomDomains!.PendingVerification + 1);
  });

  it('shows approvers what awaits their decision, requesters their own, and live grants with revoke for approvers', async () => {
    const site = await insertSite(t.db, { owner, name: 'imp-site' });
    const site2 = await insertSite(t.db, { owner, name: 'imp-site-2' });
    const theirs = await insertRequest(t.db, {
      appId: site.appId,
      initiator: 'sam@example.com',
      assignees: ['boss@example.com'],
      consent: 'granted',
    });
    // Awaiting the owner's consent: not the boss's to decide yet (Approve needs the consent).
    await insertRequest(t.db, {
      appId: site2.appId,
      initiator: 'ada@example.com',
      assignees: ['boss@example.com'],
    });
    // The boss's own request is not theirs to decide.
    await insertRequest(t.db, {
      appId: site2.appId,
      initiator: 'boss@example.com',
      assignees: ['other@example.com'],
    });
    const b = await dashboardOf(boss);
    expect(b.Impersonation!.AwaitingMyDecision!.Count).toBe(1);
    expect(b.Impersonation!.AwaitingCustomer).toEqual({ Count: 1 });
    expect(b.Impersonation!.AwaitingMyDecision!.Items).toEqual([
      {
        Id: theirs.id,
        AppName: 'imp-site',
        Priority: 'High',
        Initiator: 'sam@example.com',
        RequestCreatedDate: '2026-01-15T10:00:00.000Z',
        Consent: true,
        AssignedToMe: true,
        // a request made without a reason code (as before codes): none to show
        ReasonCode: null,
        ReasonLabel: null,
        CaseReference: null,
        CaseUrl: null,
      },
    ]);
    expect(b.Impersonation!.MineAwaitingOthers.Count).toBe(1);
    const s = await dashboardOf(sam);
    expect(s.Impersonation!.MineAwaitingOthers.Count).toBe(1);
    expect(s.Impersonation!.AwaitingMyDecision).toBeUndefined();

    const grantSite = await insertSite(t.db, { owner, name: 'grant-site' });
    const grant = await insertGrant(t.db, {
      appId: grantSite.appId,
      initiatorUid: samUid,
      initiatorEmail: 'sam@example.com',
      roles: ['Developer'],
      now: t.clock.now(),
      minutes: 30,
    });
    const expiresAt = new Date(t.clock.now().getTime() + 30 * 60_000).toISOString();
    const withGrant = await dashboardOf(boss);
    expect(withGrant.Impersonation!.LiveGrants).toEqual({
      Count: 1,
      Items: [
        {
          Id: grant,
          AppName: 'grant-site',
          Holder: 'sam@example.com',
          Roles: ['Developer'],
          AdditionalPermissions: [],
          ExpiresAt: expiresAt,
          CanRevoke: true,
          BreakGlass: false,
          ReasonCode: null,
          ReasonLabel: null,
          CaseReference: null,
          CaseUrl: null,
        },
      ],
    });
    expect((await dashboardOf(sam)).Impersonation!.LiveGrants.Items[0]).toMatchObject({
      Id: grant,
      CanRevoke: false,
    });
    expect((await dashboardOf(ada)).Impersonation!.LiveGrants.Count).toBe(0);
    t.clock.advance(31 * 60_000);
    await signIn();
    expect((await dashboardOf(boss)).Impersonation!.LiveGrants.Count).toBe(0);
  });

  it('counts staff sign-in failures and lockouts of the last 24 hours, and staff without a second factor', async () => {
    const before = await dashboardOf(boss);
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++) {
      const r = await t.call('login', {
        body: { email: 'victim@example.com', password: 'Wrong#1234' },
      });
      expect(r.status).toBe(401);
    }
    const after = await dashboardOf(boss);
    // a lockout is a refused action too, as the trail's result filter counts it
    expect(after.StaffActivity!.Refused).toBe(before.StaffActivity!.Refused + 1);
    expect(after.StaffSignIns).toEqual({
      Failures: before.StaffSignIns!.Failures + LOCKOUT_THRESHOLD,
      PasswordFailures: before.StaffSignIns!.PasswordFailures + LOCKOUT_THRESHOLD,
      SecondFactorFailures: before.StaffSignIns!.SecondFactorFailures,
      Lockouts: before.StaffSignIns!.Lockouts + 1,
    });
    expect((await dashboardOf(audrey)).StaffSignIns).toEqual(after.StaffSignIns);
    t.clock.advance(24 * 3_600_000 + 1000);
    await signIn();
    expect((await dashboardOf(boss)).StaffSignIns).toEqual({
      Failures: 0,
      PasswordFailures: 0,
      SecondFactorFailures: 0,
      Lockouts: 0,
    });
    expect(after.StaffWithoutSecondFactor!.Count).toBe(await count('SELECT count(*) AS n FROM staff'));
    const [victim] = (
      await t.db.query<{ uid: string }>(`SELECT uid FROM staff WHERE email = 'victim@example.com'`)
    ).rows;
    await t.db.query(
      `INSERT INTO staff_totp (uid, secret_sealed, created_at, confirmed_at) VALUES ($1, '\\x00', now(), now())`,
      [victim!.uid],
    );
    expect((await dashboardOf(boss)).StaffWithoutSecondFactor!.Count).toBe(
      after.StaffWithoutSecondFactor!.Count - 1,
    );
  });

  it('counts a wrong second-factor code (mfa.failed) as a failed sign-in, apart from wrong passwords', async () => {
    // An authenticator app set up through the account menu, then a right password and a wrong code.
    await t.addStaff('stolen@example.com', ['Support']);
    const session = await t.login('stolen@example.com');
    const post = (
      id: 'totpEnrolStart' | 'totpEnrolConfirm' | 'loginSecondStep',
      body: Record<string, unknown>,
      s?: S,
    ) => t.callLoose(id, { body, headers: { origin: CONSOLE_ORIGIN }, ...(s ? { session: s } : {}) });
    const start = await post('totpEnrolStart', { password: PASSWORD }, session);
    expect(start.status, start.raw.body).toBe(200);
    const secret = base32Decode((start.body as { Secret: string }).Secret);
    const code = (steps = 0) => totpCodeAt(secret, totpStepOf(t.clock.now()) + steps);
    expect((await post('totpEnrolConfirm', { Code: code() }, session)).status).toBe(200);
    t.clock.advance(30_000);
    await signIn();
    const before = (await dashboardOf(audrey)).StaffSignIns!;
    const login = await t.call('login', { body: { email: 'stolen@example.com', password: PASSWORD } });
    const ticket = (login.body as { SecondStep: { Ticket: string } }).SecondStep.Ticket;
    const wrong = code() === '000000' ? '000001' : '000000';
    expect((await post('loginSecondStep', { Ticket: ticket, Method: 'totp', Code: wrong })).status).toBe(401);
    const after = (await dashboardOf(audrey)).StaffSignIns!;
    expect(after).toEqual({
      Failures: before.Failures + 1,
      PasswordFailures: before.PasswordFailures,
      SecondFactorFailures: before.SecondFactorFailures + 1,
      Lockouts: before.Lockouts,
    });
  });

  it('shows those who read the trail its newest events, refused calls, failed changes and exports', async () => {
    const before = (await dashboardOf(audrey)).StaffActivity!;
    expect(before.Exports.map((e) => e.Action)).toEqual([
      'audit.export',
      'customers.export',
      'impersonation-requests.export',
      'impersonation-logs.export',
      'access-review.export',
    ]);
    expect(before.Failed.map((e) => e.Action)).toEqual([
      'password.change.failed',
      'password.reset.failed',
      'stepup.failed',
    ]);
    // Support may not read the team: a refused call, which the trail records.
    expect((await t.call('teamList', { session: sam })).status).toBe(403);
    // audrey signed in long ago on the test clock: an export needs a recent proof
    await t.call('stepUp', { session: audrey, body: { Method: 'password', Password: PASSWORD } });
    const exported = await t.callLoose('auditExport', { session: audrey, query: { format: 'csv' } });
    expect(exported.status).toBe(200);
    const after = (await dashboardOf(audrey)).StaffActivity!;
    expect(after.Refused).toBe(before.Refused + 1);
    expect(after.Exports.find((e) => e.Action === 'audit.export')!.Count).toBe(
      before.Exports.find((e) => e.Action === 'audit.export')!.Count + 1,
    );
    expect(after.Recent.length).toBeGreaterThan(0);
    expect(after.Recent.length).toBeLessThanOrEqual(5);
    expect(after.Recent[0]).toMatchObject({ Action: 'audit.export', ActorEmail: 'audrey@example.com' });
    // Newest first.
    const times = after.Recent.map((r) => Date.parse(r.At));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it("keeps each staff member's ten most recently viewed customers", async () => {
    const uids: string[] = [];
    for (let i = 0; i < 12; i++) {
      uids.push(
        await insertCustomer(t.db, {
          first: 'Viewed',
          last: `No ${i}`,
          email: `viewed-${i}@customer.example`,
        }),
      );
    }
    for (const uid of uids) {
      t.clock.advance(1000);
      const r = await t.call('customerProfile', {
        session: sam,
        query: { uid },
      });
      expect(r.status, r.raw.body).toBe(200);
      // half the views written in one batch, the rest merged with them in the next
      if (uid === uids[5]) await flushCustomerViews(t.ctx);
    }
    t.clock.advance(1000);
    await t.call('customerProfile', {
      session: sam,
      query: { uid: uids[5]! },
    });
    const recent = (await dashboardOf(sam)).RecentCustomers!;
    expect(recent.map((c) => c.Uid)).toEqual([
      uids[5],
      ...uids
        .slice(2)
        .reverse()
        .filter((u) => u !== uids[5]),
    ]);
    expect(recent[0]).toEqual({
      Uid: uids[5],
      Name: 'Viewed No 5',
      Email: 'viewed-5@customer.example',
      ViewedAt: t.clock.now().toISOString(),
    });
    // The views are written behind the reads (recent-views.ts); the dashboard above read them
    // from memory. Once written, the table holds the same ten and the dashboard says the same.
    await flushCustomerViews(t.ctx);
    expect(
      await count(`SELECT count(*) AS n FROM staff_recent_customers WHERE staff_uid = '${samUid}'`),
    ).toBe(10);
    expect((await dashboardOf(sam)).RecentCustomers).toEqual(recent);
    // Someone else's views are not mine; an unknown customer is not recorded.
    expect((await dashboardOf(ada)).RecentCustomers).toEqual([]);
    const missing = await t.call('customerProfile', {
      session: ada,
      query: { uid: randomUUID() },
    });
    expect(missing.status).toBe(404);
    expect((await dashboardOf(ada)).RecentCustomers).toEqual([]);
    await flushCustomerViews(t.ctx);
    expect((await dashboardOf(ada)).RecentCustomers).toEqual([]);
  });
});

describe('recently viewed customers, written behind the read', () => {
  it('are written when the app closes', async () => {
    const other = await createTestApp();
    try {
      const uid = await insertCustomer(other.db, {
        first: 'Closing',
        last: 'Time',
        email: 'closing@customer.example',
      });
      const staffUid = await other.addStaff('closer@example.com', ['Support']);
      const session = await other.login('closer@example.com');
      const r = await other.call('customerProfile', {
        session,
        query: { uid },
      });
      expect(r.status).toBe(200);
      await other.app.close();
      const rows = await other.db.query<{ customer_uid: string }>(
        'SELECT customer_uid FROM staff_recent_customers WHERE staff_uid = $1',
        [staffUid],
      );
      expect(rows.rows.map((x) => x.customer_uid)).toEqual([uid]);
    } finally {
      await other.close();
    }
  });
});
