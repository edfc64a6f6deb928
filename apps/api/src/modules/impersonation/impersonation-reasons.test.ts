import { parseReasonCodes } from '@sac/contract/access-reasons';
import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, type TestApp } from '../../../test/harness.ts';
import { insertRequest } from '../../../test/impersonation-fixtures.ts';
import { loadConfig } from '../../config.ts';

/**
 * Reasons with a case (issue 35): a request's reason code and case reference, in every place
 * that shows the request: the answers and lists, the approver's view, the consent mail and page,
 * the owner's access page, export and feed, and the staff trail's rows of its steps.
 */

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S; // SuperAdmin: assignee and approver
let agent: S; // Admin who requests
let appId: number;
let owner: string;
const PATTERN = 'https://tickets.example.com/browse/{case}';
const CASE = 'SUP 42/7';
const CASE_URL = 'https://tickets.example.com/browse/SUP%2042%2F7';

beforeAll(async () => {
  t = await createTestApp({
    impersonationReasons: {
      codes: parseReasonCodes('vip-escalation:VIP escalation,billing:Invoice question'),
      caseRequired: true,
      caseUrlPattern: PATTERN,
    },
  });
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('agent@example.com', ['Admin']);
  boss = await t.login('boss@example.com');
  agent = await t.login('agent@example.com');
  owner = await insertCustomer(t.db, { first: 'Rita', last: 'Reason', email: 'rita@reason.example' });
  appId = (await insertSite(t.db, { owner, name: 'reason-shop' })).appId;
});
afterAll(() => t.close());

const create = (data: Record<string, unknown>) =>
  t.callLoose('impersonationCreate', {
    session: agent,
    headers: { origin: CONSOLE_ORIGIN },
    body: {
      data: {
        AppId: appId,
        Priority: 'High',
        Description: 'The customer cannot sign in',
        ReasonCode: 'vip-escalation',
        CaseReference: CASE,
        Assignees: ['boss@example.com'],
        ProxyRoles: ['Developer'],
        AdditionalPermissions: [],
        Duration: 60,
        ...data,
      },
    },
  });
const edit = (id: number, version: number, body: Record<string, unknown>) =>
  t.callLoose('impersonationEdit', {
    session: agent,
    query: { requestId: String(id) },
    headers: { 'if-match': `"${version}"` },
    body: {
      AdditionalPermissions: [],
      Assignees: ['boss@example.com'],
      Description: 'The customer cannot sign in',
      Priority: 'High',
      ProxyRoles: ['Developer'],
      ReasonCode: 'vip-escalation',
      CaseReference: CASE,
      ...body,
    },
  });
const requestsOf = async (session: S) =>
  (await t.call('impersonationList', { session, query: { appId: String(appId) } })).body.Data;
const why = (r: { Request: Record<string, unknown> }) => ({
  ReasonCode: r.Request.ReasonCode,
  ReasonLabel: r.Request.ReasonLabel,
  CaseReference: r.Request.CaseReference,
  CaseUrl: r.Request.CaseUrl,
});
const VIP = {
  ReasonCode: 'vip-escalation',
  ReasonLabel: 'VIP escalation',
  CaseReference: CASE,
  CaseUrl: CASE_URL,
};

describe('GET /admin/impersonation/reasons', () => {
  it("tells a requester the built-in codes, the operator's own, the case rule and its link", async () => {
    const r = await t.call('impersonationReasons', { session: agent });
    expect(r.status).toBe(200);
    const codes = r.body.Data.ReasonCodes;
    expect(codes[0]).toEqual({ Code: 'customer-request', Label: 'Customer asked for help' });
    // a built-in code given again takes the operator's words; a new one comes after the built-in ones
    expect(codes.find((c) => c.Code === 'billing')).toEqual({ Code: 'billing', Label: 'Invoice question' });
    expect(codes.at(-1)).toEqual({ Code: 'vip-escalation', Label: 'VIP escalation' });
    expect(codes.map((c) => c.Code)).toEqual(
      expect.arrayContaining(['production-incident', 'security-incident', 'legal-request']),
    );
    expect(r.body.Data).toMatchObject({ CaseRequired: true, CaseUrlPattern: PATTERN });
  });
});

