import type { EndpointId, QueryOf } from '@sac/contract/endpoints';
import { formatExpiry } from '@sac/contract/impersonation-api';
import { IMPERSONATION_SESSION_MESSAGES } from '@sac/contract/impersonation-session-messages';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertGrant } from '../../../test/impersonation-fixtures.ts';
import { sendExpiryNotices } from './expiry-notices.service.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S; // SuperAdmin, assignee and approver
let chief: S; // another SuperAdmin
let agent: S; // Admin who requests
let appId: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('chief@example.com', ['SuperAdmin']);
  await t.addStaff('agent@example.com', ['Admin']);
  await t.addStaff('helper@example.com', ['Support']);
  boss = await t.login('boss@example.com');
  chief = await t.login('chief@example.com');
  agent = await t.login('agent@example.com');
  const owner = await insertCustomer(t.db, { first: 'Olive', last: 'Owner', email: 'olive@shop.example' });
  appId = (await insertSite(t.db, { owner, name: 'olive-shop' })).appId;
});
afterAll(() => t.close());

const request = (session: S, data: Record<string, unknown> = {}) =>
  t.call('impersonationCreate', {
    session,
    headers: { origin: CONSOLE_ORIGIN },
    body: {
      data: {
        AppId: appId,
        Priority: 'High',
        Description: 'Checkout fails for some users',
        ReasonCode: 'support-ticket',
        Assignees: ['boss@example.com'],
        ProxyRoles: ['Developer'],
        AdditionalPermissions: ['ViewData'],
        Duration: 60,
        ...data,
      },
    },
  });
const action = (session: S, requestId: number, body: Record<string, unknown>, revokeAction?: string) =>
  t.callLoose('impersonationAction', {
    session,
    query: { requestId: String(requestId), ...(revokeAction ? { revokeAction } : {}) },
    body,
  });
const approve = (session: S, id: number, over: Record<string, unknown> = {}) =>
  action(session, id, {
    Status: 'Approve',
    ProxyRoles: ['Developer'],
    AdditionalPermissions: ['ViewData'],
    Duration: 30,
    ...over,
  });
const list = (session: S, status?: QueryOf<'impersonationList'>['status']) =>
  t.call('impersonationList', { session, query: status ? { status } : {} });

/** Reads the consent link mailed to the owner for request `id`, and answers it. */
async function consent(id: number, granted = true) {
  const mail = await t.smtp.waitFor(
    (m) => m.to.includes('olive@shop.example') && m.subject.endsWith(`(request ${id})`),
  );
  const link = new URL(/https?:\/\/\S+\/impersonation\/consent\S*/.exec(mail.text)![0]);
  const token = link.searchParams.get('token')!;
  const details = await t.call('consentDetails', { query: { token } });
  expect(details.body.Data.RequestId).toBe(id);
  const r = await t.call('consentAnswer', {
    body: { token, granted },
    remoteAddress: '203.0.113.50',
  });
  expect(r.status).toBe(200);
  return token;
}

