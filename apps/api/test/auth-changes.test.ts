import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authChanged } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from './harness.ts';

/**
 * Sessions are kept between calls; every write that changes what a session holds (its end, its
 * staff member's roles or existence, a role's permissions) invalidates them in the code that
 * makes it. Each test reads the session twice (so it is kept), makes one such change through the
 * console's own calls, and shows that the very next call sees it.
 */
let t: TestApp;
let boss: Session;
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  boss = await t.login('boss@example.com');
});
afterAll(() => t.close());

type Session = { xtoken: string; xsign: string };
const me = (session: Session) => t.call('session', { session });
/** Two reads: the second is answered from the kept session. */
async function kept(session: Session) {
  expect((await me(session)).status).toBe(200);
  return (await me(session)).body;
}

describe('the next call sees each change to a kept session', () => {
  it('sign-out ends the session', async () => {
    await t.addStaff('out@example.com', ['Admin']);
    const s = await t.login('out@example.com');
    await kept(s);
    expect((await t.call('logout', { session: s })).status).toBe(200);
    expect((await me(s)).status).toBe(401);
  });

  it('a password change ends the other sessions and keeps the caller’s', async () => {
    await t.addStaff('change@example.com', ['Admin']);
    const mine = await t.login('change@example.com');
    const other = await t.login('change@example.com');
    await kept(other);
    const r = await t.call('changePassword', {
      session: mine,
      body: { oldpassword: PASSWORD, newpassword: 'Fresh#4567' },
    });
    expect(r.status).toBe(200);
    expect((await me(other)).status).toBe(401);
    expect((await me(mine)).status).toBe(200);
  });

  it('a password reset ends every session', async () => {
    await t.addStaff('reset@example.com', ['Admin']);
    const s = await t.login('reset@example.com');
    await kept(s);
    const before = t.smtp.messages.length;
    await t.call('forgotPassword', {
      body: { email: 'reset@example.com', url: `${CONSOLE_ORIGIN}/login` },
    });
    const mail = await t.smtp.waitFor(
      (m) => t.smtp.messages.indexOf(m) >= before && m.to.includes('reset@example.com'),
    );
    const resettoken = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('vtoken');
    const r = await t.callLoose('resetPassword', {
      body: { password: 'Fresh#4567', resettoken },
    });
    expect(r.status).toBe(200);
    expect((await me(s)).status).toBe(401);
  });

  it('a role change ends the staff member’s sessions; the next sign-in holds the new roles', async () => {
    const uid = await t.addStaff('roles@example.com', ['Admin']);
    const s = await t.login('roles@example.com');
    expect((await kept(s)).Role).toEqual(['Admin']);
    const r = await t.call('teamUpdateRoles', {
      session: boss,
      body: { role: ['Support'], uid, unAssignRoles: ['Admin'] },
    });
    expect(r.status, r.raw.body).toBe(200);
    expect((await me(s)).status).toBe(401);
    const again = await t.login('roles@example.com');
    expect((await kept(again)).Role).toEqual(['Support']);
  });

  it('removing a staff member ends their sessions', async () => {
    const uid = await t.addStaff('gone@example.com', ['Admin']);
    const s = await t.login('gone@example.com');
    await kept(s);
    const r = await t.call('teamDelete', {
      session: boss,
      body: { role: [], uid },
    });
    expect(r.status).toBe(200);
    expect((await me(s)).status).toBe(401);
  });

  it("restoring a built-in role's permissions at start-up shows on the next call", async () => {
    await t.addStaff('support@example.com', ['Support']);
    const s = await t.login('support@example.com');
    await t.db.query("UPDATE roles SET permissions = '{}' WHERE name = 'Support'");
    authChanged(t.db);
    expect((await kept(s)).Permissions).toEqual([]);
    await migrate(t.db);
    expect((await me(s)).body.Permissions).toContain('customers.read');
  });

  it('a change inside a transaction counts again at its commit', async () => {
    await t.addStaff('tx@example.com', ['Admin']);
    const s = await t.login('tx@example.com');
    await kept(s);
    let during: number | undefined;
    await t.db.transaction(async (tx) => {
      await tx.query(
        "UPDATE staff_sessions SET revoked_at = now(), revoked_reason = 'test' WHERE uid = (SELECT uid FROM staff WHERE email = 'tx@example.com')",
      );
      authChanged(tx);
      // PostgreSQL: a call on another connection before the commit still finds the session live
      // and keeps it; the count at the commit makes the next call read it again. (PGlite has one
      // connection: nothing reads between the write and the commit.)
      if (t.db.kind === 'postgres') during = (await me(s)).status;
    });
    if (t.db.kind === 'postgres') expect(during).toBe(200);
    expect((await me(s)).status).toBe(401);
  });
});
