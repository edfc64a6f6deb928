import { SESSION_ENDED_MESSAGES } from '@sac/contract/auth';
import type { BodyOf, EndpointId, QueryOf } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { browserName } from './browser-name.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('ada@example.com', ['Admin']);
  await t.addStaff('sam@example.com', ['Support']);
});
afterAll(() => t.close());

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A sign-in from a browser and an address of its own. */
async function signIn(email: string, userAgent: string, address: string): Promise<S> {
  const r = await t.call('login', {
    remoteAddress: address,
    headers: { 'user-agent': userAgent },
    body: { email, password: PASSWORD },
  });
  expect(r.status, r.raw.body).toBe(200);
  return r.body as S;
}
const call = <I extends EndpointId>(id: I, session: S, body?: BodyOf<I>, query?: QueryOf<I>) =>
  t.call(id, { session, ...(body ? { body } : {}), ...(query ? { query } : {}) });
const works = async (s: S) => (await call('session', s)).status === 200;

describe('my sessions', () => {
  it('lists my live sessions with address, browser and which is this one; ends one, then the next call is refused', async () => {
    const laptop = await signIn('ada@example.com', CHROME_LINUX, '198.51.100.7');
    const desk = await signIn('ada@example.com', FIREFOX_MAC, '203.0.113.9');
    const list = await call('mySessions', laptop);
    expect(list.status).toBe(200);
    const rows = list.body.Data as {
      Id: number;
      Browser: string;
      ClientAddress: string;
      Current: boolean;
    }[];
    expect(rows.map((r) => [r.Browser, r.ClientAddress, r.Current]).sort()).toEqual([
      ['Chrome 142 on Linux', '198.51.100.7', true],
      ['Firefox 133 on macOS', '203.0.113.9', false],
    ]);
    const other = rows.find((r) => !r.Current)!;
    const end = await call('endMySessions', laptop, { Id: other.Id });
    expect(end.body).toEqual({ Ended: 1, Message: '1 session ended.' });
    expect(await works(desk)).toBe(false);
    // The ended session is told why, so its sign-in screen can say it.
    const refused = await call('session', desk);
    expect([refused.status, refused.error.ErrorCode, refused.error.Description]).toEqual([
      401,
      901,
      SESSION_ENDED_MESSAGES['ended-by-user'],
    ]);
    expect(await works(laptop)).toBe(true);
    expect((await call('mySessions', laptop)).body.Data).toHaveLength(1);
  });

  it('ends every other session at once, keeping this one', async () => {
    const a = await signIn('sam@example.com', CHROME_LINUX, '192.0.2.1');
    const b = await signIn('sam@example.com', CHROME_LINUX, '192.0.2.2');
    const c = await signIn('sam@example.com', FIREFOX_MAC, '192.0.2.3');
    const end = await call('endMySessions', c, { AllOthers: true });
    expect(end.body).toEqual({ Ended: 2, Message: '2 sessions ended.' });
    expect([await works(a), await works(b), await works(c)]).toEqual([false, false, true]);
  });

  it("cannot end another account's session, and asks for exactly one of Id and AllOthers", async () => {
    const mine = await signIn('sam@example.com', CHROME_LINUX, '192.0.2.4');
    const theirs = await signIn('boss@example.com', CHROME_LINUX, '192.0.2.5');
    const theirId = (await call('mySessions', theirs)).body.Data[0]!.Id as number;
    const r = await call('endMySessions', mine, { Id: theirId });
    expect(r.status).toBe(404);
    expect(await works(theirs)).toBe(true);
    for (const body of [{}, { Id: theirId, AllOthers: true }])
      expect((await t.callLoose('endMySessions', { session: mine, body })).status).toBe(400);
  });

  it('does not list a session that idled out', async () => {
    const old = await signIn('ada@example.com', CHROME_LINUX, '198.51.100.20');
    t.clock.advance(t.config.sessionIdleMs + 1000);
    const now = await signIn('ada@example.com', FIREFOX_MAC, '198.51.100.21');
    const rows = (await call('mySessions', now)).body.Data as {
      ClientAddress: string;
    }[];
    expect(rows.map((r) => r.ClientAddress)).not.toContain('198.51.100.20');
    expect(await works(old)).toBe(false);
    // Nobody ended it: it ran out, in the words of every 901.
    expect((await call('session', old)).error.Description).toBe(ERRORS.unauthenticated.text);
  });
});

describe("a colleague's sessions (SuperAdmins)", () => {
  it('are listed and ended by a SuperAdmin, recorded in the staff activity', async () => {
    const boss = await signIn('boss@example.com', FIREFOX_MAC, '203.0.113.50');
    const colleague = await signIn('ada@example.com', CHROME_LINUX, '198.51.100.60');
    const adaUid = (
      await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'ada@example.com'")
    ).rows[0]!.uid;
    const list = await call('staffSessions', boss, undefined, { uid: adaUid });
    expect(list.status).toBe(200);
    expect((list.body.Data as { ClientAddress: string }[]).map((r) => r.ClientAddress)).toContain(
      '198.51.100.60',
    );
    const end = await call('endStaffSessions', boss, { uid: adaUid });
    expect(end.status).toBe(200);
    expect(end.body.Ended).toBeGreaterThanOrEqual(1);
    expect(await works(colleague)).toBe(false);
    expect((await call('session', colleague)).error.Description).toBe(
      SESSION_ENDED_MESSAGES['ended-by-superadmin'],
    );
    expect(await works(boss)).toBe(true);
    const logged = await t.db.query<{ actor_email: string; details: Record<string, unknown> }>(
      "SELECT actor_email, details FROM activity_log WHERE action = 'session.end' AND target_id = $1 ORDER BY id DESC LIMIT 1",
      [adaUid],
    );
    expect(logged.rows[0]).toMatchObject({
      actor_email: 'boss@example.com',
      details: { all: true, of: 'ada@example.com' },
    });
  });

  it('are refused to an Admin, and a SuperAdmin ends their own under My sessions', async () => {
    const ada = await signIn('ada@example.com', CHROME_LINUX, '198.51.100.70');
    const boss = await signIn('boss@example.com', FIREFOX_MAC, '203.0.113.71');
    const uidOf = async (email: string) =>
      (await t.db.query<{ uid: string }>('SELECT uid FROM staff WHERE email = $1', [email])).rows[0]!.uid;
    expect(
      (await call('staffSessions', ada, undefined, { uid: await uidOf('sam@example.com') })).status,
    ).toBe(403);
    const own = await call('staffSessions', boss, undefined, {
      uid: await uidOf('boss@example.com'),
    });
    expect(own.status).toBe(403);
    expect(own.error.Description).toBe('Your own sessions are ended under My sessions.');
  });
});

describe('browserName', () => {
  it.each([
    [CHROME_LINUX, 'Chrome 142 on Linux'],
    [FIREFOX_MAC, 'Firefox 133 on macOS'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36 Edg/141.0.0.0',
      'Edge 141 on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari 18 on iOS',
    ],
    ['curl/8.5.0', 'curl 8'],
    [null, 'Unknown browser'],
    ['x'.repeat(100_000), 'Unknown browser'],
  ])('%s', (ua, name) => {
    expect(browserName(ua)).toBe(name);
  });
});