describe('a request, from asking to revocation', () => {
  let id: number;

  it('validates in the spec words', async () => {
    expect((await request(agent, { ProxyRoles: [] })).error.Description).toBe(MESSAGES.approveRolesRequired);
    expect((await request(agent, { Duration: 0 })).error.Description).toBe(MESSAGES.approveDurationRange);
    expect((await request(agent, { Assignees: [] })).error.Description).toBe(MESSAGES.editAssigneesRequired);
    expect((await request(agent, { Assignees: ['agent@example.com'] })).error.ErrorCode).toBe(946); // not a SuperAdmin
    expect((await request(agent, { ProxyRoles: ['Wizard'] })).error.ErrorCode).toBe(946);
    const helper = await t.login('helper@example.com');
    expect((await request(helper)).status).toBe(200); // a Support user may ask too
  });

  it('is created pending, mails the owner a consent link and the assignees', async () => {
    // the Support user's request above holds Developer; free the role by deleting it
    const mine = (await list(await t.login('helper@example.com'))).body.Data[0];
    await t.call('impersonationDelete', {
      session: await t.login('helper@example.com'),
      query: { requestId: String(mine!.Id) },
    });

    const r = await request(agent);
    expect(r.status).toBe(200);
    id = r.body.Data.Id;
    expect(r.body.Data).toMatchObject({
      AppName: 'olive-shop',
      Initiator: 'agent@example.com',
      Impersonation: false,
      IsCustomerRequest: false,
      Request: { Priority: 'High', ProxyRoles: ['Developer'], Duration: 60 },
      Action: { Status: 'Pending', ExpiresAt: null },
    });
    expect(r.body.Message).toBe(`Impersonation request ${id} for olive-shop has been created.`);
    const toOwner = await t.smtp.waitFor((m) => m.to.includes('olive@shop.example'));
    expect(toOwner.text).toContain('Checkout fails for some users');
    expect(toOwner.text).toContain('Developer');
    expect(toOwner.text).toContain('60 minutes');
    await t.smtp.waitFor((m) => m.to.includes('boss@example.com') && m.subject.includes(`request ${id}`));
  });

  it('refuses another request for roles the app already has pending or granted', async () => {
    const r = await request(chief, { Assignees: ['boss@example.com'] });
    expect(r.status).toBe(409);
    expect(r.error.Description).toContain('Developer');
  });

  it('cannot be approved before the customer consents', async () => {
    const r = await approve(boss, id);
    expect(r.status).toBe(400);
    expect(r.error.Description).toBe(MESSAGES.customerNotGrantedImpersonation);
  });

  it('takes the owner consent once, with time and address', async () => {
    const token = await consent(id);
    const row = await t.db.query<{ consent: string; consent_address: string }>(
      'SELECT consent, consent_address FROM impersonation_requests WHERE id = $1',
      [id],
    );
    expect(row.rows[0]).toEqual({ consent: 'granted', consent_address: '203.0.113.50' });
    const again = await t.call('consentAnswer', {
      body: { token, granted: false },
    });
    expect(again.status).toBe(400);
    expect(again.error).toMatchObject({
      ErrorCode: 975,
      Description: 'This consent link is invalid, has been used, or has expired.',
    });
    const details = await t.call('consentDetails', { query: { token } });
    expect(details.error).toMatchObject({ ErrorCode: 975 });
    expect((await list(agent)).body.Data[0]!.Impersonation).toBe(true);
  });

  it('nobody approves their own request; approvals never widen; the duration is 1 to 43,200 minutes', async () => {
    const own = await request(boss, { ProxyRoles: ['Analyst'], Assignees: ['chief@example.com'] });
    await consent(own.body.Data.Id);
    const self = await approve(boss, own.body.Data.Id, {
      ProxyRoles: ['Analyst'],
      AdditionalPermissions: [],
    });
    expect(self.status).toBe(403);
    expect(self.error.Description).toBe('You cannot approve or reject your own request.');
    expect((await approve(boss, id, { ProxyRoles: ['Owner'] })).status).toBe(400);
    expect((await approve(boss, id, { Duration: 43_201 })).error.Description).toBe(
      MESSAGES.approveDurationRange,
    );
    expect((await approve(agent, id)).status).toBe(403); // an Admin lacks impersonation.approve
    await t.call('impersonationDelete', {
      session: boss,
      query: { requestId: String(own.body.Data.Id) },
    });
  });

  it('approves with the update response of spec section 7 and tells the initiator', async () => {
    const r = await approve(boss, id, { Duration: 30 });
    expect(r.status).toBe(200);
    const expires = new Date(t.clock.now().getTime() + 30 * 60_000).toISOString();
    const shown = formatExpiry(expires);
    expect(r.body.Request).toMatchObject({
      Id: id,
      Action: { Status: 'Approved', ActionTakenBy: 'boss@example.com' },
    });
    const { Request: _request, ...answer } = r.body;
    expect(answer).toEqual({
      Data: {
        Id: id,
        AppName: 'olive-shop',
        Action: { Status: 'Approved' },
        ApprovedProxyRoles: ['Developer'],
        ApprovedAdditionalPermissions: ['ViewData'],
        ExpiresAt: expires,
        Initiator: 'agent@example.com',
      },
      userStatus: 'existingUser',
      Message: `Request ${id} for olive-shop approved with 1 role and 1 additional permission until ${shown}. The initiator can access the app through the console.`,
    });
    await t.smtp.waitFor((m) => m.to.includes('agent@example.com') && m.subject.includes('Approved'));
    // a decided request cannot be approved or edited again
    expect((await approve(chief, id)).status).toBe(409);
  });

  it('is listed Expired once its time has passed, with no action left', async () => {
    t.clock.advance(30 * 60_000);
    // the sessions idled out meanwhile
    boss = await t.login('boss@example.com');
    chief = await t.login('chief@example.com');
    agent = await t.login('agent@example.com');
    const r = await list(agent, 'Expired');
    expect(r.body.Data.map((x: { Id: number }) => x.Id)).toEqual([id]);
    const revoke = await action(boss, id, { Status: 'Revoke' }, 'site');
    expect(revoke.status).toBe(409);
    expect(revoke.error.Description).toBe('This request has expired.');
  });
});

