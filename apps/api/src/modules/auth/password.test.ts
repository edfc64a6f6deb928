import { ERRORS } from '@sac/contract/errors';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { RESET_MAILS_PER_HOUR } from './auth.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('rita@example.com', ['Admin']);
  await t.addStaff('cam@example.com', ['Support']);
});
afterAll(() => t.close());

const forgot = (email: string, url = `${CONSOLE_ORIGIN}/login`) =>
  t.call('forgotPassword', { body: { email, url } });
const reset = (password: string, resettoken: string) =>
  t.call('resetPassword', { body: { password, resettoken } });
const me = (session: { xtoken: string; xsign: string }) => t.call('session', { session });

/** Asks for a reset link and reads it from the message the SMTP listener received. */
async function resetLink(email: string): Promise<URL> {
  const before = t.smtp.messages.length;
  expect((await forgot(email)).status).toBe(200);
  const mail = await t.smtp.waitFor((m) => t.smtp.messages.indexOf(m) >= before && m.to.includes(email));
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  return new URL(link!);
}

describe('POST /admin/forgotpassword', () => {
  it('mails a link on the console page with vtype and vtoken to a known email, over SMTP', async () => {
    const link = await resetLink('rita@example.com');
    expect(link.origin).toBe(CONSOLE_ORIGIN);
    expect(link.pathname).toBe('/login');
    expect(link.searchParams.get('vtype')).toBe('reset');
    expect(link.searchParams.get('vtoken')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const mail = t.smtp.messages.at(-1)!;
    expect(mail.subject).toContain('Reset your');
    // the token is stored hashed only
    const stored = await t.db.query('SELECT token_hash FROM staff_tokens');
    expect(JSON.stringify(stored.rows)).not.toContain(link.searchParams.get('vtoken'));
  });

  it('answers an unknown email exactly as a known one, and mails nothing', async () => {
    const before = t.smtp.messages.length;
    const known = await forgot('cam@example.com');
    const unknown = await forgot('ghost@example.com');
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await t.ctx.mailer.flush();
    expect(t.smtp.messages.length).toBe(before + 1);
  });

  it('mails one account at most 5 reset links an hour, answering the same past the limit', async () => {
    await t.addStaff('flood@example.com', ['Support']);
    const before = t.smtp.messages.length;
    const answers = [];
    for (let i = 0; i < RESET_MAILS_PER_HOUR + 3; i++) answers.push((await forgot('flood@example.com')).body);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    await t.ctx.mailer.flush();
    const mailed = () => t.smtp.messages.slice(before).filter((m) => m.to.includes('flood@example.com'));
    expect(mailed()).toHaveLength(RESET_MAILS_PER_HOUR);
    const log = await t.db.query<{ details: { mailed?: boolean } }>(
      "SELECT details FROM activity_log WHERE action = 'password.forgot' AND actor_email = 'flood@example.com'",
    );
    expect(log.rows.filter((r) => r.details.mailed === false)).toHaveLength(3);
    // another account is not held back by this one
    expect((await resetLink('cam@example.com')).searchParams.get('vtoken')).toBeTruthy();
    // an hour after the first, one more may go
    t.clock.advance(60 * 60_000 + 1);
    await forgot('flood@example.com');
    await t.ctx.mailer.flush();
    expect(mailed()).toHaveLength(RESET_MAILS_PER_HOUR + 1);
  });

  it('never builds a link on a foreign host', async () => {
    const before = t.smtp.messages.length;
    for (const url of ['https://evil.example/login', 'http://console.test:3002/login', 'not a url']) {
      const r = await forgot('rita@example.com', url);
      expect(r.status).toBe(400);
      expect(r.error.ErrorCode).toBe(url === 'not a url' ? 900 : 906);
    }
    await t.ctx.mailer.flush();
    expect(t.smtp.messages.length).toBe(before);
  });

  it('validates the email in the spec words', async () => {
    const r = await forgot('nope');
    expect(r.status).toBe(400);
    expect(r.error.Description).toBe(MESSAGES.emailInvalidLogin);
  });
});

describe('PUT /admin/resetpassword', () => {
  it('sets the password once, ends every session, and refuses the token a second time', async () => {
    const s = await t.login('rita@example.com');
    const token = (await resetLink('rita@example.com')).searchParams.get('vtoken')!;
    const r = await reset('Fresh#456', token);
    expect(r.status).toBe(200);
    expect(r.body.IsPosted).toBe(true);
    expect((await me(s)).status).toBe(401);
    await t.login('rita@example.com', 'Fresh#456');
    await expect(t.login('rita@example.com', PASSWORD)).rejects.toThrow('401');
    const again = await reset('Other#789', token);
    expect(again.status).toBe(400);
    expect(again.error.ErrorCode).toBe(905);
    const audit = await t.db.query("SELECT 1 FROM activity_log WHERE action = 'password.reset'");
    expect(audit.rows.length).toBe(1);
  });

  it('refuses a token after 30 minutes', async () => {
    const token = (await resetLink('cam@example.com')).searchParams.get('vtoken')!;
    t.clock.advance(30 * 60_000);
    const r = await reset('Fresh#456', token);
    expect(r.status).toBe(400);
    expect(r.error.ErrorCode).toBe(905);
  });

  it('only the newest link works', async () => {
    const first = (await resetLink('cam@example.com')).searchParams.get('vtoken')!;
    const second = (await resetLink('cam@example.com')).searchParams.get('vtoken')!;
    expect((await reset('Fresh#456', first)).status).toBe(400);
    expect((await reset('Fresh#456', second)).status).toBe(200);
  });

  it('applies the password rule and needs a token, in the spec words', async () => {
    const weak = await reset('abc', 'whatever');
    expect(weak.status).toBe(400);
    expect(weak.error.Description).toBe(MESSAGES.passwordRule);
    const noToken = await t.callLoose('resetPassword', {
      body: { password: 'Fresh#456' },
    });
    expect(noToken.error.Description).toBe(MESSAGES.resetUrlMissingToken);
    const unknown = await reset('Fresh#456', 'x'.repeat(43));
    expect(unknown.error.ErrorCode).toBe(905);
  });
});

describe('PUT /admin/changepassword', () => {
  it('needs a session', async () => {
    const r = await t.call('changePassword', {
      body: { oldpassword: PASSWORD, newpassword: 'Fresh#456' },
    });
    expect(r.status).toBe(401);
  });

  it('needs the old password and the password rule; then ends the other sessions only', async () => {
    const email = 'dana@example.com';
    await t.addStaff(email, ['Admin']);
    const mine = await t.login(email);
    const other = await t.login(email);
    const change = (oldpassword: string, newpassword: string) =>
      t.call('changePassword', {
        session: mine,
        body: { oldpassword, newpassword },
      });

    const wrongOld = await change('Wrong#000', 'Fresh#456');
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.error.ErrorCode).toBe(907);
    const weak = await change(PASSWORD, 'weakpass');
    expect(weak.error.Description).toBe(MESSAGES.passwordRule);
    expect((await me(other)).status).toBe(200);

    const ok = await change(PASSWORD, 'Fresh#456');
    expect(ok.status).toBe(200);
    expect((await me(mine)).status).toBe(200);
    expect((await me(other)).status).toBe(401);
    await t.login(email, 'Fresh#456');
    const audit = await t.db.query<{ action: string }>(
      "SELECT action FROM activity_log WHERE action LIKE 'password.change%' ORDER BY id",
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['password.change.failed', 'password.change']);
  });

  it('8 right old passwords at once: each is changed or told to try again, none refused as wrong or locked', async () => {
    const email = 'many@example.com';
    await t.addStaff(email, ['Admin']);
    const mine = await t.login(email);
    const all = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.call('changePassword', {
          session: mine,
          body: { oldpassword: PASSWORD, newpassword: 'Fresh#456' },
        }),
      ),
    );
    for (const r of all) {
      if (r.status === 200) continue;
      expect(r.error).toMatchObject({
        ErrorCode: ERRORS.signInBusy.code,
        Description: ERRORS.signInBusy.text,
      });
      expect(r.headers['retry-after']).toBe('1');
    }
    expect(all.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    const row = await t.db.query<{ failed_logins: number; locked_until: Date | null }>(
      'SELECT failed_logins, locked_until FROM staff WHERE email = $1',
      [email],
    );
    expect(row.rows[0]).toEqual({ failed_logins: 0, locked_until: null });
    await t.login(email, 'Fresh#456');
  });

  it('answers a repeat of a change already made as done, and a wrong old password still as wrong', async () => {
    const email = 'again@example.com';
    await t.addStaff(email, ['Admin']);
    const mine = await t.login(email);
    const change = (oldpassword: string, newpassword: string) =>
      t.call('changePassword', { session: mine, body: { oldpassword, newpassword } });
    expect((await change(PASSWORD, 'Fresh#456')).status).toBe(200);
    // the same change again (a second submit read after the first committed)
    expect((await change(PASSWORD, 'Fresh#456')).status).toBe(200);
    const failed = async () =>
      (
        await t.db.query<{ failed_logins: number }>('SELECT failed_logins FROM staff WHERE email = $1', [
          email,
        ])
      ).rows[0]!.failed_logins;
    expect(await failed()).toBe(0);
    // the replaced password with another new one is a wrong old password, counted
    const other = await change(PASSWORD, 'Other#789');
    expect(other.error).toMatchObject({ ErrorCode: 907 });
    expect(await failed()).toBe(1);
    await t.login(email, 'Fresh#456');
  });
});
