import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERRORS } from '@sac/contract/errors';
import { SSO_CALLBACK_PATH } from '@sac/contract/sso';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { startOidcProvider, type TestOidcProvider } from '../../../test/oidc-provider.ts';
import { fetchDiscovery } from './oidc.ts';

/**
 * Single sign-on against a real OpenID provider run in process (test/oidc-provider.ts): the
 * sign-in, first sign-in with and without creation, group mapping, a tampered token, a wrong
 * audience, a replayed state, a key rotation, the provider's amr as the second factor or not, and
 * password sign-in off with its break-glass account.
 */

let t: TestApp;
let op: TestOidcProvider;
let admin: { xtoken: string; xsign: string };
const ADDRESS = '198.51.100.7';

beforeAll(async () => {
  // the test provider runs on loopback over http: allowed here as in development (SSO_ALLOW_HTTP_ISSUER)
  t = await createTestApp({ ssoKeyCooldownMs: 0, ssoAllowHttpIssuer: true });
  op = await startOidcProvider({
    redirectUris: [`${CONSOLE_ORIGIN}${SSO_CALLBACK_PATH}`],
    users: {
      ada: { email: 'ada@example.com', groups: ['console-support'] },
      bob: { email: 'Bob@Example.com', groups: ['console-admins', 'other'] },
      newbie: { email: 'newbie@example.com', groups: ['console-support'], name: 'New Bie' },
      nogroup: { email: 'nogroup@example.com', groups: ['unmapped'] },
      unverified: { email: 'unverified@example.com', email_verified: false },
      mfa: { email: 'mfa@example.com', amr: ['pwd', 'mfa'], groups: ['console-support'] },
      weak: { email: 'weak@example.com', amr: ['pwd'], groups: ['console-support'] },
      acr: { email: 'mfa@example.com', acr: 'gold', groups: ['console-support'] },
      root: { email: 'root@example.com', groups: ['console-support'] },
      twin: { email: 'twin@example.com', groups: ['console-support'] },
    },
  });
  await t.addStaff('root@example.com', ['SuperAdmin']);
  await t.addStaff('ada@example.com', ['Admin']);
  await t.addStaff('bob@example.com', ['Support']);
  await t.addStaff('nogroup@example.com', ['Support']);
  await t.addStaff('unverified@example.com', ['Support']);
  for (const e of ['mfa@example.com', 'weak@example.com']) await withTotp(await t.addStaff(e, ['Support']));
  admin = await t.login('root@example.com');
  await saveSettings({});
});
afterAll(async () => {
  await t.close();
  await op.close();
});

async function withTotp(uid: string) {
  await t.db.query(
    'INSERT INTO staff_totp (uid, secret_sealed, created_at, confirmed_at, last_used_step) VALUES ($1, $2, $3, $3, 0)',
    [uid, t.ctx.crypto.encrypt(Buffer.alloc(20, 7).toString('base64')), new Date()],
  );
}

function saveSettings(over: Record<string, unknown>) {
  return t.callLoose('ssoSettingsUpdate', {
    session: admin,
    body: {
      Enabled: true,
      Name: 'Test IdP',
      Issuer: op.issuer,
      ClientId: op.clientId,
      ClientSecret: op.clientSecret,
      GroupsClaim: 'groups',
      CreateOnFirstSignIn: false,
      SecondFactorValues: ['mfa'],
      PasswordSignIn: true,
      BreakGlassEmail: null,
      GroupRoles: [
        { Group: 'console-support', Role: 'Support' },
        { Group: 'console-admins', Role: 'Admin' },
      ],
      ...over,
    },
  });
}

async function start() {
  const r = await t.call('ssoStart', { remoteAddress: ADDRESS });
  expect(r.status, r.raw.body).toBe(200);
  return r.body;
}

/** A whole sign-in as the provider's user `login`: start, the provider's pages, finish. */
async function ssoSignIn(login: string) {
  const { Url, Binder } = await start();
  const back = await op.signIn(Url, login);
  return finish(back, Binder);
}
const finish = (back: URLSearchParams, Binder: string) =>
  t.callLoose('ssoFinish', {
    body: { Code: back.get('code') ?? 'none', State: back.get('state') ?? 'none', Binder },
    remoteAddress: ADDRESS,
  });

async function trail(action: string) {
  const r = await t.db.query<{ actor_email: string | null; details: Record<string, unknown> | null }>(
    'SELECT actor_email, details FROM activity_log WHERE action = $1 ORDER BY id',
    [action],
  );
  return r.rows;
}