describe('revoke, reject, edit and delete', () => {
  async function approvedRequest(roles: string[]) {
    const r = await request(agent, { ProxyRoles: roles, AdditionalPermissions: ['ViewData', 'EditData'] });
    const id = r.body.Data.Id;
    await consent(id);
    expect(
      (
        await approve(boss, id, {
          ProxyRoles: roles,
          AdditionalPermissions: ['ViewData', 'EditData'],
          Duration: 120,
        })
      ).status,
    ).toBe(200);
    return id;
  }

  it('revokes only some roles, then the whole site access', async () => {
    const id = await approvedRequest(['Developer', 'Analyst']);
    const none = await action(
      boss,
      id,
      { Status: 'Revoke', ProxyRoles: [], AdditionalPermissions: [] },
      'roles',
    );
    expect(none.status).toBe(400);
    const part = await action(
      boss,
      id,
      { Status: 'Revoke', ProxyRoles: ['Analyst'], AdditionalPermissions: ['EditData'] },
      'roles',
    );
    expect(part.body.Data).toMatchObject({
      Action: { Status: 'Approved' },
      ApprovedProxyRoles: ['Developer'],
      ApprovedAdditionalPermissions: ['ViewData'],
    });
    expect(part.body.Message).toBe(`Some access of request ${id} to olive-shop has been revoked.`);
    const all = await action(boss, id, { Status: 'Revoke' }, 'site');
    expect(all.body.Data.Action.Status).toBe('Revoked');
    expect(all.body.Message).toBe(`Access of request ${id} to olive-shop has been revoked.`);
    await t.smtp.waitFor((m) => m.to.includes('olive@shop.example') && m.text.includes('revoked'));
  });

  it('rejects a pending request', async () => {
    const r = await request(agent, { ProxyRoles: ['Support'] });
    const id = r.body.Data.Id;
    const rej = await action(boss, id, { Status: 'Reject', Comments: 'Not needed' });
    expect(rej.body.Data.Action.Status).toBe('Rejected');
    const row = (await list(agent, 'Rejected')).body.Data.find((x: { Id: number }) => x.Id === id);
    expect(row!.Action).toMatchObject({ ActionTakenBy: 'boss@example.com', Reason: 'Not needed' });
  });

  it('lets only the requester edit and delete a pending request', async () => {
    const r = await request(agent, { ProxyRoles: ['Analyst'] });
    const id = r.body.Data.Id;
    const edit = (session: S, over: Record<string, unknown> = {}) =>
      t.call('impersonationEdit', {
        session,
        query: { requestId: String(id) },
        body: {
          AdditionalPermissions: [],
          Assignees: ['chief@example.com'],
          Description: 'Narrower',
          ReasonCode: 'support-ticket',
          Priority: 'Low',
          ProxyRoles: ['Analyst'],
          ...over,
        },
      });
    expect((await edit(boss)).status).toBe(403);
    expect((await edit(agent, { Assignees: [] })).error.Description).toBe(MESSAGES.editAssigneesRequired);
    const ok = await edit(agent);
    expect(ok.body.Data.Request).toMatchObject({
      Priority: 'Low',
      Assignees: ['chief@example.com'],
      Description: 'Narrower',
      ReasonCode: 'support-ticket',
    });
    const del = await t.call('impersonationDelete', {
      session: boss,
      query: { requestId: String(id) },
    });
    expect(del.status).toBe(403);
    const mine = await t.call('impersonationDelete', {
      session: agent,
      query: { requestId: String(id) },
    });
    expect(mine.body).toMatchObject({ IsDeleted: true, Id: id });
    expect((await list(agent)).body.Data.map((x: { Id: number }) => x.Id)).not.toContain(id);
  });

  it('orders pending and live approvals first', async () => {
    const data = (await list(boss)).body.Data as Array<{ Action: { Status: string } }>;
    const live = (s: string) => s === 'Pending' || s === 'Approved';
    const firstDead = data.findIndex((x) => !live(x.Action.Status));
    expect(data.slice(firstDead).every((x) => !live(x.Action.Status))).toBe(true);
  });

  it('keeps every step in the impersonation log', async () => {
    const r = await t.call('impersonationLogs', { session: agent });
    const events = r.body.Data.map((x: { Event: string }) => x.Event);
    expect(events).toEqual(
      expect.arrayContaining(['request', 'consent-granted', 'approve', 'revoke', 'reject', 'edit', 'delete']),
    );
  });
});