describe('a request with a reason code and a case', () => {
  let id: number;
  let version: number;

  it('refuses a bad code or case with a 400 naming the field, and creates nothing', async () => {
    const before = (await requestsOf(boss)).length;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ ReasonCode: 'made-up' }, ERRORS.unknownReasonCode.code, 'data.ReasonCode'],
      [{ ReasonCode: undefined }, ERRORS.validation.code, 'data.ReasonCode'],
      [{ ReasonCode: '' }, ERRORS.validation.code, 'data.ReasonCode'],
      [{ CaseReference: undefined }, ERRORS.caseRequired.code, 'data.CaseReference'],
      [{ CaseReference: '   ' }, ERRORS.caseRequired.code, 'data.CaseReference'],
      [{ CaseReference: 'x'.repeat(101) }, ERRORS.caseReferenceInvalid.code, 'data.CaseReference'],
      [{ CaseReference: 'SUP\n42' }, ERRORS.caseReferenceInvalid.code, 'data.CaseReference'],
      [{ CaseReference: 'SUP\u0007' }, ERRORS.caseReferenceInvalid.code, 'data.CaseReference'],
    ];
    for (const [over, code, field] of cases) {
      const r = await create(over);
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.error.ErrorCode, JSON.stringify(over)).toBe(code);
      expect(r.error.FieldErrors?.[0]?.Field, JSON.stringify(over)).toBe(field);
    }
    const unknown = await create({ ReasonCode: 'made-up' });
    expect(unknown.error.Description).toBe(
      "There is no reason code 'made-up'. Please choose one of the list.",
    );
    expect((await requestsOf(boss)).length).toBe(before);
  });

  it('answers the code, its words, the case and its link on creation, and in both lists', async () => {
    const r = await create({});
    expect(r.status, r.raw.body).toBe(200);
    id = r.body.Data.Id;
    version = r.body.Data.Version;
    expect(why(r.body.Data)).toEqual(VIP);
    expect(why((await requestsOf(agent)).find((x) => x.Id === id)!)).toEqual(VIP);
    // the approver's view: their list and the one request
    expect(why((await requestsOf(boss)).find((x) => x.Id === id)!)).toEqual(VIP);
    const one = await t.call('impersonationList', { session: boss, query: { requestId: String(id) } });
    expect(why(one.body.Data[0]!)).toEqual(VIP);
  });

  it('tells the owner both in the consent mail and on the consent page', async () => {
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('rita@reason.example') && m.subject.endsWith(`(request ${id})`),
    );
    expect(mail.text).toMatch(/^Reason: VIP escalation\r?$/m);
    // the owner reads the case's reference, never the link into the provider's own tracker
    expect(mail.text.split(/\r?\n/)).toContain(`Case: ${CASE}`);
    expect(mail.text).not.toContain('Case link:');
    const assigned = await t.smtp.waitFor(
      (m) => m.to.includes('boss@example.com') && m.subject.startsWith(`Impersonation request ${id} `),
    );
    expect(assigned.text).toContain('Reason: VIP escalation');
    expect(assigned.text.split(/\r?\n/)).toContain(`Case link: ${CASE_URL}`);
    const token = new URL(/https?:\/\/\S+\/impersonation\/consent\S*/.exec(mail.text)![0]).searchParams.get(
      'token',
    )!;
    const page = await t.call('consentDetails', { query: { token } });
    expect(page.body.Data).toMatchObject({ ...VIP, CaseUrl: null });
    expect((await t.call('consentAnswer', { body: { token, granted: true } })).status).toBe(200);
    // consented, it awaits the approver's decision on their dashboard, with its reason and case
    const board = (await t.call('dashboard', { session: boss })).body.Impersonation!;
    expect(board.AwaitingMyDecision!.Items.find((r) => r.Id === id)).toMatchObject(VIP);
  });

  it('lets the requester change both; a bad edit names the field and changes nothing', async () => {
    version = (await requestsOf(agent)).find((x) => x.Id === id)!.Version;
    const bad = await edit(id, version, { ReasonCode: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ ErrorCode: ERRORS.unknownReasonCode.code });
    expect(bad.error.FieldErrors?.[0]?.Field).toBe('ReasonCode');
    const noCase = await edit(id, version, { CaseReference: '' });
    expect(noCase.error).toMatchObject({ ErrorCode: ERRORS.caseRequired.code });
    expect(noCase.error.FieldErrors?.[0]?.Field).toBe('CaseReference');
    const still = (await requestsOf(agent)).find((x) => x.Id === id)!;
    expect(still.Version).toBe(version);
    expect(why(still)).toEqual(VIP);

    const ok = await edit(id, version, { ReasonCode: 'billing', CaseReference: 'INV-9' });
    expect(ok.status, ok.raw.body).toBe(200);
    const billing = {
      ReasonCode: 'billing',
      ReasonLabel: 'Invoice question',
      CaseReference: 'INV-9',
      CaseUrl: 'https://tickets.example.com/browse/INV-9',
    };
    expect(why(ok.body.Data)).toEqual(billing);
    expect(why((await requestsOf(boss)).find((x) => x.Id === id)!)).toEqual(billing);
  });

  it('carries them in the staff trail rows of every step of the request', async () => {
    const approved = await t.callLoose('impersonationAction', {
      session: boss,
      query: { requestId: String(id) },
      body: { Status: 'Approve', ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 30 },
    });
    expect(approved.status, approved.raw.body).toBe(200);
    expect(why(approved.body.Request)).toMatchObject({ ReasonCode: 'billing', CaseReference: 'INV-9' });
    const trail = await t.call('auditEvents', { session: boss, query: { appId: String(appId) } });
    const steps = trail.body.Data.filter((e) => e.ImpersonationRequestId === id);
    const byAction = Object.fromEntries(steps.map((e) => [e.Action, e.Details]));
    expect(Object.keys(byAction).sort()).toEqual(
      [
        'impersonation.approve',
        'impersonation.consent-granted',
        'impersonation.edit',
        'impersonation.request',
      ].sort(),
    );
    // each as it was at that step: the owner consented before the edit
    for (const a of ['impersonation.request', 'impersonation.consent-granted'])
      expect(byAction[a], a).toMatchObject({ reasonCode: 'vip-escalation', caseReference: CASE });
    for (const a of ['impersonation.edit', 'impersonation.approve'])
      expect(byAction[a], a).toMatchObject({ reasonCode: 'billing', caseReference: 'INV-9' });
    // the impersonation log's entries say the same
    const log = await t.call('impersonationLogs', { session: boss, query: {} });
    const approve = log.body.Data.find((l) => l.RequestId === id && l.Event === 'approve')!;
    expect(approve.Details).toMatchObject({ reasonCode: 'billing', caseReference: 'INV-9' });
  });

  it("carries both into the grant the holder's session reads, the case linked", async () => {
    const session = await t.call('switchApp', { session: agent, query: { appid: appId } });
    expect(session.status, session.raw.body).toBe(200);
    const billing = {
      ReasonCode: 'billing',
      ReasonLabel: 'Invoice question',
      CaseReference: 'INV-9',
      CaseUrl: 'https://tickets.example.com/browse/INV-9',
    };
    expect(session.body.Data).toMatchObject({ RequestId: id, ...billing });
    const read = await t.call('updateAccess', { session: agent, query: { appId, userId: owner } });
    expect(read.body.Data).toMatchObject(billing);
  });

  it("shows both on the owner's access page, its export (CSV and JSON) and its feed", async () => {
    const mail = await t.smtp.waitFor(
      (m) => m.to.includes('rita@reason.example') && m.text.includes('/impersonation/site-access'),
    );
    const token = new URL(
      /https?:\/\/\S+\/impersonation\/site-access\S*/.exec(mail.text)![0],
    ).searchParams.get('token')!;
    const page = (await t.call('siteAccess', { query: { token } })).body.Data;
    const billing = {
      ReasonCode: 'billing',
      ReasonLabel: 'Invoice question',
      CaseReference: 'INV-9',
      CaseUrl: null, // the provider's tracker is theirs: the owner reads the reference
    };
    expect(why(page.Requests.find((r) => r.Id === id)!)).toEqual(billing);
    const steps = page.Log.filter((l) => l.RequestId === id);
    expect(steps.length).toBeGreaterThanOrEqual(4);
    for (const s of steps) expect(s).toMatchObject(billing);

    const csv = await t.callLoose('siteAccessExport', { query: { token } });
    const lines = csv.raw.body.trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe('Date,Site,Request,Event,Actor,Client address,Reason,Case');
    const mine = lines.filter((l) => l.split(',')[2] === String(id));
    expect(mine.length).toBe(steps.length);
    for (const l of mine) expect(l.endsWith(',Invoice question,INV-9')).toBe(true);

    const json = await t.callLoose('siteAccessExport', { query: { token, format: 'json' } });
    const rows = (JSON.parse(json.raw.body) as Array<Record<string, unknown>>).filter(
      (r) => r.RequestId === id,
    );
    for (const r of rows) expect(r).toMatchObject(billing);

    const feed = await t.callLoose('siteAccessFeed', { query: { token } });
    const contents = [...feed.raw.body.matchAll(/<content type="text">([^<]*)<\/content>/g)].map(
      (m) => m[1]!,
    );
    const ofRequest = contents.filter((c) => c.startsWith(`Request ${id}:`));
    expect(ofRequest.length).toBe(steps.length);
    for (const c of ofRequest) expect(c.endsWith('. Reason: Invoice question. Case: INV-9')).toBe(true);
  });
});