describe('single sign-on (OpenID Connect)', () => {
  it('shows the provider on the sign-in screen and starts with PKCE S256, a state and a nonce', async () => {
    expect((await t.call('ssoSignInOptions')).body).toEqual({
      Enabled: true,
      Name: 'Test IdP',
      PasswordSignIn: true,
    });
    const { Url, Binder } = await start();
    const u = new URL(Url);
    expect(u.origin).toBe(op.issuer);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('redirect_uri')).toBe(`${CONSOLE_ORIGIN}/sso/callback`);
    for (const p of ['state', 'nonce', 'code_challenge'])
      expect(u.searchParams.get(p)).toMatch(/^[\w-]{43}$/);
    expect(Binder).toMatch(/^[\w-]{43}$/);
  });

  it('signs a staff member in by verified email: the same session pair, roles from the groups, a login.sso row', async () => {
    const r = await ssoSignIn('ada');
    expect(r.status, r.raw.body).toBe(200);
    const body = r.body;
    if (!('xtoken' in body)) throw new Error('asked for a second step');
    expect(body).toMatchObject({ Email: 'ada@example.com', Role: ['Support'] });
    const session = await t.call('session', { session: { xtoken: body.xtoken, xsign: body.xsign } });
    expect(session.body).toMatchObject({ Email: 'ada@example.com', Role: ['Support'] });
    expect((await trail('login.sso')).at(-1)).toMatchObject({ actor_email: 'ada@example.com' });
    expect((await trail('team.roles')).at(-1)?.details).toMatchObject({
      via: 'sso',
      from: ['Admin'],
      to: ['Support'],
    });
  });

  it('matches the email in any case and maps several groups', async () => {
    const r = await ssoSignIn('bob');
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body).toMatchObject({ Email: 'bob@example.com', Role: ['Admin'] });
  });

  it('refuses a first sign-in while creation is off, and creates the account when it is on', async () => {
    const off = await ssoSignIn('newbie');
    expect(off.status).toBe(401);
    expect(off.error.ErrorCode).toBe(1102);
    expect((await trail('login.sso.refused')).at(-1)).toMatchObject({
      actor_email: 'newbie@example.com',
      details: { reason: 'unknown-staff' },
    });
    expect((await t.db.query("SELECT 1 FROM staff WHERE email = 'newbie@example.com'")).rows).toHaveLength(0);

    expect((await saveSettings({ CreateOnFirstSignIn: true })).status).toBe(200);
    const on = await ssoSignIn('newbie');
    expect(on.status, on.raw.body).toBe(200);
    expect(on.body).toMatchObject({ Email: 'newbie@example.com', Name: 'New Bie', Role: ['Support'] });
    expect((await trail('team.create')).at(-1)?.details).toMatchObject({ via: 'sso', roles: ['Support'] });
    // the account has no password: a password sign-in of it fails as a wrong one does
    const pw = await t.callLoose('login', { body: { email: 'newbie@example.com', password: '!sso' } });
    expect(pw.status).toBe(401);
    await saveSettings({});
  });

  it('answers two first sign-ins of one new email at once without a 500, making one account', async () => {
    expect((await saveSettings({ CreateOnFirstSignIn: true })).status).toBe(200);
    try {
      const flows = [];
      for (let i = 0; i < 2; i++) {
        const { Url, Binder } = await start();
        flows.push({ back: await op.signIn(Url, 'twin'), Binder });
      }
      const answers = await Promise.all(flows.map((f) => finish(f.back, f.Binder)));
      for (const a of answers) expect([200, 401], a.raw.body).toContain(a.status);
      expect(answers.some((a) => a.status === 200)).toBe(true);
      const made = await t.db.query("SELECT uid FROM staff WHERE email = 'twin@example.com'");
      expect(made.rows).toHaveLength(1);
    } finally {
      await saveSettings({});
    }
  });

  it('refuses an account whose groups map to no role, and an unverified email', async () => {
    const none = await ssoSignIn('nogroup');
    expect(none.status).toBe(401);
    expect((await trail('login.sso.refused')).at(-1)?.details).toEqual({ reason: 'no-mapped-role' });
    const unverified = await ssoSignIn('unverified');
    expect(unverified.status).toBe(401);
    expect((await trail('login.sso.refused')).at(-1)?.details).toEqual({ reason: 'email-unverified' });
  });

  it('refuses a tampered ID token and one for another audience', async () => {
    op.fault = 'tamper';
    try {
      const r = await ssoSignIn('ada');
      expect(r.status).toBe(401);
      expect((await trail('login.sso.refused')).at(-1)?.details).toEqual({ reason: 'signature' });
      op.fault = 'audience';
      const a = await ssoSignIn('ada');
      expect(a.status).toBe(401);
      expect((await trail('login.sso.refused')).at(-1)?.details).toEqual({ reason: 'claim-aud' });
    } finally {
      op.fault = 'none';
    }
  });

  it('refuses a token signed by the provider but for another issuer, another nonce, or expired', async () => {
    for (const [fault, reason] of [
      ['issuer', 'claim-iss'],
      ['nonce', 'nonce'],
      ['expired', 'expired'],
    ] as const) {
      op.fault = fault;
      try {
        expect((await ssoSignIn('ada')).status).toBe(401);
        expect((await trail('login.sso.refused')).at(-1)?.details).toEqual({ reason });
      } finally {
        op.fault = 'none';
      }
    }
  });

  it('refuses a replayed state, and a state finished from another browser (its binder)', async () => {
    const { Url, Binder } = await start();
    const back = await op.signIn(Url, 'ada');
    expect((await finish(back, Binder)).status).toBe(200);
    const again = await finish(back, Binder);
    expect(again.status).toBe(401);
    expect((await trail('login.sso.refused')).at(-1)?.details).toEqual({ reason: 'state' });

    const other = await start();
    const back2 = await op.signIn(other.Url, 'ada');
    const stranger = await finish(back2, randomUUID().replaceAll('-', ''));
    expect(stranger.status).toBe(401);
    expect((await trail('login.sso.refused')).at(-1)?.details).toEqual({ reason: 'binder' });
    // the state was spent by the refused attempt: the right browser cannot use it afterwards either
    expect((await finish(back2, other.Binder)).status).toBe(401);
  });

  it('refuses a sign-in from an address the staff allowlist leaves out, and records it', async () => {
    await t.call('stepUp', { session: admin, body: { Method: 'password', Password: PASSWORD } });
    const save = (Entries: string[]) =>
      t.callLoose('addressAllowlistSave', { session: admin, body: { Entries } });
    expect((await save(['127.0.0.0/8', '::1/128'])).status).toBe(200);
    try {
      const r = await ssoSignIn('ada');
      expect(r.status, r.raw.body).toBe(403);
      expect(r.error.ErrorCode).toBe(ERRORS.addressNotAllowed.code);
      const refused = await t.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM activity_log WHERE action = 'access.refused' AND actor_email = 'ada@example.com'",
      );
      expect(refused.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      expect((await save([])).status).toBe(200);
    }
  });

  it('keeps the last SuperAdmin a SuperAdmin whatever the groups say; a deactivated one is no other', async () => {
    // another SuperAdmin who cannot sign in (deactivated) leaves root the last who can
    const gone = await t.addStaff('gone-superadmin@example.com', ['SuperAdmin']);
    await t.db.query('UPDATE staff SET deactivated_at = $1 WHERE uid = $2', [t.clock.now(), gone]);
    const r = await ssoSignIn('root');
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body).toMatchObject({ Role: ['Support', 'SuperAdmin'] });
    await t.db.query(
      "DELETE FROM staff_roles WHERE role = 'Support' AND uid = (SELECT uid FROM staff WHERE email = 'root@example.com')",
    );
  });

  it('keeps a locked account locked', async () => {
    await t.db.query("UPDATE staff SET locked_until = $1 WHERE email = 'bob@example.com'", [
      new Date(t.clock.now().getTime() + 3_600_000),
    ]);
    const r = await ssoSignIn('bob');
    expect(r.error.ErrorCode).toBe(974);
    expect((await trail('login.sso.refused')).at(-1)?.details).toEqual({ reason: 'locked' });
    await t.db.query("UPDATE staff SET locked_until = NULL WHERE email = 'bob@example.com'");
  });

  it('fetches the keys again, once, when the provider rotates its signing key', async () => {
    expect((await ssoSignIn('ada')).status).toBe(200);
    const before = op.jwksFetches;
    await op.rotateKeys();
    const r = await ssoSignIn('ada');
    expect(r.status, r.raw.body).toBe(200);
    expect(op.jwksFetches - before).toBe(1);
  });

  it("takes the provider's amr as the second factor when configured, else asks for the local one", async () => {
    const strong = await ssoSignIn('mfa');
    expect(strong.status, strong.raw.body).toBe(200);
    expect('xtoken' in strong.body).toBe(true);
    expect((await trail('login.sso')).at(-1)?.details).toMatchObject({ secondFactor: 'mfa' });

    const weak = await ssoSignIn('weak');
    expect(weak.status).toBe(200);
    expect(weak.body).toMatchObject({ SecondStep: { Kind: 'verify', Methods: ['totp'] } });
    expect((await trail('login.second-step')).at(-1)?.details).toMatchObject({ via: 'sso' });

    await saveSettings({ SecondFactorValues: ['gold'] });
    const byAcr = await ssoSignIn('acr');
    expect(byAcr.body).toHaveProperty('xtoken');
    expect((await trail('login.sso')).at(-1)?.details).toMatchObject({ secondFactor: 'gold' });

    await saveSettings({ SecondFactorValues: [] });
    const nowWeak = await ssoSignIn('mfa');
    expect(nowWeak.body).toMatchObject({ SecondStep: { Kind: 'verify' } });
    await saveSettings({});
  });

  it('turns password sign-in off only with a break-glass SuperAdmin that has a second factor, whose use is recorded', async () => {
    const noAccount = await saveSettings({ PasswordSignIn: false });
    expect(noAccount.status).toBe(400);
    expect(noAccount.error.ErrorCode).toBe(1104);
    const noFactor = await saveSettings({ PasswordSignIn: false, BreakGlassEmail: 'root@example.com' });
    expect(noFactor.error.Description).toBe('The break-glass account must have a second factor.');
    const notSuper = await saveSettings({ PasswordSignIn: false, BreakGlassEmail: 'mfa@example.com' });
    expect(notSuper.error.Description).toBe('The break-glass account must be a SuperAdmin.');

    const glassUid = await t.addStaff('glass@example.com', ['SuperAdmin']);
    await withTotp(glassUid);
    const ok = await saveSettings({ PasswordSignIn: false, BreakGlassEmail: 'Glass@example.com' });
    expect(ok.status, ok.raw.body).toBe(200);
    expect(ok.body).toMatchObject({
      PasswordSignIn: false,
      BreakGlassEmail: 'glass@example.com',
      ClientSecretSet: true,
    });
    expect(JSON.stringify(ok.body)).not.toContain(op.clientSecret);
    expect((await t.call('ssoSignInOptions')).body.PasswordSignIn).toBe(false);

    // everyone else is refused with a password (unknown emails alike), the break-glass account is
    // not; each refusal is counted against the address before the password is hashed, as any
    // failed sign-in is, so the refusal is no free hashing and its throttle names no account
    const counted = async () =>
      (
        await t.db.query<{ n: number }>(
          "SELECT coalesce(sum(failures), 0)::int AS n FROM login_failures_by_address WHERE address = '203.0.113.44'",
        )
      ).rows[0]!.n;
    const before = await counted();
    for (const email of ['ada@example.com', 'nobody@example.com']) {
      const r = await t.callLoose('login', {
        body: { email, password: 'Secret#123' },
        remoteAddress: '203.0.113.44',
      });
      expect(r.status).toBe(403);
      expect(r.error.ErrorCode).toBe(1103);
    }
    expect(await counted()).toBe(before + 2);
    const wrong = await t.callLoose('login', { body: { email: 'glass@example.com', password: 'Wrong#123' } });
    expect(wrong.error.ErrorCode).toBe(1103);
    const glass = await t.callLoose('login', {
      body: { email: 'glass@example.com', password: 'Secret#123' },
    });
    expect(glass.status).toBe(200);
    expect(glass.body).toMatchObject({ SecondStep: { Kind: 'verify' } });
    expect((await trail('login.break-glass')).at(-1)).toMatchObject({ actor_email: 'glass@example.com' });
    // single sign-on still works
    expect((await ssoSignIn('ada')).status).toBe(200);

    // the rules hold when the account changes too: while password sign-in is off, the break-glass
    // account is not demoted, stripped of its factor or deleted
    await t.call('stepUp', { session: admin, body: { Method: 'password', Password: PASSWORD } });
    const demote = await t.callLoose('teamUpdateRoles', {
      session: admin,
      body: { role: ['Support'], uid: glassUid, unAssignRoles: ['SuperAdmin'] },
    });
    expect(demote.status, demote.raw.body).toBe(409);
    expect(demote.error.ErrorCode).toBe(ERRORS.breakGlassNeeded.code);
    const reset = await t.callLoose('staffFactorsReset', { session: admin, body: { uid: glassUid } });
    expect(reset.error.ErrorCode, reset.raw.body).toBe(ERRORS.breakGlassNeeded.code);
    const removed = await t.callLoose('teamDelete', { session: admin, body: { role: [], uid: glassUid } });
    expect(removed.error.ErrorCode, removed.raw.body).toBe(ERRORS.breakGlassNeeded.code);
    const glassSession = (await t.db.query('SELECT 1 FROM staff_totp WHERE uid = $1', [glassUid])).rows;
    expect(glassSession).toHaveLength(1);
    expect((await t.call('ssoSettings', { session: admin })).body.BreakGlassEmail).toBe('glass@example.com');
    expect((await saveSettings({})).status).toBe(200);
    expect(
      (await t.call('login', { body: { email: 'ada@example.com', password: 'Secret#123' } })).status,
    ).toBe(200);
  });

  it('stores the client secret sealed and records every change', async () => {
    const row = await t.db.query<{ client_secret_sealed: Buffer }>(
      'SELECT client_secret_sealed FROM sso_settings',
    );
    expect(Buffer.from(row.rows[0]!.client_secret_sealed).toString()).not.toContain(op.clientSecret);
    expect((await trail('team.sso.settings')).length).toBeGreaterThan(3);
    expect(JSON.stringify(await trail('team.sso.settings'))).not.toContain(op.clientSecret);
  });

  it('tests a connection: the discovery document and its keys, or what is wrong', async () => {
    const good = await t.call('ssoTest', { session: admin, body: { Issuer: op.issuer } });
    expect(good.body).toMatchObject({ Ok: true, Problem: null, Keys: 1 });
    const bad = await t.call('ssoTest', { session: admin, body: { Issuer: `${op.issuer}/nope` } });
    expect(bad.body.Ok).toBe(false);
    expect(bad.body.Problem).toContain('404');
    const http = await t.call('ssoTest', { session: admin, body: { Issuer: 'http://idp.example.com' } });
    expect(http.body.Problem).toBe('The issuer must be an https address.');
  });
});