describe('impersonation sessions (updateaccess, account/switchapp)', () => {
  let owner: string;
  let site: number;
  let other: number;
  let id: number;

  beforeAll(async () => {
    boss = await t.login('boss@example.com');
    agent = await t.login('agent@example.com');
    owner = await insertCustomer(t.db, { first: 'Sam', last: 'Shop', email: 'sam@store.example' });
    site = (await insertSite(t.db, { owner, name: 'sam-store' })).appId;
    other = (await insertSite(t.db, { owner, name: 'sam-other' })).appId;
  });

  const access = (session: S, appId: number) =>
    t.call('updateAccess', {
      session,
      query: { appId: String(appId), userId: owner },
    });
  const switchApp = (session: S, appId: number) =>
    t.call('switchApp', { session, query: { appid: String(appId) } });

  it('gives nothing without an approved, consented, unexpired grant', async () => {
    expect((await access(agent, site)).error.Description).toBe(
      'You have no approved, unexpired impersonation of this site.',
    );
    expect((await switchApp(agent, site)).status).toBe(403);
  });

  it('opens a session scoped to the site and the approved permissions, and logs every call', async () => {
    const r = await t.call('impersonationCreate', {
      session: agent,
      body: {
        data: {
          AppId: site,
          Priority: 'Critical',
          Description: 'Fix settings',
          ReasonCode: 'support-ticket',
          Assignees: ['boss@example.com'],
          ProxyRoles: ['Developer'],
          AdditionalPermissions: [],
          Duration: 60,
        },
      },
    });
    id = r.body.Data.Id;
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('sam@store.example') && m.subject.endsWith(`(request ${id})`),
    );
    const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!;
    await t.call('consentAnswer', {
      body: { token, granted: true },
    });
    await approve(boss, id, { ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 30 });

    const grant = await access(agent, site);
    expect(grant.body.Data).toMatchObject({ RequestId: id, AppName: 'sam-store', Roles: ['Developer'] });
    expect(grant.body.Data.Permissions).toEqual(['EditData', 'ManageSettings', 'ViewData']);
    expect((await access(boss, site)).status).toBe(403); // the grant is the requester's alone

    const opened = await switchApp(agent, site);
    expect(opened.status).toBe(200);
    const imp = { xtoken: opened.body.xtoken, xsign: opened.body.xsign };
    const get = <I extends EndpointId>(id: I, query: QueryOf<I>) => t.call(id, { session: imp, query });

    // allowed: reading and configuring that site
    expect((await get('appInfoById', { uId: owner, appId: String(site) })).status).toBe(200);
    const put = await t.call('updateSiteBasicSettings', {
      session: imp,
      query: { uID: owner, appId: String(site) },
      // the web apps only: a plan change would need ManageBilling, which this grant lacks
      body: { data: { ProductionUrl: 'https://sam.example' } },
    });
    expect(put.status).toBe(200);
    // refused: another site, a permission not granted (ManageSite), a staff call
    const elsewhere = await get('appInfoById', { uId: owner, appId: String(other) });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.error.Description).toBe(
      'This call is outside the impersonated site or its approved permissions.',
    );
    const status = await t.call('setSiteStatus', {
      session: imp,
      query: { uId: owner, appId: String(site) },
      body: { Status: 'inactive' },
    });
    expect(status.status).toBe(403);
    expect((await t.call('teamList', { session: imp })).status).toBe(403);
    expect((await switchApp(imp, site)).status).toBe(403); // no nesting
    expect((await t.call('session', { session: imp })).status).toBe(200);

    const log = await t.db.query<{ event: string; actor: string; details: { path: string } }>(
      "SELECT event, actor, details FROM impersonation_log WHERE request_id = $1 AND event LIKE 'call%' ORDER BY id",
      [id],
    );
    expect(log.rows.map((x) => `${x.event} ${x.details.path}`)).toEqual([
      'call /admin/appinfobyid',
      'call /admin/site/basicsettings',
      'call-refused /admin/appinfobyid',
      'call-refused /admin/site/status',
      'call-refused /admin/team',
      'call-refused /account/switchapp',
    ]);
    expect(log.rows.every((x) => x.actor === 'agent@example.com')).toBe(true);

    // revocation ends it on the very next call
    await action(boss, id, { Status: 'Revoke' }, 'site');
    const after = await get('appInfoById', { uId: owner, appId: String(site) });
    expect(after.status).toBe(401);
    expect(after.error.Description).toBe('The impersonation has ended: it expired or was revoked.');
  });

  it('ends at the expiry of the grant', async () => {
    const r = await t.call('impersonationCreate', {
      session: agent,
      body: {
        data: {
          AppId: site,
          Priority: 'Low',
          Description: 'Look',
          ReasonCode: 'support-ticket',
          Assignees: ['boss@example.com'],
          ProxyRoles: ['Analyst'],
          AdditionalPermissions: [],
          Duration: 60,
        },
      },
    });
    const rid = r.body.Data.Id;
    const mail = await t.smtp.waitFor((m) => m.subject.endsWith(`(request ${rid})`));
    const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('token')!;
    await t.call('consentAnswer', {
      body: { token, granted: true },
    });
    await approve(boss, rid, { ProxyRoles: ['Analyst'], AdditionalPermissions: [], Duration: 10 });
    const opened = await switchApp(agent, site);
    const imp = { xtoken: opened.body.xtoken, xsign: opened.body.xsign };
    const read = () =>
      t.call('appInfoById', {
        session: imp,
        query: { uId: owner, appId: String(site) },
      });
    t.clock.advance(9 * 60_000);
    expect((await read()).status).toBe(200);
    t.clock.advance(60_000);
    expect((await read()).status).toBe(401);
  });
});

