import type { AddressInfo } from 'node:net';
import { HEADERS } from '@sac/contract/constants';
import type { BodyOf } from '@sac/contract/endpoints';
import type { StaffNotification } from '@sac/contract/staff-notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertGrant } from '../../../test/impersonation-fixtures.ts';
import { openSse } from '../../../test/sse-client.ts';
import { periodicJobs } from '../../ops/periodic.ts';
import { notifyExpiringGrants, pruneNotifications } from './staff-notifications.service.ts';
import { CHANGE_EVENT_EVERY_MS } from './staff-notifications.stream.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S; // SuperAdmin: assignee and approver
let chief: S; // another SuperAdmin
let agent: S; // Admin who asks
let agentUid: string;
let owner: string;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ staffStreamsPerUser: 2 });
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('chief@example.com', ['SuperAdmin']);
  agentUid = await t.addStaff('agent@example.com', ['Admin']);
  boss = await t.login('boss@example.com');
  chief = await t.login('chief@example.com');
  agent = await t.login('agent@example.com');
  owner = await insertCustomer(t.db, { first: 'Olive', last: 'Owner', email: 'olive@notify.example' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const newSite = async () =>
  (await insertSite(t.db, { owner, name: `n-${Math.random().toString(36).slice(2, 8)}` })).appId;

async function ask(session: S, data: Record<string, unknown> = {}): Promise<number> {
  const r = await t.call('impersonationCreate', {
    session,
    headers: { origin: CONSOLE_ORIGIN },
    body: {
      data: {
        AppId: await newSite(),
        Priority: 'High',
        Description: 'Checkout fails',
        ReasonCode: 'support-ticket',
        Assignees: ['boss@example.com'],
        ProxyRoles: ['Developer'],
        AdditionalPermissions: [],
        Duration: 60,
        ...data,
      },
    },
  });
  expect(r.status, r.raw.body).toBe(200);
  return r.body.Data.Id;
}
const act = (session: S, id: number, payload: BodyOf<'impersonationAction'>) =>
  t.call('impersonationAction', {
    session,
    query: { requestId: String(id) },
    body: payload,
  });
async function consent(id: number, granted = true) {
  const mail = await t.smtp.waitFor(
    (m) => m.to.includes('olive@notify.example') && m.subject.endsWith(`(request ${id})`),
  );
  const token = new URL(/https?:\/\/\S+\/impersonation\/consent\S*/.exec(mail.text)![0]).searchParams.get(
    'token',
  )!;
  const r = await t.call('consentAnswer', {
    body: { token, granted },
  });
  expect(r.status, r.raw.body).toBe(200);
}
async function inbox(session: S, query: Record<string, string> = {}) {
  const r = await t.call('staffNotifications', { session, query });
  expect(r.status, r.raw.body).toBe(200);
  return r.body as { Data: StaffNotification[]; NextCursor: string | null; UnreadCount: number };
}
const about = async (session: S, id: number) =>
  (await inbox(session, { limit: '50' })).Data.filter((n) => n.RequestId === id);

const openStream = (session: S, lastEventId?: string) => openSse(base, session, lastEventId);

describe('who is told what', () => {
  it('tells the assignees of a new request, not the one who asks', async () => {
    const id = await ask(agent, { Assignees: ['boss@example.com', 'chief@example.com'] });
    for (const s of [boss, chief]) {
      const [n] = await about(s, id);
      expect(n).toMatchObject({ Kind: 'assigned', Actor: 'agent@example.com', ReadAt: null });
      expect(n!.AppName).toMatch(/^n-/);
    }
    expect(await about(agent, id)).toEqual([]);
    // a SuperAdmin who assigns themselves is not told of their own request
    const own = await ask(boss, { Assignees: ['boss@example.com', 'chief@example.com'] });
    expect(await about(boss, own)).toEqual([]);
    expect((await about(chief, own)).map((n) => n.Kind)).toEqual(['assigned']);
  });

  it("tells every SuperAdmin of a customer's own request, with no staff member as its actor", async () => {
    const site = await insertSite(t.db, { owner, name: `own-${Math.random().toString(36).slice(2, 8)}` });
    const r = await t.call('customerRequestsCreate', {
      headers: { apikey: site.apiKey, apisecret: site.secret },
      body: {
        data: {
          Priority: 'High',
          Description: 'Please look at our sign-in page',
          ProxyRoles: ['Developer'],
          AdditionalPermissions: [],
          Duration: 20,
        },
      },
    });
    expect(r.status, r.raw.body).toBe(200);
    const id = r.body.Data.Id as number;
    for (const s of [boss, chief]) {
      const [n] = await about(s, id);
      // The console reads a null Actor as "The owner of <site> asked for help".
      expect(n).toMatchObject({ Kind: 'assigned', Actor: null, ReadAt: null });
    }
    expect(await about(agent, id)).toEqual([]);
  });

  it('tells the asker of the consent, the decision and the revocation; never the actor', async () => {
    const id = await ask(agent);
    await consent(id);
    expect((await about(agent, id)).map((n) => [n.Kind, n.Status, n.Actor])).toEqual([
      ['consent', 'Granted', 'olive@notify.example'],
    ]);
    expect(
      (
        await act(boss, id, {
          Status: 'Approve',
          ProxyRoles: ['Developer'],
          AdditionalPermissions: [],
          Duration: 30,
        })
      ).status,
    ).toBe(200);
    expect(
      (await act(chief, id, { Status: 'Revoke', ProxyRoles: ['Developer'], AdditionalPermissions: [] }))
        .status,
    ).toBe(200);
    const told = await about(agent, id);
    expect(told.map((n) => [n.Kind, n.Status, n.Actor])).toEqual([
      ['revoked', 'Revoked', 'chief@example.com'],
      ['decided', 'Approved', 'boss@example.com'],
      ['consent', 'Granted', 'olive@notify.example'],
    ]);
    expect(told[1]!.ExpiresAt).not.toBeNull();
    // the approver and the revoker hold only the assignment
    expect((await about(boss, id)).map((n) => n.Kind)).toEqual(['assigned']);
    expect(await about(chief, id)).toEqual([]);

    const rejected = await ask(agent);
    expect((await act(boss, rejected, { Status: 'Reject', Comments: 'no' })).status).toBe(200);
    expect((await about(agent, rejected)).map((n) => [n.Kind, n.Status])).toEqual([['decided', 'Rejected']]);
  });

  it('tells the newly added assignees of an edit', async () => {
    const id = await ask(agent);
    const r = await t.call('impersonationEdit', {
      session: agent,
      query: { requestId: String(id) },
      body: {
        Priority: 'High',
        Description: 'Checkout fails',
        ReasonCode: 'support-ticket',
        Assignees: ['boss@example.com', 'chief@example.com'],
        ProxyRoles: ['Developer'],
        AdditionalPermissions: [],
      },
    });
    expect(r.status, r.raw.body).toBe(200);
    expect((await about(chief, id)).map((n) => n.Kind)).toEqual(['assigned']);
    expect((await about(boss, id)).map((n) => n.Kind)).toEqual(['assigned']); // once, at creation
  });

  it('tells a grant holder once, 15 minutes before the end, whatever runs at once', async () => {
    const appId = await newSite();
    const now = t.clock.now();
    const id = await insertGrant(t.db, {
      appId,
      initiatorUid: agentUid,
      initiatorEmail: 'agent@example.com',
      roles: ['Developer'],
      now,
      minutes: 10,
    });
    const later = await insertGrant(t.db, {
      appId: await newSite(),
      initiatorUid: agentUid,
      initiatorEmail: 'agent@example.com',
      roles: ['Developer'],
      now,
      minutes: 60,
    });
    const runs = await Promise.all([
      notifyExpiringGrants(t.ctx, 15 * 60_000),
      notifyExpiringGrants(t.ctx, 15 * 60_000),
    ]);
    expect(runs[0]! + runs[1]!).toBe(1);
    expect(await notifyExpiringGrants(t.ctx, 15 * 60_000)).toBe(0);
    const [n] = await about(agent, id);
    expect(n).toMatchObject({ Kind: 'expiring', Actor: null });
    expect(await about(agent, later)).toEqual([]);
  });

  it('tells a staff member whose sessions a SuperAdmin ended', async () => {
    const victim = await t.login('agent@example.com');
    const emailed = (session: typeof victim, Delivery: 'email' | 'in-app') =>
      t.call('staffNotificationPreferencesSave', {
        session,
        body: { Preferences: [{ Kind: 'sessions-ended', Delivery }] },
      });
    expect((await emailed(victim, 'email')).status).toBe(200);
    const r = await t.call('endStaffSessions', {
      session: boss,
      body: { uid: agentUid },
    });
    expect(r.status, r.raw.body).toBe(200);
    agent = await t.login('agent@example.com');
    const [n] = (await inbox(agent)).Data;
    expect(n).toMatchObject({ Kind: 'sessions-ended', Actor: 'boss@example.com', RequestId: null });
    expect(n!.Count).toBeGreaterThanOrEqual(2);
    expect((await t.call('session', { session: victim })).status).toBe(401);
    // the mail links to the member's own sessions, the screen the in-app notification opens
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('agent@example.com') && /sessions? (was|were) ended/.test(m.subject),
    );
    expect(mail.text).toContain(`${CONSOLE_ORIGIN}/account/sessions`);
    expect((await emailed(agent, 'in-app')).status).toBe(200);
  });

  it('tells a staff member whose sessions ended because a SuperAdmin changed their roles or reset their factors', async () => {
    const uid = await t.addStaff('moved@example.com', ['Support']);
    await t.login('moved@example.com');
    const roles = await t.call('teamUpdateRoles', {
      session: boss,
      body: { role: ['Admin'], uid, unAssignRoles: [] },
    });
    expect(roles.status, roles.raw.body).toBe(200);
    const mailedBefore = t.smtp.messages.filter((m) => m.to.includes('moved@example.com')).length;
    await t.login('moved@example.com');
    const reset = await t.call('staffFactorsReset', {
      session: chief,
      body: { uid },
    });
    expect(reset.status, reset.raw.body).toBe(200);
    const moved = await t.login('moved@example.com');
    const ended = (await inbox(moved)).Data.filter((n) => n.Kind === 'sessions-ended');
    expect(ended.map((n) => [n.Actor, n.Count])).toEqual([
      ['chief@example.com', 1],
      ['boss@example.com', 1],
    ]);
    // the reset's own mail, and no second one for the notification (in-app only)
    await t.smtp.waitFor((m) => m.to.includes('moved@example.com') && /second factor/i.test(m.subject));
    const mails = t.smtp.messages.filter((m) => m.to.includes('moved@example.com')).slice(mailedBefore);
    expect(mails.filter((m) => /sessions? (was|were) ended/.test(m.subject))).toHaveLength(0);
  });
});

describe('read state, pages and preferences', () => {
  it('pages newest first and keeps read state per staff member', async () => {
    const id = await ask(agent, { Assignees: ['boss@example.com', 'chief@example.com'] });
    const first = await inbox(boss, { limit: '1' });
    expect(first.Data).toHaveLength(1);
    expect(first.NextCursor).not.toBeNull();
    const second = await inbox(boss, { limit: '1', cursor: first.NextCursor! });
    expect(second.Data[0]!.Id).toBeLessThan(first.Data[0]!.Id);
    const mine = (await about(boss, id))[0]!;
    const theirs = (await about(chief, id))[0]!;
    const before = (await inbox(boss)).UnreadCount;
    // someone else's id changes nothing
    const other = await t.call('staffNotificationsRead', {
      session: boss,
      body: { Ids: [theirs.Id] },
    });
    expect(other.body).toEqual({ Marked: 0, UnreadCount: before });
    const r = await t.call('staffNotificationsRead', {
      session: boss,
      body: { Ids: [mine.Id, mine.Id] },
    });
    expect(r.body).toEqual({ Marked: 1, UnreadCount: before - 1 });
    expect((await about(boss, id))[0]!.ReadAt).not.toBeNull();
    expect((await about(chief, id))[0]!.ReadAt).toBeNull();
    const all = await t.call('staffNotificationsRead', {
      session: chief,
      body: { All: true },
    });
    expect(all.body.UnreadCount).toBe(0);
    expect((await inbox(boss)).UnreadCount).toBe(before - 1);
  });

  it('refuses hostile input', async () => {
    const bad = [
      { Ids: [], All: true },
      { Ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      {},
      { All: false },
      { Ids: [1], Extra: 1 },
    ];
    for (const payload of bad) {
      const r = await t.callLoose('staffNotificationsRead', { session: boss, body: payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
    }
    expect((await t.call('staffNotifications', { session: boss, query: { cursor: 'x' } })).status).toBe(400);
    expect((await t.call('staffNotifications', { session: boss, query: { limit: '51' } })).status).toBe(400);
    const dup = await t.call('staffNotificationPreferencesSave', {
      session: boss,
      body: {
        Preferences: [
          { Kind: 'consent', Delivery: 'email' },
          { Kind: 'consent', Delivery: 'in-app' },
        ],
      },
    });
    expect(dup.status).toBe(400);
  });

  it('mails per kind as each chooses: in-app only leaves the mail out, email adds one', async () => {
    const prefs = await t.call('staffNotificationPreferences', { session: chief });
    expect(prefs.body.Data).toContainEqual({ Kind: 'assigned', Delivery: 'email' });
    expect(prefs.body.Data).toContainEqual({ Kind: 'consent', Delivery: 'in-app' });
    const save = await t.call('staffNotificationPreferencesSave', {
      session: chief,
      body: { Preferences: [{ Kind: 'assigned', Delivery: 'in-app' }] },
    });
    expect(save.status, save.raw.body).toBe(200);
    expect(save.body.Data).toContainEqual({ Kind: 'assigned', Delivery: 'in-app' });
    const trail = await t.db.query(
      "SELECT actor_email FROM activity_log WHERE action = 'notifications.preferences'",
    );
    expect(trail.rows).toContainEqual({ actor_email: 'chief@example.com' });
    const id = await ask(agent, { Assignees: ['boss@example.com', 'chief@example.com'] });
    // The subject names the request (the text does not).
    await t.smtp.waitFor((m) => m.to.includes('boss@example.com') && m.subject.includes(`request ${id} for`));
    await t.ctx.mailer.flush();
    expect(
      t.smtp.messages.filter(
        (m) => m.to.includes('chief@example.com') && m.subject.includes(`request ${id} `),
      ),
    ).toEqual([]);
    expect((await about(chief, id)).map((n) => n.Kind)).toEqual(['assigned']);
    // consent is in-app by default; the asker chooses email
    await t.call('staffNotificationPreferencesSave', {
      session: agent,
      body: { Preferences: [{ Kind: 'consent', Delivery: 'email' }] },
    });
    await consent(id, false);
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('agent@example.com') && m.subject.includes(`denied request ${id}`),
    );
    expect(mail.text).toContain('/manage-superuser/impersonation/assigned-requests?request=');
  });
});

describe('retention', () => {
  it('deletes notifications older than STAFF_NOTIFICATION_RETENTION_DAYS, read or not, hourly, and keeps the rest', async () => {
    const ids = [await ask(agent), await ask(agent), await ask(agent)];
    const mine = async () =>
      (await about(boss, ids[0]!)).concat(await about(boss, ids[1]!), await about(boss, ids[2]!));
    const [old, oldRead, kept] = await mine();
    expect([old, oldRead, kept].every(Boolean)).toBe(true);
    await t.call('staffNotificationsRead', {
      session: boss,
      body: { Ids: [oldRead!.Id] },
    });
    const days = t.ctx.config.staffNotificationRetentionMs / 86_400_000;
    expect(days).toBe(90);
    const ago = (d: number) => new Date(t.ctx.clock.now().getTime() - d * 86_400_000);
    await t.db.query('UPDATE staff_notifications SET created_at = $2 WHERE id = ANY($1::bigint[])', [
      [old!.Id, oldRead!.Id],
      ago(days + 1),
    ]);
    await t.db.query('UPDATE staff_notifications SET created_at = $2 WHERE id = $1', [
      kept!.Id,
      ago(days - 1),
    ]);
    const unreadBefore = (await inbox(boss)).UnreadCount;

    // batches of one: the job goes on until nothing older is left
    expect(await pruneNotifications(t.ctx, 1)).toBeGreaterThanOrEqual(2);
    expect((await mine()).map((n) => n.Id)).toEqual([kept!.Id]);
    expect((await inbox(boss)).UnreadCount).toBe(unreadBefore - 1);
    expect(await pruneNotifications(t.ctx)).toBe(0);

    const job = periodicJobs(t.ctx).find((j) => j.name === 'staff-notification-retention');
    expect(job?.everyMs).toBe(3_600_000);
    const keepAll = { ...t.ctx, config: { ...t.ctx.config, staffNotificationRetentionMs: 0 } };
    expect(periodicJobs(keepAll).some((j) => j.name === 'staff-notification-retention')).toBe(false);
    expect(await pruneNotifications(keepAll)).toBe(0);
  });
});

describe('GET /admin/notifications/stream', () => {
  it('delivers a new notification live, with its id, uncompressed, and replays after Last-Event-ID', async () => {
    const s = openStream(boss);
    const r = await s.response;
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(r.headers['x-accel-buffering']).toBe('no');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['cache-control']).toBe('no-store');
    await new Promise((res) => setTimeout(res, 50));
    const id = await ask(agent);
    const [e] = await s.waitFor(1);
    expect(e!.data.Notification).toMatchObject({ Kind: 'assigned', RequestId: id });
    expect(e!.data.UnreadCount).toBe((await inbox(boss)).UnreadCount);
    expect(e!.id).toBe(String(e!.data.Notification.Id));
    s.close();
    // two more while away; a reconnect with Last-Event-ID gets both, oldest first
    const a = await ask(agent);
    const b = await ask(agent);
    const again = openStream(boss, e!.id);
    const replayed = await again.waitFor(2);
    expect(replayed.map((x) => x.data.Notification.RequestId)).toEqual([a, b]);
    again.close();
  });

  it('tells every console that may see requests when one is asked for or decided, without an id (issue 32)', async () => {
    await t.addStaff('watcher@example.com', ['Support']);
    await t.addStaff('reader@example.com', ['Auditor']);
    const watcher = openStream(await t.login('watcher@example.com'));
    const reader = openStream(await t.login('reader@example.com'));
    const approver = openStream(chief);
    for (const s of [watcher, reader, approver]) expect((await s.response).status).toBe(200);
    await new Promise((res) => setTimeout(res, 50));
    // Not assigned to the chief nor asked by the watcher: neither gets a notification, both a change.
    const id = await ask(agent);
    const until = async (s: typeof watcher, n: number) => {
      for (let i = 0; i < 150 && s.changes.length < n; i++) await new Promise((r) => setTimeout(r, 20));
      return s.changes;
    };
    expect(await until(watcher, 1)).toEqual(['impersonation']);
    expect(await until(approver, 1)).toEqual(['impersonation']);
    await consent(id);
    expect(
      (
        await act(boss, id, {
          Status: 'Approve',
          ProxyRoles: ['Developer'],
          AdditionalPermissions: [],
          Duration: 30,
        })
      ).status,
    ).toBe(200);
    // consent and approval within the second after the first event: merged into one, sent after both
    expect(await until(approver, 2)).toEqual(['impersonation', 'impersonation']);
    // The Auditor neither requests nor approves: told nothing.
    expect(reader.changes).toEqual([]);
    expect(approver.events.filter((e) => e.data.Notification.RequestId === id)).toEqual([]);
    for (const s of [watcher, reader, approver]) s.close();
  });

  it('merges a burst of request changes into at most one event a second, the last after the last change', async () => {
    const approver = openStream(chief);
    expect((await approver.response).status).toBe(200);
    // a quiet second first: the burst's first change is sent at once
    await new Promise((res) => setTimeout(res, CHANGE_EVENT_EVERY_MS + 100));
    const before = await t.call('dashboard', { session: chief });
    const started = Date.now();
    const burst = 12;
    let lastStarted = 0;
    for (let i = 0; i < burst; i++) {
      lastStarted = Date.now();
      await ask(agent, { Assignees: ['boss@example.com'] });
    }
    const took = Date.now() - started;
    // the trailing event comes within a second of the last change
    await new Promise((res) => setTimeout(res, CHANGE_EVENT_EVERY_MS + 300));
    const n = approver.changes.length;
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(2 + Math.floor(took / CHANGE_EVENT_EVERY_MS));
    expect(n).toBeLessThan(burst);
    for (let i = 1; i < n; i++)
      expect(approver.changeTimes[i]! - approver.changeTimes[i - 1]!).toBeGreaterThanOrEqual(
        CHANGE_EVENT_EVERY_MS - 50,
      );
    // the last event came after the last change began: a dashboard read on it counts every request
    expect(approver.changeTimes.at(-1)!).toBeGreaterThanOrEqual(lastStarted);
    const after = await t.call('dashboard', { session: chief });
    expect(after.body.Impersonation?.AwaitingCustomer?.Count).toBe(
      (before.body.Impersonation?.AwaitingCustomer?.Count ?? 0) + burst,
    );
    approver.close();
  });

  it('caps the streams per staff member', async () => {
    const one = openStream(chief);
    const two = openStream(chief);
    expect((await one.response).status).toBe(200);
    expect((await two.response).status).toBe(200);
    const three = openStream(chief);
    const refused = await three.response;
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.text()).ErrorCode).toBe(953);
    one.close();
    await new Promise((res) => setTimeout(res, 100));
    const four = openStream(chief);
    expect((await four.response).status).toBe(200);
    two.close();
    four.close();
  });

  it('refuses without a session and ends when the session ends', async () => {
    const anon = await fetch(`${base}/admin/notifications/stream`, {
      headers: { [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue },
    });
    expect(anon.status).toBe(401);
    const session = await t.login('chief@example.com');
    const s = openStream(session);
    expect((await s.response).status).toBe(200);
    expect((await t.call('logout', { session })).status).toBe(200);
    await Promise.race([s.done, new Promise((res) => setTimeout(res, 3000))]);
    expect(s.ended()).toBe(true);
  });
});