describe('the issuer fetches are no way into the private network (SSRF)', () => {
  const test = (Issuer: string) => t.call('ssoTest', { session: admin, body: { Issuer } });

  it('refuses an issuer with a query, a fragment or userinfo', async () => {
    for (const issuer of [`${op.issuer}?a=1`, `${op.issuer}#x`, op.issuer.replace('//', '//u:p@')]) {
      const r = await test(issuer);
      expect(r.body.Ok, issuer).toBe(false);
      expect(r.body.Problem, issuer).toMatch(/query|fragment|user/);
    }
    expect((await saveSettings({ Issuer: `${op.issuer}?a=1` })).error.Description).toMatch(
      /query|fragment|user/,
    );
  });

  it('without SSO_ALLOW_HTTP_ISSUER: https only, and no loopback, private or link-local host', async () => {
    const strict = { allowLocal: false };
    await expect(fetchDiscovery(op.issuer, strict)).rejects.toThrow('The issuer must be an https address.');
    for (const issuer of [
      'https://127.0.0.1:9',
      'https://localhost:9',
      'https://[::1]:9',
      'https://10.1.2.3',
      'https://192.168.0.1',
      'https://169.254.169.254',
      'https://[fd00::1]',
      'https://[::ffff:127.0.0.1]',
    ])
      await expect(fetchDiscovery(issuer, strict), issuer).rejects.toThrow(/private|loopback|link-local/);
  });

  it('bounds what it reads, follows no redirect, and says so of a body that is not a JSON object', async () => {
    let sent = 0;
    const server = http.createServer((req, res) => {
      if (req.url?.startsWith('/endless')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 32);
        const more = () => {
          while (!res.destroyed && sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
          if (!res.destroyed && sent < 64 * 1024 * 1024) res.once('drain', more);
        };
        res.write('{"pad":"');
        more();
        return;
      }
      if (req.url?.startsWith('/moved')) {
        res.writeHead(302, { location: `${op.issuer}/.well-known/openid-configuration` }).end();
        return;
      }
      const body = req.url?.startsWith('/null') ? 'null' : req.url?.startsWith('/list') ? '[1,2]' : '"text"';
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const started = performance.now();
      const big = await test(`${origin}/endless`);
      expect(big.status, big.raw.body).toBe(200);
      expect(big.body.Problem).toContain('256 KB');
      expect(performance.now() - started).toBeLessThan(4000);
      expect(sent).toBeLessThan(16 * 1024 * 1024);
      const moved = await test(`${origin}/moved`);
      expect(moved.body.Ok).toBe(false);
      for (const kind of ['null', 'list', 'string']) {
        const r = await test(`${origin}/${kind}`);
        expect(r.status, `${kind}: ${r.raw.body}`).toBe(200);
        expect(r.body.Problem, kind).toContain('not a JSON object');
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