describe('customer-originated requests and the owner access page', () => {
  let owner: string;
  let site: { appId: number; apiKey: string; secret: string };
  beforeAll(async () => {
    boss = await t.login('boss@example.com');
    agent = await t.login('agent@example.com');
    owner = await insertCustomer(t.db, { first: 'Cora', last: 'Client', email: 'cora@client.example' });
    site = await insertSite(t.db, { owner, name: 'cora-app' });
  });
  const ask = (apikey: string, apisecret: string) =>
    t.call('customerRequestsCreate', {
      headers: { apikey, apisecret },
      body: {
        data: {
          Priority: 'Critical',
          Description: 'Our login page is broken',
          ProxyRoles: ['Developer'],
          AdditionalPermissions: [],
          Duration: 20,
        },
      },
    });

  it('needs the site API key and secret', async () => {
    const r = await ask(site.apiKey, 'wrong');
    expect(r.status).toBe(401);
    expect(r.error).toMatchObject({
      ErrorCode: 949,
      Description: 'The API key and secret do not match a site.',
    });
    expect((await ask('not-a-key', site.secret)).status).toBe(401);
  });

  it('carries its own consent, goes to the SuperAdmins, and is used by the SuperAdmin who approves it', async () => {
    const r = await ask(site.apiKey, site.secret);
    expect(r.status).toBe(200);
    const id = r.body.Data.Id;
    expect(r.body.Data).toMatchObject({
      Impersonation: true,
      IsCustomerRequest: true,
      Initiator: 'cora@client.example',
      Request: { Assignees: expect.arrayContaining(['boss@example.com', 'chief@example.com']) },
    });
    const listed = await t.call('customerRequestsList', {
      session: boss,
    });
    expect(listed.body.Data[0]!.Id).toBe(id);
    expect(
      (await approve(boss, id, { ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 20 }))
        .status,
    ).toBe(200);
    const sw = (session: S) => t.call('switchApp', { session, query: { appid: String(site.appId) } });
    expect((await sw(agent)).status).toBe(403);
    const mine = await sw(boss);
    expect(mine.status, mine.raw.body).toBe(200);
  });

  it('shows the owner every request and step from the link in their email', async () => {
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('cora@client.example') && m.text.includes('/impersonation/site-access'),
    );
    const token = new URL(
      /https?:\/\/\S+\/impersonation\/site-access\S*/.exec(mail.text)![0],
    ).searchParams.get('token')!;
    const r = await t.call('siteAccess', { query: { token } });
    expect(r.status).toBe(200);
    expect(r.body.Data.AppName).toBe('cora-app');
    expect(r.body.Data.Requests[0]).toMatchObject({
      IsCustomerRequest: true,
      Action: { Status: 'Approved' },
    });
    expect(r.body.Data.Log.map((l: { Event: string }) => l.Event)).toEqual(
      expect.arrayContaining(['customer-request', 'approve', 'session-start']),
    );
    // Staff appear by role and a stable pseudonym, never by email or client address; the owner's
    // own steps keep the owner's email.
    const data = r.body.Data as {
      Requests: Array<{
        Initiator: string;
        Request: { Assignees: string[] };
        Action: { ActionTakenBy: string };
      }>;
      Log: Array<{ Event: string; Actor: string; ClientAddress: string | null }>;
    };
    expect(r.raw.body).not.toMatch(/@example\.com/);
    expect(data.Requests[0]!.Initiator).toBe('cora@client.example');
    const approver = data.Requests[0]!.Action.ActionTakenBy;
    expect(approver).toMatch(/^SuperAdmin [0-9A-Z]{6}$/);
    expect(data.Requests[0]!.Request.Assignees).toContain(approver);
    const staffSteps = data.Log.filter((l) => l.Event === 'approve' || l.Event === 'session-start');
    expect(new Set(staffSteps.map((l) => l.Actor))).toEqual(new Set([approver]));
    expect(staffSteps.map((l) => l.ClientAddress)).toEqual(staffSteps.map(() => null));
    const again = await t.call('siteAccess', {
      query: { token },
    });
    expect(again.body.Data.Requests[0]!.Action.ActionTakenBy).toBe(approver);
    const bad = await t.call('siteAccess', {
      query: { token: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ ErrorCode: 976, Description: 'This link is invalid or has expired.' });
  });

  it('gives the owner every step as CSV and JSON, and an Atom feed, behind the same link, staff named as on the page', async () => {
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('cora@client.example') && m.text.includes('/impersonation/site-access'),
    );
    const token = new URL(
      /https?:\/\/\S+\/impersonation\/site-access\S*/.exec(mail.text)![0],
    ).searchParams.get('token')!;
    const page = (await t.call('siteAccess', { query: { token } })).body.Data;
    const oldestFirst = [...page.Log].reverse();

    const csv = await t.callLoose('siteAccessExport', { query: { token } });
    expect(csv.status, csv.raw.body).toBe(200);
    expect(csv.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.raw.headers['content-disposition']).toMatch(
      /^attachment; filename="cora-app-access-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const lines = csv.raw.body.trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe('Date,Site,Request,Event,Actor,Client address,Reason,Case');
    expect(lines.slice(1).map((l) => l.split(',')[3])).toEqual(oldestFirst.map((l) => l.Event));
    expect(csv.raw.body).not.toMatch(/@example\.com/);

    const json = await t.callLoose('siteAccessExport', { query: { token, format: 'json' } });
    expect(json.raw.headers['content-type']).toBe('application/json; charset=utf-8');
    const steps = JSON.parse(json.raw.body) as Array<Record<string, unknown>>;
    expect(steps).toEqual(oldestFirst.map((l) => ({ AppName: 'cora-app', ...l })));

    const feed = await t.callLoose('siteAccessFeed', { query: { token } });
    expect(feed.status).toBe(200);
    expect(feed.raw.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(feed.raw.body).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/,
    );
    expect(feed.raw.body).toContain('<title>Provider access to cora-app</title>');
    const entries = [...feed.raw.body.matchAll(/<entry>[\s\S]*?<title>([^<]*)<\/title>/g)].map((m) => m[1]);
    expect(entries).toEqual(
      page.Log.map((l) => `Request ${l.RequestId}: ${l.Event}${l.Actor ? ` by ${l.Actor}` : ''}`),
    );
    expect(feed.raw.body).not.toMatch(/@example\.com/);
    expect(feed.raw.body).toContain(`token=${token}`);

    // a feed reader and a download link send no ajax marker: these two take none, the page's call does
    const plain = (url: string) => t.app.inject({ method: 'GET', url });
    const q = `?token=${encodeURIComponent(token)}`;
    expect((await plain(`/admin/impersonation/site-access/feed${q}`)).statusCode).toBe(200);
    expect((await plain(`/admin/impersonation/site-access/export${q}&format=json`)).statusCode).toBe(200);
    expect((await plain(`/admin/impersonation/site-access${q}`)).statusCode).toBe(400);

    for (const id of ['siteAccessExport', 'siteAccessFeed'] as const) {
      const bad = await t.callLoose(id, { query: { token: 'nope' } });
      expect(bad.status).toBe(400);
      expect(bad.error.ErrorCode).toBe(976);
    }
  });
});

