import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERRORS } from '@sac/contract/errors';
import { webhookEventOf } from '@sac/contract/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, type TestApp } from '../../../test/harness.ts';
import { deliverAll } from '../../../test/webhook-fanout.ts';

/**
 * Break-glass access (issue 35, item 2): a SuperAdmin opens access at once; every other SuperAdmin
 * (bell, mail) and the owner (mail) are told in the same transaction, the trail holds the opening
 * and who was told (the webhook events of those rows), the session is a grant like any other, and
 * the grant waits in the review queue until another SuperAdmin closes it with a note.
 */

type S = { xtoken: string; xsign: string };
const HOUR = 3_600_000;
let t: TestApp;
let boss: S; // SuperAdmin who opens
let peer: S; // another SuperAdmin, who reviews
let admin: S; // an Admin: no break-glass
let custom: S; // a custom role holding impersonation.approve, but not a SuperAdmin
let bossUid: string;
let owner: string;
let appId: number;
let appId2: number;
let appId3: number;
let ownerMail = '';

beforeAll(async () => {
  t = await createTestApp();
  bossUid = await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('peer@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
  await t.db.query(
    "INSERT INTO roles (name, permissions) VALUES ('Approver', ARRAY['impersonation.request','impersonation.approve'])",
  );
  await t.addStaff('custom@example.com', ['Approver']);
  boss = await t.login('boss@example.com');
  peer = await t.login('peer@example.com');
  admin = await t.login('admin@example.com');
  custom = await t.login('custom@example.com');
  owner = await insertCustomer(t.db, { first: 'Bea', last: 'Glass', email: 'bea@glass.example' });
  appId = (await insertSite(t.db, { owner, name: 'glass-shop' })).appId;
  appId2 = (await insertSite(t.db, { owner, name: 'glass-two' })).appId;
  appId3 = (await insertSite(t.db, { owner, name: 'glass-three' })).appId;
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  AppId: appId,
  ReasonCode: 'production-incident',
  CaseReference: 'INC-2041',
  Description: 'Checkout is down for every customer',
  ProxyRoles: ['Developer'],
  AdditionalPermissions: [],
  Duration: 45,
  ...over,
});
const open = (session: S, over: Record<string, unknown> = {}) =>
  t.callLoose('breakGlassOpen', { session, headers: { origin: CONSOLE_ORIGIN }, body: body(over) });
const closeReview = (session: S, RequestId: number, Note = 'Restarted the payment worker; nothing else.') =>
  t.callLoose('breakGlassReviewClose', { session, body: { RequestId, Note } });
const codeOf = (r: { error?: { ErrorCode: number } }) => r.error?.ErrorCode;

describe('refusals', () => {
  it('is for SuperAdmins only: an Admin, and a custom role that may approve, are refused', async () => {
    expect((await open(admin)).status).toBe(403);
    expect((await open(custom)).status).toBe(403);
    expect((await t.callLoose('breakGlassOptions', { session: custom })).status).toBe(403);
  });

  it('takes only the break-glass reason codes, and always a case', async () => {
    const support = await open(boss, { ReasonCode: 'support-ticket' });
    expect(support.status).toBe(400);
    expect(codeOf(support)).toBe(ERRORS.unknownReasonCode.code);
    const noCase = await open(boss, { CaseReference: '' });
    expect(noCase.status).toBe(400);
    expect(codeOf(noCase)).toBe(ERRORS.caseRequired.code);
    expect(noCase.error.FieldErrors).toEqual([{ Field: 'CaseReference', Message: expect.any(String) }]);
  });

  it('lasts at most 60 minutes', async () => {
    const long = await open(boss, { Duration: 61 });
    expect(long.status).toBe(400);
    expect(codeOf(long)).toBe(ERRORS.breakGlassDuration.code);
    expect(long.error.FieldErrors?.[0]?.Field).toBe('Duration');
  });

  it('is refused while the operator turned it off', async () => {
    t.config.breakGlassEnabled = false;
    try {
      const off = await open(boss);
      expect(off.status).toBe(403);
      expect(codeOf(off)).toBe(ERRORS.breakGlassOff.code);
      expect((await t.call('breakGlassOptions', { session: boss })).body.Data.Enabled).toBe(false);
      expect((await t.call('dashboard', { session: boss })).body.BreakGlassReview?.Enabled).toBe(false);
    } finally {
      t.config.breakGlassEnabled = true;
    }
  });
});

describe('an opening', () => {
  let id: number;

  it('tells who an opening will tell', async () => {
    const r = await t.call('breakGlassOptions', { session: boss });
    expect(r.body.Data).toEqual({
      Enabled: true,
      ReasonCodes: [
        { Code: 'production-incident', Label: 'Production incident' },
        { Code: 'security-incident', Label: 'Security incident' },
        { Code: 'legal-request', Label: 'Legal request' },
      ],
      MaxMinutes: 60,
      ReviewHours: 24,
      SuperAdmins: ['peer@example.com'],
    });
  });

  it('opens a grant at once, marked break-glass, and tells every other SuperAdmin and the owner', async () => {
    const r = await open(boss);
    expect(r.status).toBe(200);
    id = r.body.Data.Id;
    expect(r.body.Data).toMatchObject({
      BreakGlass: true,
      Initiator: 'boss@example.com',
      Request: { ReasonCode: 'production-incident', CaseReference: 'INC-2041', Duration: 45 },
      Action: { Status: 'Approved', ApprovedProxyRoles: ['Developer'] },
    });
    expect(new Date(r.body.Data.Action.ExpiresAt!).getTime()).toBe(t.clock.now().getTime() + 45 * 60_000);
    // consent granted by the break-glass rule, never asked; Critical; approved by its opener at once
    expect(r.body.Data).toMatchObject({
      Consent: 'granted',
      Request: { Priority: 'Critical' },
      Action: { ActionTakenBy: 'boss@example.com', ActionTakenAt: t.clock.now().toISOString() },
    });
    const stored = await t.db.query<{ consent_at: Date | null; holder_email: string }>(
      'SELECT consent_at, holder_email FROM impersonation_requests WHERE id = $1',
      [id],
    );
    expect(stored.rows[0]).toEqual({ consent_at: null, holder_email: 'boss@example.com' });
    // the dashboard's live grants mark it, with its reason and case
    const live = (await t.call('dashboard', { session: peer })).body.Impersonation!.LiveGrants.Items;
    expect(live.find((g) => g.Id === id)).toMatchObject({
      BreakGlass: true,
      ReasonCode: 'production-incident',
      ReasonLabel: 'Production incident',
      CaseReference: 'INC-2041',
    });
    // the other SuperAdmin: bell and mail; the opener is not told of their own act
    const bell = await t.call('staffNotifications', { session: peer });
    expect(bell.body.Data[0]).toMatchObject({
      Kind: 'break-glass',
      RequestId: id,
      Actor: 'boss@example.com',
    });
    const mine = await t.call('staffNotifications', { session: boss });
    expect(mine.body.Data.some((n) => n.Kind === 'break-glass')).toBe(false);
    const toPeer = await t.smtp.waitFor(
      (m) => m.to.includes('peer@example.com') && m.subject.includes(`Break-glass access ${id}`),
    );
    expect(toPeer.text).toContain('Reason: Production incident');
    expect(toPeer.text).toContain('Case: INC-2041');
    const toOwner = await t.smtp.waitFor(
      (m) => m.to.includes('bea@glass.example') && m.subject.includes(`break-glass ${id}`),
    );
    expect(toOwner.text).toContain('Reason: Production incident');
    expect(toOwner.text).toContain('Case: INC-2041');
    ownerMail = toOwner.text;
    // the trail: the opening and who was told, each a webhook event where it is one
    const trail = await t.db.query<{ action: string; details: Record<string, unknown> }>(
      `SELECT action, details FROM activity_log WHERE impersonation_request_id = $1 ORDER BY id`,
      [id],
    );
    expect(trail.rows.map((x) => x.action)).toEqual([
      'impersonation.break-glass',
      'impersonation.break-glass-told',
    ]);
    expect(trail.rows[1]!.details).toMatchObject({
      superAdmins: ['peer@example.com'],
      owner: 'bea@glass.example',
    });
    expect(webhookEventOf({ Action: 'impersonation.break-glass', ImpersonationRequestId: id })).toBe(
      'impersonation.break_glass_opened',
    );
  });

  it('is a grant like any other: a session marked break-glass, every call logged', async () => {
    const s = await t.call('switchApp', { session: boss, query: { appid: appId } });
    expect(s.status).toBe(200);
    // the session's grant carries why it was opened: the banner shows the reason and the case
    const why = {
      ReasonCode: 'production-incident',
      ReasonLabel: 'Production incident',
      CaseReference: 'INC-2041',
      CaseUrl: null,
    };
    expect(s.body.Data).toMatchObject({ RequestId: id, BreakGlass: true, Roles: ['Developer'], ...why });
    const again = await t.call('updateAccess', { session: boss, query: { appId, userId: owner } });
    expect(again.body.Data).toMatchObject({ RequestId: id, BreakGlass: true, ...why });
    const imp = { xtoken: s.body.xtoken, xsign: s.body.xsign };
    expect(
      (await t.call('appInfoById', { session: imp, query: { uId: owner, appId: String(appId) } })).status,
    ).toBe(200);
    const calls = await t.db.query(
      "SELECT 1 FROM impersonation_log WHERE request_id = $1 AND event = 'call'",
      [id],
    );
    expect(calls.rows.length).toBe(1);
  });

  it('is never extended nor stacked on a grant the opener holds', async () => {
    const again = await open(boss, { ProxyRoles: ['Analyst'], Duration: 10 });
    expect(again.status).toBe(409);
    expect(codeOf(again)).toBe(ERRORS.breakGlassNoExtension.code);
    // nor lengthened through the request's other doors: an edit, or an approval given again
    const before = (await t.call('impersonationList', { session: boss, query: { requestId: String(id) } }))
      .body.Data[0]!;
    const edited = await t.callLoose('impersonationEdit', {
      session: boss,
      query: { requestId: String(id) },
      headers: { 'if-match': `"${before.Version}"` },
      body: {
        AdditionalPermissions: [],
        Assignees: ['peer@example.com'],
        Description: 'More time please',
        Priority: 'Critical',
        ProxyRoles: ['Developer'],
        ReasonCode: 'production-incident',
        CaseReference: 'INC-2041',
        Duration: 480,
      },
    });
    expect(edited.status).toBe(409);
    const approvedAgain = await t.callLoose('impersonationAction', {
      session: peer,
      query: { requestId: String(id) },
      body: { Status: 'Approve', ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 480 },
    });
    expect(approvedAgain.status).toBe(409);
    const after = (await t.call('impersonationList', { session: boss, query: { requestId: String(id) } }))
      .body.Data[0]!;
    expect(after.Action.ExpiresAt).toBe(before.Action.ExpiresAt);
    expect(after.Version).toBe(before.Version);
  });

  it("shows on the owner's access page with its reason", async () => {
    const token = /token=([\w-]+)/.exec(ownerMail)?.[1];
    expect(token).toBeTruthy();
    const page = await t.call('siteAccess', { query: { token: token! } });
    const req = page.body.Data.Requests.find((x) => x.Id === id)!;
    expect(req).toMatchObject({ BreakGlass: true, Request: { ReasonLabel: 'Production incident' } });
    expect(page.body.Data.Log.some((l) => l.Event === 'break-glass' && l.RequestId === id)).toBe(true);
  });

  it('waits in the review queue; the opener cannot close it; another SuperAdmin closes it with a note', async () => {
    const queue = (await t.call('dashboard', { session: peer })).body.BreakGlassReview!;
    expect(queue).toMatchObject({ Enabled: true, Open: 1, Overdue: 0 });
    expect(queue.Items[0]).toMatchObject({ RequestId: id, OpenedBy: 'boss@example.com', Overdue: false });
    const own = await closeReview(boss, id);
    expect(own.status).toBe(403);
    expect(codeOf(own)).toBe(ERRORS.breakGlassOwnReview.code);
    expect((await closeReview(admin, id)).status).toBe(403);
    const blank = await t.callLoose('breakGlassReviewClose', {
      session: peer,
      body: { RequestId: id, Note: '  ' },
    });
    expect(blank.status).toBe(400);
    const closed = await closeReview(peer, id);
    expect(closed.status).toBe(200);
    expect(closed.body.Data).toMatchObject({
      RequestId: id,
      ClosedBy: 'peer@example.com',
      Note: 'Restarted the payment worker; nothing else.',
    });
    const twice = await closeReview(peer, id);
    expect(twice.status).toBe(409);
    expect(codeOf(twice)).toBe(ERRORS.breakGlassReviewClosed.code);
    expect((await t.call('dashboard', { session: peer })).body.BreakGlassReview).toMatchObject({ Open: 0 });
    // the note is on the trail; the opener is told in the bell
    const row = await t.db.query<{ details: { note: string }; actor_email: string }>(
      "SELECT details, actor_email FROM activity_log WHERE action = 'impersonation.break-glass-review' AND impersonation_request_id = $1",
      [id],
    );
    expect(row.rows[0]).toMatchObject({
      actor_email: 'peer@example.com',
      details: { note: closed.body.Data.Note },
    });
    const bell = await t.call('staffNotifications', { session: boss });
    expect(bell.body.Data[0]).toMatchObject({ Kind: 'break-glass-reviewed', RequestId: id });
  });

  it('an open review past 24 hours is overdue (and stays so until closed)', async () => {
    const r = await open(boss, {
      AppId: appId2,
      ReasonCode: 'legal-request',
      CaseReference: 'LEGAL-7',
      Duration: 5,
    });
    expect(r.status).toBe(200);
    t.clock.advance(25 * HOUR);
    let p = await t.login('peer@example.com');
    const queue = (await t.call('dashboard', { session: p })).body.BreakGlassReview!;
    expect(queue).toMatchObject({ Open: 1, Overdue: 1 });
    expect(queue.Items[0]).toMatchObject({ RequestId: r.body.Data.Id, Overdue: true, Status: 'Expired' });
    // a day later it is still there, still overdue: only a close takes it off
    t.clock.advance(24 * HOUR);
    p = await t.login('peer@example.com');
    const later = (await t.call('dashboard', { session: p })).body.BreakGlassReview!;
    expect(later).toMatchObject({ Open: 1, Overdue: 1 });
    expect(later.Items[0]).toMatchObject({ RequestId: r.body.Data.Id, Overdue: true });
    expect((await closeReview(p, r.body.Data.Id)).status).toBe(200);
    expect((await t.call('dashboard', { session: p })).body.BreakGlassReview).toMatchObject({
      Open: 0,
      Overdue: 0,
    });
  });
});

it('a session opened before a revoke ends with it, as any grant', async () => {
  const b = await t.login('boss@example.com');
  const r = await open(b, {
    AppId: appId,
    ReasonCode: 'security-incident',
    CaseReference: 'SEC-1',
    Duration: 20,
  });
  expect(r.status).toBe(200);
  const s = await t.call('switchApp', { session: b, query: { appid: appId } });
  const imp = { xtoken: s.body.xtoken, xsign: s.body.xsign };
  const p = await t.login('peer@example.com');
  const revoke = await t.call('impersonationAction', {
    session: p,
    query: { requestId: r.body.Data.Id },
    body: { Status: 'Revoke', Comments: 'done' },
  });
  expect(revoke.status).toBe(200);
  expect((await t.call('session', { session: imp })).status).toBe(401);
  void bossUid;
});

describe("the operator's webhook subscribers", () => {
  const received: Array<{
    type: string;
    data: { Action: string; ImpersonationRequestId?: number; Details: Record<string, unknown> };
  }> = [];
  let receiver: http.Server;
  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  });
  afterAll(() => receiver.close());

  it('are sent the opening and the closed review, each with its reason and case', async () => {
    const p = await t.login('peer@example.com');
    const b = await t.login('boss@example.com');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    // the fan-out's cursor past the earlier tests' rows: only what follows is this subscription's
    await deliverAll(t.ctx);
    const sub = await t.call('webhookCreate', {
      session: p,
      body: {
        Url: url,
        EventTypes: ['impersonation.break_glass_opened', 'impersonation.break_glass_reviewed'],
      },
    });
    expect(sub.status).toBe(200);
    const r = await open(p, { AppId: appId3, ReasonCode: 'security-incident', CaseReference: 'SEC-77' });
    expect(r.status, r.raw.body).toBe(200);
    const id = r.body.Data.Id;
    // this request's events alone: earlier rows of the subscribed kinds may be sent with them
    const ours = () => received.filter((x) => x.data.ImpersonationRequestId === id);
    await deliverAll(t.ctx);
    expect(ours().map((x) => x.type)).toEqual(['impersonation.break_glass_opened']);
    expect(ours()[0]!.data).toMatchObject({
      Action: 'impersonation.break-glass',
      ActorEmail: 'peer@example.com',
      ImpersonationRequestId: id,
      Details: { reasonCode: 'security-incident', caseReference: 'SEC-77', duration: 45 },
    });
    expect((await closeReview(b, id, 'Checked the access log: incident work only.')).status).toBe(200);
    await deliverAll(t.ctx);
    expect(ours().map((x) => x.type)).toEqual([
      'impersonation.break_glass_opened',
      'impersonation.break_glass_reviewed',
    ]);
    expect(ours()[1]!.data).toMatchObject({
      Action: 'impersonation.break-glass-review',
      ActorEmail: 'boss@example.com',
      Details: { note: 'Checked the access log: incident work only.', openedBy: 'peer@example.com' },
    });
  });
});
