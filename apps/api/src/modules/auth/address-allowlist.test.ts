import type { AddressInfo } from 'node:net';
import { ALLOWLIST_MESSAGES } from '@sac/contract/api-tokens';
import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { openSse } from '../../../test/sse-client.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S;
let ada: S;
let adaUid: string;
/** The proxy in front of the API: its X-Forwarded-For is believed, anyone else's is not. */
const PROXY = '127.0.0.1';
beforeAll(async () => {
  t = await createTestApp({ trustProxy: [PROXY] });
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  adaUid = await t.addStaff('ada@example.com', ['Admin']);
  boss = await t.login('boss@example.com');
  ada = await t.login('ada@example.com');
});
afterAll(() => t.close());

/** A call through the proxy for a client at `client`. */
const via = (client: string) => ({ headers: { 'x-forwarded-for': client } });

describe('staff address allowlist', () => {
  it('is empty at first, and answers the caller its address as the API sees it behind the proxy', async () => {
    const r = await t.call('addressAllowlist', { session: boss, ...via('203.0.113.5') });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body).toEqual({ Entries: [], YourAddress: '203.0.113.5' });
    expect((await t.call('addressAllowlist', { session: ada })).status).toBe(403);
  });

  it('refuses a list that would lock out the saving user, and entries that are not addresses', async () => {
    const r = await t.call('addressAllowlistSave', {
      session: boss,
      ...via('203.0.113.5'),
      body: { Entries: ['10.0.0.0/8'] },
    });
    expect(r.status).toBe(400);
    expect(r.error.ErrorCode).toBe(ERRORS.allowlistLockOut.code);
    expect(r.error.Description).toBe(ALLOWLIST_MESSAGES.lockOut('203.0.113.5'));
    const bad = await t.call('addressAllowlistSave', {
      session: boss,
      body: { Entries: ['10.0.0.0/8', '1.2.3.4/40'] },
    });
    expect(bad.status).toBe(400);
    const notIp = await t.call('addressAllowlistSave', { session: boss, body: { Entries: ['1.2.3'] } });
    expect(notIp.status).toBe(400);
    const list = await t.call('addressAllowlist', { session: boss });
    expect(list.body.Entries).toEqual([]);
  });

  it('once saved, answers and records a refused address, on calls and on sign-in, IPv4 and IPv6', async () => {
    const saved = await t.call('addressAllowlistSave', {
      session: boss,
      ...via('203.0.113.5'),
      body: { Entries: ['203.0.113.0/24', '2001:db8::/32', ' 192.0.2.1 '] },
    });
    expect(saved.status, saved.raw.body).toBe(200);
    expect(saved.body.Entries).toEqual(['203.0.113.0/24', '2001:db8::/32', '192.0.2.1']);

    expect((await t.call('session', { session: ada, ...via('203.0.113.77') })).status).toBe(200);
    expect((await t.call('session', { session: ada, ...via('2001:db8::7') })).status).toBe(200);
    expect((await t.call('session', { session: ada, ...via('192.0.2.1') })).status).toBe(200);
    const away = await t.call('session', { session: ada, ...via('198.51.100.9') });
    expect(away.status).toBe(403);
    expect(away.error.ErrorCode).toBe(ERRORS.addressNotAllowed.code);
    expect(away.error.Description).toBe(ERRORS.addressNotAllowed.text);
    const v6 = await t.call('session', { session: ada, ...via('2001:db9::7') });
    expect(v6.status).toBe(403);
    // A peer that is not the proxy cannot claim an allowed address.
    const spoof = await t.call('session', {
      session: ada,
      remoteAddress: '198.51.100.1',
      ...via('203.0.113.5'),
    });
    expect(spoof.status).toBe(403);

    const trail = await t.db.query<{ client_address: string; details: { missing: string } }>(
      "SELECT client_address, details FROM activity_log WHERE action = 'access.refused' AND actor_uid = $1 AND details->>'missing' = 'an allowed address' ORDER BY id",
      [adaUid],
    );
    expect(trail.rows[0]).toMatchObject({
      client_address: '198.51.100.9',
      details: { missing: 'an allowed address' },
    });

    // Sign-in from outside is refused before the password is checked, and recorded as the account's.
    const login = await t.call('login', {
      ...via('198.51.100.9'),
      body: { email: 'ada@example.com', password: PASSWORD },
    });
    expect(login.status).toBe(403);
    expect(login.error.ErrorCode).toBe(ERRORS.addressNotAllowed.code);
    const refused = await t.db.query(
      "SELECT 1 FROM activity_log WHERE action = 'access.refused' AND actor_uid = $1 AND target_id = 'POST /admin/login'",
      [adaUid],
    );
    expect(refused.rows.length).toBe(1);
    const inside = await t.call('login', {
      ...via('2001:db8::1'),
      body: { email: 'ada@example.com', password: PASSWORD },
    });
    expect(inside.status, inside.raw.body).toBe(200);

    // A token is held to the same list.
    const made = await t.call('apiTokenCreate', {
      session: boss,
      ...via('203.0.113.5'),
      body: { Name: 'list', ExpiresInDays: 7, Permissions: [] },
    });
    const bearer = { authorization: `Bearer ${made.body.Token}` };
    expect(
      (await t.call('session', { headers: { ...bearer, 'x-forwarded-for': '203.0.113.9' } })).status,
    ).toBe(200);
    expect(
      (await t.call('session', { headers: { ...bearer, 'x-forwarded-for': '198.51.100.9' } })).status,
    ).toBe(403);

    const cleared = await t.call('addressAllowlistSave', {
      session: boss,
      ...via('203.0.113.5'),
      body: { Entries: [] },
    });
    expect(cleared.status).toBe(200);
    expect((await t.call('session', { session: ada, ...via('198.51.100.9') })).status).toBe(200);
    const saves = await t.db.query("SELECT details FROM activity_log WHERE action = 'allowlist.save'");
    expect(saves.rows.length).toBe(2);
  });
});