describe('a grant stays with whom it was granted', () => {
  let owner: string;
  beforeAll(async () => {
    boss = await t.login('boss@example.com');
    chief = await t.login('chief@example.com');
    agent = await t.login('agent@example.com');
    owner = await insertCustomer(t.db, { first: 'Hana', last: 'Holder', email: 'hana@holder.example' });
  });
  const access = (session: S, appId: number) =>
    t.call('updateAccess', {
      session,
      query: { appId: String(appId), userId: owner },
    });
  const sw = (session: S, appId: number) => t.call('switchApp', { session, query: { appid: String(appId) } });
  const open = async (session: S, appId: number) => {
    const r = await sw(session, appId);
    expect(r.status, r.raw.body).toBe(200);
    return { xtoken: r.body.xtoken, xsign: r.body.xsign };
  };
  const readAs = (imp: S, appId: number) =>
    t.call('appInfoById', {
      session: imp,
      query: { uId: owner, appId: String(appId) },
    });

  it("on a customer's request, another SuperAdmin's partial revoke leaves the approver holding the grant", async () => {
    const site = await insertSite(t.db, { owner, name: 'hc-site' });
    const asked = await t.call('customerRequestsCreate', {
      headers: { apikey: site.apiKey, apisecret: site.secret },
      body: {
        data: {
          Priority: 'High',
          Description: 'Help',
          ProxyRoles: ['Developer', 'Analyst'],
          AdditionalPermissions: [],
          Duration: 60,
        },
      },
    });
    const id = asked.body.Data.Id;
    expect(
      (
        await approve(boss, id, {
          ProxyRoles: ['Developer', 'Analyst'],
          AdditionalPermissions: [],
          Duration: 60,
        })
      ).status,
    ).toBe(200);
    const imp = await open(boss, site.appId);

    const part = await action(
      chief,
      id,
      { Status: 'Revoke', ProxyRoles: ['Analyst'], AdditionalPermissions: [] },
      'roles',
    );
    expect(part.status).toBe(200);
    expect(part.body.Request.Action).toMatchObject({
      Status: 'Approved',
      ActionTakenBy: 'chief@example.com',
    });
    // the grant is still the approver's, narrowed; the revoker gained nothing
    expect((await access(boss, site.appId)).body.Data).toMatchObject({
      RequestId: id,
      Roles: ['Developer'],
    });
    expect((await readAs(imp, site.appId)).status).toBe(200);
    expect((await access(chief, site.appId)).status).toBe(403);
    expect((await sw(chief, site.appId)).status).toBe(403);
    // the holder is told of the partial revoke
    await t.smtp.waitFor(
      (m) => m.to.includes('boss@example.com') && m.subject === `Impersonation request ${id}: Approved`,
    );

    // at expiry the notice goes to the holder, not to the last one who acted
    t.clock.advance(60 * 60_000);
    boss = await t.login('boss@example.com');
    chief = await t.login('chief@example.com');
    agent = await t.login('agent@example.com');
    expect(await sendExpiryNotices(t.ctx)).toBeGreaterThanOrEqual(1);
    await t.smtp.waitFor(
      (m) => m.to.includes('boss@example.com') && m.subject === `Impersonation request ${id}: Expired`,
    );
    expect(
      t.smtp.messages.some((m) => m.to.includes('chief@example.com') && m.subject.endsWith(`${id}: Expired`)),
    ).toBe(false);
  });

  it("on a staff member's request, the requester holds the grant whoever approves or revokes", async () => {
    const { appId } = await insertSite(t.db, { owner, name: 'hs-site' });
    const r = await request(agent, {
      AppId: appId,
      ProxyRoles: ['Developer', 'Analyst'],
      AdditionalPermissions: [],
    });
    expect(r.status, r.raw.body).toBe(200);
    const id = r.body.Data.Id;
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('hana@holder.example') && m.subject.endsWith(`(request ${id})`),
    );
    const token = new URL(/https?:\/\/\S+\/impersonation\/consent\S*/.exec(mail.text)![0]).searchParams.get(
      'token',
    )!;
    await t.call('consentAnswer', {
      body: { token, granted: true },
    });
    await approve(boss, id, {
      ProxyRoles: ['Developer', 'Analyst'],
      AdditionalPermissions: [],
      Duration: 60,
    });
    const imp = await open(agent, appId);
    const part = await action(chief, id, { Status: 'Revoke', ProxyRoles: ['Analyst'] }, 'roles');
    expect(part.status).toBe(200);
    expect((await readAs(imp, appId)).status).toBe(200);
    expect((await access(agent, appId)).body.Data.Roles).toEqual(['Developer']);
    for (const s of [boss, chief]) expect((await access(s, appId)).status).toBe(403);
    const held = await t.db.query<{ holder_email: string }>(
      'SELECT holder_email FROM impersonation_requests WHERE id = $1',
      [id],
    );
    expect(held.rows[0]!.holder_email).toBe('agent@example.com');
    await action(boss, id, { Status: 'Revoke' }, 'site');
    expect((await readAs(imp, appId)).status).toBe(401);
  });
});