describe('requests without a code', () => {
  it('an older request (before codes) is shown as it was: no code, no case', async () => {
    const old = await insertRequest(t.db, {
      appId,
      initiator: 'agent@example.com',
      assignees: ['boss@example.com'],
      roles: ['Analyst'],
    });
    const listed = (await requestsOf(boss)).find((x) => x.Id === old.id)!;
    expect(why(listed)).toEqual({ ReasonCode: null, ReasonLabel: null, CaseReference: null, CaseUrl: null });
    const page = await t.call('consentDetails', { query: { token: old.consentToken } });
    expect(page.body.Data).toMatchObject({ ReasonCode: null, CaseReference: null, CaseUrl: null });
    expect(
      (await t.call('consentAnswer', { body: { token: old.consentToken, granted: false } })).status,
    ).toBe(200);
    const trail = await t.call('auditEvents', { session: boss, query: { appId: String(appId) } });
    const step = trail.body.Data.find(
      (e) => e.ImpersonationRequestId === old.id && e.Action === 'impersonation.consent-denied',
    )!;
    expect(step.Details).not.toHaveProperty('reasonCode');
  });

  it("a customer's own request carries the customer-request code and no case", async () => {
    const owner = await insertCustomer(t.db, { first: 'Cy', last: 'Self', email: 'cy@self.example' });
    const site = await insertSite(t.db, { owner, name: 'self-shop' });
    const r = await t.call('customerRequestsCreate', {
      headers: { apikey: site.apiKey, apisecret: site.secret },
      body: {
        data: {
          Priority: 'Low',
          Description: 'Help',
          ProxyRoles: ['Developer'],
          AdditionalPermissions: [],
          Duration: 5,
        },
      },
    });
    expect(r.status, r.raw.body).toBe(200);
    expect(why(r.body.Data)).toEqual({
      ReasonCode: 'customer-request',
      ReasonLabel: 'Customer asked for help',
      CaseReference: null,
      CaseUrl: null,
    });
  });
});