describe('service accounts', () => {
  it('a SuperAdmin makes one with tokens; it never signs in, is marked in the team list, and takes its tokens with it', async () => {
    const made = await t.call('serviceAccountCreate', {
      session: boss,
      body: { Name: 'Billing sync', Roles: ['Support'] },
    });
    expect(made.status, made.raw.body).toBe(200);
    const { Uid: uid, Email: email } = made.body;
    expect(
      (await t.call('serviceAccountCreate', { session: ada, body: { Name: 'x', Roles: ['Support'] } }))
        .status,
    ).toBe(403);
    const team = await t.call('teamList', { session: boss });
    expect(team.body.Data.find((s) => s.Uid === uid)).toMatchObject({
      FullName: 'Billing sync',
      Service: true,
    });
    const login = await t.call('login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(401);

    // Only a SuperAdmin makes its tokens, within its roles.
    const byAdmin = await t.call('apiTokenCreate', {
      session: ada,
      body: { Name: 'sync', ExpiresInDays: 30, Permissions: [], OwnerUid: uid },
    });
    expect(byAdmin.status).toBe(403);
    const wide = await t.call('apiTokenCreate', {
      session: boss,
      body: { Name: 'sync', ExpiresInDays: 30, Permissions: ['team.read'], OwnerUid: uid },
    });
    expect(wide.status).toBe(403);
    const token = await t.call('apiTokenCreate', {
      session: boss,
      body: { Name: 'sync', ExpiresInDays: 30, Permissions: ['customers.read'], OwnerUid: uid },
    });
    expect(token.status, token.raw.body).toBe(200);
    expect(token.body.Data).toMatchObject({ OwnerUid: uid, Service: true });
    // Not for a person's account: a SuperAdmin makes tokens only for service accounts.
    const forAda = await t.call('apiTokenCreate', {
      session: boss,
      body: { Name: 'x', ExpiresInDays: 30, Permissions: [], OwnerUid: adaUid },
    });
    expect(forAda.status).toBe(403);

    const bearer = { authorization: `Bearer ${token.body.Token}` };
    const me = await t.call('session', { headers: bearer });
    expect(me.body).toMatchObject({ Uid: uid, Permissions: ['customers.read'] });
    const all = await t.call('apiTokenList', { session: boss, query: { all: 'true' } });
    expect(all.body.Data.some((x) => x.OwnerUid === uid)).toBe(true);
    expect((await t.call('teamDelete', { session: boss, body: { uid, role: [] } as never })).status).toBe(
      200,
    );
    expect((await t.call('session', { headers: bearer })).status).toBe(401);
  });
});

describe('a live notification stream', () => {
  it('ends at the hub’s next check once a saved allowlist leaves its address out', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const session = await t.login('ada@example.com');
    const stream = openSse(base, session);
    expect((await stream.response).status).toBe(200);
    // the list is saved from an allowed address (through the proxy); the stream's, 127.0.0.1, is left out
    await t.call('stepUp', {
      session: boss,
      ...via('203.0.113.5'),
      body: { Method: 'password', Password: PASSWORD },
    });
    const saved = await t.call('addressAllowlistSave', {
      session: boss,
      ...via('203.0.113.5'),
      body: { Entries: ['203.0.113.0/24'] },
    });
    expect(saved.status, saved.raw.body).toBe(200);
    try {
      await Promise.race([stream.done, new Promise((res) => setTimeout(res, 3000))]);
      expect(stream.ended()).toBe(true);
    } finally {
      stream.close?.();
      await t.call('addressAllowlistSave', { session: boss, ...via('203.0.113.5'), body: { Entries: [] } });
    }
  });
});