describe('plan and trial through an impersonation need ManageBilling', () => {
  let owner: string;
  let agentUid: string;
  beforeAll(async () => {
    agent = await t.login('agent@example.com');
    agentUid = (await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'agent@example.com'"))
      .rows[0]!.uid;
    owner = await insertCustomer(t.db, { first: 'Bill', last: 'Ing', email: 'bill@billing.example' });
  });
  /** A site on a Developer trial (ends 2026-02-01) and an impersonation session on it with `roles`. */
  async function impersonating(name: string, roles: string[]) {
    const { appId } = await insertSite(t.db, { owner, name });
    await insertGrant(t.db, {
      appId,
      initiatorUid: agentUid,
      initiatorEmail: 'agent@example.com',
      roles,
      now: t.clock.now(),
    });
    const r = await t.call('switchApp', { session: agent, query: { appid: String(appId) } });
    expect(r.status, r.raw.body).toBe(200);
    return { appId, imp: { xtoken: r.body.xtoken, xsign: r.body.xsign } };
  }
  const put = (imp: S, appId: number, data: Record<string, unknown>) =>
    t.call('updateSiteBasicSettings', {
      session: imp,
      query: { uID: owner, appId: String(appId) },
      body: { data: { ProductionUrl: 'https://new.example.com', ...data } },
    });
  const stored = async (appId: number) =>
    (
      await t.db.query<{
        plan: string;
        plan_status: string;
        trial_ends_at: Date | null;
        production_url: string;
      }>('SELECT plan, plan_status, trial_ends_at, production_url FROM sites WHERE app_id = $1', [appId])
    ).rows[0]!;
  const daysLeft = () =>
    Math.ceil((Date.parse('2026-02-01T00:00:00Z') - t.clock.now().getTime()) / 86_400_000);

  it('refuses a plan or trial change to a grant without ManageBilling, and changes nothing', async () => {
    const { appId, imp } = await impersonating('bill-dev', ['Developer']); // ManageSettings, no ManageBilling
    const before = await stored(appId);
    for (const data of [
      { Plan: 'Developer Premium', TrialDays: 365 }, // the reported case
      { Plan: 'Developer Premium', TrialDays: daysLeft() }, // the plan alone
      { Plan: 'Developer', TrialDays: 365 }, // a longer trial
      { Plan: 'Developer', TrialDays: 0 }, // ending the trial (subscribed)
    ]) {
      const r = await put(imp, appId, data);
      expect(r.status, JSON.stringify(data)).toBe(403);
      expect(r.error).toMatchObject({
        ErrorCode: 947,
        Description: IMPERSONATION_SESSION_MESSAGES.billingNeeded,
      });
    }
    expect(await stored(appId)).toEqual(before);
  });

  it('lets it save the web apps (no plan named), keeping plan and trial end exactly', async () => {
    const { appId, imp } = await impersonating('bill-urls', ['Developer']);
    const before = await stored(appId);
    const r = await put(imp, appId, {});
    expect(r.status, r.raw.body).toBe(200);
    expect(await stored(appId)).toEqual({ ...before, production_url: 'https://new.example.com' });
  });

  it('lets a grant with ManageBilling (Owner) change the plan and the trial', async () => {
    const { appId, imp } = await impersonating('bill-owner', ['Owner']);
    const r = await put(imp, appId, { Plan: 'Developer Premium', TrialDays: 365 });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Data).toMatchObject({ Plan: 'Developer Premium', PlanStatus: 'Trial' });
  });

  it('leaves staff with sites.write (Admin) changing plans as before', async () => {
    const { appId } = await insertSite(t.db, { owner, name: 'bill-staff' });
    const r = await put(agent, appId, { Plan: 'Developer Premium', TrialDays: 30 });
    expect(r.status, r.raw.body).toBe(200);
    expect(await stored(appId)).toMatchObject({ plan: 'Developer Premium', plan_status: 'Trial' });
  });
});