describe('the settings, read at start', () => {
  const reasons = (env: Record<string, string>) => loadConfig(env).impersonationReasons;
  it('default to the built-in codes, no case required, no link', () => {
    const r = reasons({});
    expect(r.caseRequired).toBe(false);
    expect(r.caseUrlPattern).toBeNull();
    expect(r.codes.map((c) => c.Code)).toContain('support-ticket');
  });

  it("take the operator's codes, the case rule and its link", () => {
    const r = reasons({
      IMPERSONATION_REASON_CODES: 'gdpr-export:GDPR export',
      IMPERSONATION_CASE_REQUIRED: 'true',
      IMPERSONATION_CASE_URL: 'https://tickets.example.com/browse/{case}',
    });
    expect(r.codes.at(-1)).toEqual({ Code: 'gdpr-export', Label: 'GDPR export' });
    expect(r.caseRequired).toBe(true);
    expect(r.caseUrlPattern).toBe('https://tickets.example.com/browse/{case}');
  });

  it('stop the start with a sentence that names the setting', () => {
    expect(() => reasons({ IMPERSONATION_REASON_CODES: 'Not A Code:x' })).toThrow(
      /^IMPERSONATION_REASON_CODES: 'Not A Code' is not a code/,
    );
    expect(() => reasons({ IMPERSONATION_CASE_REQUIRED: 'sometimes' })).toThrow(
      /^IMPERSONATION_CASE_REQUIRED must be true or false/,
    );
    expect(() => reasons({ IMPERSONATION_CASE_URL: 'http://tickets.example.com/{case}' })).toThrow(
      /^IMPERSONATION_CASE_URL must be an https address/,
    );
  });
});
