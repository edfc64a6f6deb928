import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('sam@example.com', ['SuperAdmin']);
});
afterAll(() => t.close());

const me = (session?: { xtoken: string; xsign: string }) => t.call('session', { session });
const MINUTE = 60_000;

describe('sessions', () => {
  it('GET /admin/session answers the caller, their roles and permissions', async () => {
    const s = await t.login('sam@example.com');
    const r = await me(s);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Email: 'sam@example.com', Role: ['SuperAdmin'] });
    expect(r.body.Permissions).toContain('impersonation.approve');
  });

  it('refuses a missing, unknown, mismatched or "undefined" pair with 901', async () => {
    const s = await t.login('sam@example.com');
    const other = await t.login('sam@example.com');
    for (const session of [
      undefined,
      { xtoken: s.xtoken, xsign: '' },
      { xtoken: 'undefined', xsign: 'undefined' },
      { xtoken: s.xtoken, xsign: other.xsign },
      { xtoken: `${s.xtoken[0] === 'A' ? 'B' : 'A'}${s.xtoken.slice(1)}`, xsign: s.xsign },
    ]) {
      const r = await me(session);
      expect(r.status).toBe(401);
      expect(r.error.ErrorCode).toBe(901);
    }
    expect((await me(s)).status).toBe(200);
  });

  it('expires after 15 idle minutes, and each call renews the idle clock', async () => {
    const s = await t.login('sam@example.com');
    t.clock.advance(14 * MINUTE);
    expect((await me(s)).status).toBe(200);
    t.clock.advance(14 * MINUTE);
    expect((await me(s)).status).toBe(200);
    t.clock.advance(15 * MINUTE);
    expect((await me(s)).status).toBe(401);
    // and stays refused even if used again at once
    expect((await me(s)).status).toBe(401);
  });

  it('expires 12 hours after sign-in however busy it is', async () => {
    const s = await t.login('sam@example.com');
    for (let elapsed = 0; elapsed < 12 * 60 - 10; elapsed += 10) {
      t.clock.advance(10 * MINUTE);
      expect((await me(s)).status).toBe(200);
    }
    t.clock.advance(10 * MINUTE);
    expect((await me(s)).status).toBe(401);
  });

  it('POST /admin/logout ends the session on the very next call, and only that one', async () => {
    const s = await t.login('sam@example.com');
    const other = await t.login('sam@example.com');
    const r = await t.call('logout', { session: s });
    expect(r.status).toBe(200);
    expect(r.body.IsPosted).toBe(true);
    expect((await me(s)).status).toBe(401);
    expect((await me(other)).status).toBe(200);
    const logged = await t.db.query("SELECT 1 FROM activity_log WHERE action = 'logout'");
    expect(logged.rows.length).toBe(1);
  });
});

describe('configurable expiry', () => {
  it('takes the idle and absolute limits from the configuration', async () => {
    const custom = await createTestApp({ sessionIdleMs: 2 * MINUTE, sessionAbsoluteMs: 5 * MINUTE });
    try {
      await custom.addStaff('x@example.com', ['Admin']);
      const s = await custom.login('x@example.com');
      const get = () => custom.call('session', { session: s });
      custom.clock.advance(MINUTE + 59_000);
      expect((await get()).status).toBe(200);
      custom.clock.advance(MINUTE + 59_000);
      expect((await get()).status).toBe(200);
      custom.clock.advance(MINUTE + 59_000);
      expect((await get()).status).toBe(401); // past 5 minutes in all
    } finally {
      await custom.close();
    }
  });
});
