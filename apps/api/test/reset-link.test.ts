import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createTestApp, type TestApp } from './harness.ts';

/**
 * A reset link is only ever the console's reset route, the login screen on a configured
 * console origin with vtype and vtoken (spec section 3); the caller's `url` cannot choose its path,
 * its query or another host.
 */

const SECOND_ORIGIN = 'https://console.example.com';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ consoleOrigins: [CONSOLE_ORIGIN, SECOND_ORIGIN] });
  await t.addStaff('rita@example.com', ['Support']);
});
afterAll(() => t.close());

const forgot = async (url: unknown) =>
  (await t.callLoose('forgotPassword', { body: { email: 'rita@example.com', url } })).raw;

async function linkFor(url: string): Promise<URL> {
  const before = t.smtp.messages.length;
  const r = await forgot(url);
  expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
  const mail = await t.smtp.waitFor((m) => t.smtp.messages.indexOf(m) >= before);
  const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  return new URL(link!);
}

describe('reset links', () => {
  it('are built on the login route of the console origin the caller named', async () => {
    for (const [url, origin] of [
      [`${CONSOLE_ORIGIN}/login`, CONSOLE_ORIGIN],
      [`${SECOND_ORIGIN}/login`, SECOND_ORIGIN],
      // its query and fragment are the console's to set: replaced, never kept
      [`${CONSOLE_ORIGIN}/login?next=https://evil.example&vtype=invite#x`, CONSOLE_ORIGIN],
      // credentials in the URL are not carried into the link
      ['http://someone:secret@console.test:3001/login', CONSOLE_ORIGIN],
    ] as const) {
      const link = await linkFor(url);
      expect(link.origin, url).toBe(origin);
      expect(link.pathname, url).toBe('/login');
      expect([...link.searchParams.keys()], url).toEqual(['vtype', 'vtoken']);
      expect(link.searchParams.get('vtype'), url).toBe('reset');
      expect(link.hash, url).toBe('');
      expect(link.username + link.password, url).toBe('');
    }
  });

  it('refuse any other page of the console, and mail nothing', async () => {
    const before = t.smtp.messages.length;
    for (const url of [
      `${CONSOLE_ORIGIN}/Your-password-expired.Call-IT`,
      `${CONSOLE_ORIGIN}/`,
      `${CONSOLE_ORIGIN}/login/x`,
      `${CONSOLE_ORIGIN}/LOGIN`,
      `${CONSOLE_ORIGIN}/x/../dashboard`,
      `${CONSOLE_ORIGIN}/impersonation/consent`,
      `${CONSOLE_ORIGIN}/%6Cogin`,
      'https://evil.example/login',
    ]) {
      const r = await forgot(url);
      expect(r.statusCode, url).toBe(400);
      expect(r.json().ErrorCode, url).toBe(906);
    }
    await t.ctx.mailer.flush();
    expect(t.smtp.messages.length).toBe(before);
  });
});