describe('GET /admin/impersonation/taken-roles: what other live requests of a site hold', () => {
  it('tells any requester (not only SuperAdmins) the roles the create and edit calls would refuse', async () => {
    const owner = await insertCustomer(t.db, { first: 'Tara', last: 'Taken', email: 'tara@taken.example' });
    const site = (await insertSite(t.db, { owner, name: 'taken-roles' })).appId;
    const helper = await t.login('helper@example.com');
    const taken = (session: S, exceptId?: number) =>
      t.call('impersonationTakenRoles', {
        session,
        query: { appId: String(site), ...(exceptId ? { exceptId: String(exceptId) } : {}) },
      });
    expect((await taken(helper)).body).toEqual({ Data: { AppId: site, Roles: [] } });

    // a SuperAdmin's pending request holds Analyst; the Support requester cannot list it...
    const held = await request(boss, {
      AppId: site,
      ProxyRoles: ['Analyst'],
      Assignees: ['chief@example.com'],
    });
    expect(held.status, held.raw.body).toBe(200);
    expect((await list(helper)).body.Data.map((r: { AppId: number }) => r.AppId)).not.toContain(site);
    // ...but is told Analyst is taken, which is what the create call refuses
    expect((await taken(helper)).body.Data.Roles).toEqual(['Analyst']);
    const refused = await request(helper, { AppId: site, ProxyRoles: ['Analyst'] });
    expect(refused.status).toBe(409);
    expect(refused.error.ErrorCode).toBe(945);

    // editing one's own request: its own roles are not counted against it
    const own = await request(helper, { AppId: site, ProxyRoles: ['Developer'] });
    const ownId = own.body.Data.Id as number;
    expect((await taken(boss)).body.Data.Roles).toEqual(['Analyst', 'Developer']);
    expect((await taken(helper, ownId)).body.Data.Roles).toEqual(['Analyst']);

    // a deleted request holds nothing
    await t.call('impersonationDelete', {
      session: helper,
      query: { requestId: String(ownId) },
    });
    expect((await taken(helper)).body.Data.Roles).toEqual(['Analyst']);
  });

  it('refuses a missing or malformed appId', async () => {
    const r = await t.callLoose('impersonationTakenRoles', { session: agent, query: {} });
    expect(r.status).toBe(400);
  });
});

describe('GET /admin/impersonation/approvers: who a request can be assigned to', () => {
  it('lists every SuperAdmin by name and email, and nothing else, to any requester', async () => {
    const helper = await t.login('helper@example.com');
    const r = await t.call('impersonationApprovers', { session: helper });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body).toEqual({
      Data: [
        { Email: 'boss@example.com', Name: 'boss' },
        { Email: 'chief@example.com', Name: 'chief' },
      ],
    });
  });
});
