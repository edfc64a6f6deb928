import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HEADERS } from '@sac/contract/constants';
import { type BodyOf, ENDPOINTS, type EndpointId, type QueryOf } from '@sac/contract/endpoints';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, redactUrl } from '../src/app.ts';
import type { AppContext } from '../src/app-context.ts';
import { loadConfig } from '../src/config.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { insertStaff } from '../src/modules/auth/staff.repo.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { CONSOLE_ORIGIN, endpointRequest, freshDb, type LooseCall } from './harness.ts';
import { insertRequest } from './impersonation-fixtures.ts';
import { startSmtpListener } from './smtp-listener.ts';

// The app as production builds it (pino JSON to a stream), with the lines kept for reading.
const lines: string[] = [];
let app: FastifyInstance;
let ctx: AppContext;
let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
let drop: () => Promise<void>;
let dataDir: string;
const PASSWORD = 'Log#Secret-91';
const NEW_PASSWORD = 'Log#Fresh-92';

beforeAll(async () => {
  const fresh = await freshDb();
  drop = fresh.drop;
  smtp = await startSmtpListener();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-log-test-'));
  const config = {
    ...loadConfig({}),
    dataDir,
    consoleOrigins: [CONSOLE_ORIGIN],
    smtpUrl: smtp.url,
    webDistDir: path.join(dataDir, 'no-console'),
    dnsServers: ['127.0.0.1:9'],
    domainRecheckMs: 0,
    logLevel: 'debug',
  };
  ({ app, ctx } = await buildApp({
    config,
    db: fresh.db,
    clock: new ManualClock(),
    logStream: { write: (line: string) => void lines.push(line) },
  }));
  await app.ready();
  await insertStaff(fresh.db, {
    uid: '0b7a4c0e-4a4e-4c1a-9a57-3f4b8e1d2c01',
    email: 'logged@example.com',
    fullName: 'Logged',
    passwordHash: await hashPassword(PASSWORD),
    roles: ['SuperAdmin'],
    at: new Date('2026-01-15T10:00:00Z'),
  });
});
afterAll(async () => {
  await app.close();
  await ctx.mailer.flush();
  await smtp.close();
  await drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A call of an endpoint of the contract as the console sends it, on this app (its own logger);
 * callLoose takes any query and body.
 */
const callLoose = (id: EndpointId, input: LooseCall = {}) => app.inject(endpointRequest(id, input));
const call = <I extends EndpointId>(
  id: I,
  input: { query?: QueryOf<I>; body?: BodyOf<I>; headers?: Record<string, string> } = {},
) => callLoose(id, input as LooseCall);

/** The session pair of a signed-in answer, read through the contract's schema. */
const pairOf = (r: LightMyRequestResponse) => {
  const answer = ENDPOINTS.login.responses[200].parse(r.json());
  if (!('xtoken' in answer)) throw new Error('login asked for a second step');
  return answer;
};

describe('JSON logs', () => {
  const secrets: string[] = [PASSWORD, NEW_PASSWORD];

  it('carry no password, session token, reset token, API secret or link token', async () => {
    // sign in: the password in the body, the session pair in the answer
    const login = await call('login', {
      body: { email: 'logged@example.com', password: PASSWORD },
      headers: { cookie: 'sid=cookie-secret-value', authorization: 'Bearer bearer-secret-value' },
    });
    expect(login.statusCode).toBe(200);
    const session = pairOf(login);
    secrets.push(session.xtoken, session.xsign, 'cookie-secret-value', 'bearer-secret-value');
    const auth = { [HEADERS.token]: session.xtoken, [HEADERS.sign]: session.xsign };
    expect((await call('session', { headers: auth })).statusCode).toBe(200);

    // forgot and reset: the token travels in the mail and in the reset body
    const forgot = await call('forgotPassword', {
      body: { email: 'logged@example.com', url: `${CONSOLE_ORIGIN}/login` },
    });
    expect(forgot.statusCode).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes('logged@example.com'));
    const resettoken = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('vtoken')!;
    secrets.push(resettoken);
    const reset = await call('resetPassword', { body: { password: NEW_PASSWORD, resettoken } });
    expect(reset.statusCode).toBe(200);
    // the console page the link opens carries the token in its query
    await app.inject({ method: 'GET', url: `/login?vtype=reset&vtoken=${resettoken}` });

    // a search by API secret (in the query) with a new session
    const again = await call('login', { body: { email: 'logged@example.com', password: NEW_PASSWORD } });
    const s2 = pairOf(again);
    secrets.push(s2.xtoken, s2.xsign);
    const owner = await insertCustomer(ctx.db, { first: 'Lena', last: 'Log', email: 'lena.log@example.com' });
    const site = await insertSite(ctx.db, { owner, name: 'logged-site' });
    secrets.push(site.secret);
    const found = await call('searchCustomer', {
      query: { apisecret: site.secret },
      headers: { [HEADERS.token]: s2.xtoken, [HEADERS.sign]: s2.xsign },
    });
    expect(found.statusCode).toBe(200);

    // the customer's own request: API key and secret in headers
    await callLoose('customerRequestsCreate', {
      headers: { apikey: site.apiKey, apisecret: site.secret },
      body: {},
    });

    // the owner's consent link: its token in the query
    const { consentToken } = await insertRequest(ctx.db, {
      appId: site.appId,
      initiator: 'logged@example.com',
      assignees: ['logged@example.com'],
    });
    secrets.push(consentToken);
    await call('consentDetails', { query: { token: consentToken } });

    await ctx.mailer.flush();
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(8);
    for (const secret of secrets) expect(text, `a secret reached the log: ${secret}`).not.toContain(secret);
    expect(text).toContain('consent?token=[redacted]');
    expect(text).toContain('apisecret=[redacted]');
  });

  it('are JSON, one object a line, one line a request with its id, status and time', () => {
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const aboutRequests = parsed.filter((l) => l.req !== undefined || l.res !== undefined);
    expect(aboutRequests.length).toBeGreaterThan(8);
    for (const l of aboutRequests) expect(l.reqId).toMatch(/^[0-9a-f-]{36}$/);
    // one line per request, written when it is answered (and the id is the one the client saw)
    const done = parsed.filter((l) => l.msg === 'request completed');
    expect(done).toHaveLength(aboutRequests.length);
    expect(new Set(done.map((l) => l.reqId)).size).toBe(done.length);
    for (const l of done) {
      expect(l.req).toMatchObject({ method: expect.any(String), url: expect.any(String) });
      expect(l.res).toMatchObject({ statusCode: expect.any(Number) });
      expect(l.responseTime).toEqual(expect.any(Number));
    }
  });

  it('redact secret query parameters wherever they are', () => {
    expect(redactUrl('/admin/searchcustomer?apisecret=abc&x=1')).toBe(
      '/admin/searchcustomer?apisecret=[redacted]&x=1',
    );
    expect(redactUrl('/admin/impersonation/site-access?token=t0k')).toBe(
      '/admin/impersonation/site-access?token=[redacted]',
    );
    expect(redactUrl('/login?vtype=reset&vtoken=abc#x')).toBe('/login?vtype=reset&vtoken=[redacted]#x');
    expect(redactUrl('/admin/x?XToken=a&xsign=b')).toBe('/admin/x?XToken=[redacted]&xsign=[redacted]');
    // the notice site picker searches by customer name
    expect(redactUrl('/admin/notices/site-options?term=Ada%20Lovelace')).toBe(
      '/admin/notices/site-options?term=[redacted]',
    );
  });

  it('redact personal data in the URL: search criteria, and an email wherever it is', () => {
    expect(redactUrl('/admin/searchcustomer?emailid=ada.lovelace%40analytical.example')).toBe(
      '/admin/searchcustomer?emailid=[redacted]',
    );
    expect(redactUrl('/admin/searchcustomer?customerName=Ada%20Lovelace&cursor=x')).toBe(
      '/admin/searchcustomer?customerName=[redacted]&cursor=x',
    );
    expect(redactUrl('/admin/searchcustomer?apikey=1111&sitename=ada-blog')).toBe(
      '/admin/searchcustomer?apikey=[redacted]&sitename=[redacted]',
    );
    expect(redactUrl('/admin/whatever?q=ada@analytical.example&uid=1')).toBe(
      '/admin/whatever?q=[email]&uid=1',
    );
    expect(redactUrl('/u/ada@analytical.example/x')).toBe('/u/[email]/x');
  });
});
