import { createHash } from 'node:crypto';
import { API_TOKEN_MESSAGES } from '@sac/contract/api-tokens';
import type { BodyOf, EndpointId, QueryOf } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { recordStatements } from '../../db/statement-log.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S;
let ada: S;
let sam: S;
let adaUid: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  adaUid = await t.addStaff('ada@example.com', ['Admin']);
  await t.addStaff('sam@example.com', ['Support']);
  boss = await t.login('boss@example.com');
  ada = await t.login('ada@example.com');
  sam = await t.login('sam@example.com');
});
afterAll(() => t.close());

const call = <I extends EndpointId>(id: I, session: S, body?: BodyOf<I>, query?: QueryOf<I>) =>
  t.call(id, { session, ...(body ? { body } : {}), ...(query ? { query } : {}) });

/** A call with a bearer token (and no session pair), from `address`. */
const withToken = <I extends EndpointId>(
  id: I,
  token: string,
  input: {
    body?: BodyOf<I>;
    query?: QueryOf<I>;
    remoteAddress?: string;
    headers?: Record<string, string>;
  } = {},
) =>
  t.call(id, {
    ...input,
    headers: { authorization: `Bearer ${token}`, ...input.headers },
  } as Parameters<typeof t.call<I>>[1]);

async function makeToken(session: S, body: BodyOf<'apiTokenCreate'>) {
  const r = await call('apiTokenCreate', session, body);
  expect(r.status, r.raw.body).toBe(200);
  return r.body;
}

describe('staff API tokens', () => {
  it('shows the token once, keeps only its hash, lists it without the secret', async () => {
    const made = await makeToken(ada, { Name: 'CI', ExpiresInDays: 30, Permissions: ['customers.read'] });
    expect(made.Token).toMatch(/^sac_[A-Za-z0-9_-]{43}$/);
    expect(made.Data).toMatchObject({ Name: 'CI', Permissions: ['customers.read'], LastUsedAt: null });
    const list = await call('apiTokenList', ada);
    expect(list.body.Data.map((x) => x.Id)).toContain(made.Data.Id);
    expect(list.raw.body).not.toContain(made.Token);
    const row = await t.db.query<{ token_hash: Buffer }>(
      'SELECT token_hash FROM staff_api_tokens WHERE id = $1',
      [made.Data.Id],
    );
    expect(Buffer.from(row.rows[0]!.token_hash).toString('hex')).toBe(
      createHash('sha256').update(made.Token).digest('hex'),
    );
    const anywhere = await t.db.query('SELECT 1 FROM staff_api_tokens t WHERE row_to_json(t)::text LIKE $1', [
      `%${made.Token.slice(4)}%`,
    ]);
    expect(anywhere.rows).toEqual([]);
    const trail = await t.db.query<{ action: string; details: { tokenId: number } }>(
      "SELECT action, details FROM activity_log WHERE action = 'token.create' AND actor_email = 'ada@example.com'",
    );
    expect(trail.rows.at(-1)?.details.tokenId).toBe(made.Data.Id);
  });

  it('expires within 90 days: 91 is refused, and a token past its expiry is refused', async () => {
    const r = await call('apiTokenCreate', ada, { Name: 'long', ExpiresInDays: 91, Permissions: [] });
    expect(r.status).toBe(400);
    expect(r.error.Description).toBe(API_TOKEN_MESSAGES.expiry);
    const made = await makeToken(ada, { Name: 'short', ExpiresInDays: 1, Permissions: [] });
    expect((await withToken('session', made.Token)).status).toBe(200);
    t.clock.advance(86_400_000 + 1000);
    const late = await withToken('session', made.Token);
    expect(late.status).toBe(401);
    t.clock.advance(-(86_400_000 + 1000));
  });

  it('refuses permissions wider than its maker holds', async () => {
    const r = await call('apiTokenCreate', sam, {
      Name: 'wide',
      ExpiresInDays: 7,
      Permissions: ['customers.write'],
    });
    expect(r.status).toBe(403);
    expect(r.error.Description).toContain(API_TOKEN_MESSAGES.tooWide);
  });

  it('acts as its owner within its permissions, and the trail names the token', async () => {
    const made = await makeToken(ada, {
      Name: 'writer',
      ExpiresInDays: 7,
      Permissions: ['customers.read', 'customers.write'],
    });
    const me = await withToken('session', made.Token);
    expect(me.status).toBe(200);
    const lower = await t.call('session', { headers: { authorization: `bearer ${made.Token}` } });
    expect(lower.status).toBe(200);
    expect(me.body.Email).toBe('ada@example.com');
    expect(me.body.Permissions).toEqual(['customers.read', 'customers.write']);
    const created = await withToken('createCustomer', made.Token, {
      body: {
        firstname: 'Token',
        lastname: 'Made',
        email: 'token-made@customer.example',
        appname: 'token-made',
      },
    } as never);
    expect(created.status, created.raw.body).toBe(200);
    const trail = await t.db.query<{ actor_uid: string; api_token_id: string; api_token_name: string }>(
      'SELECT actor_uid, api_token_id, api_token_name FROM activity_log WHERE request_id = $1',
      [created.headers['x-request-id']],
    );
    expect(trail.rows.length).toBeGreaterThan(0);
    expect(trail.rows[0]).toMatchObject({ actor_uid: adaUid, api_token_name: 'writer' });
    expect(Number(trail.rows[0]!.api_token_id)).toBe(made.Data.Id);
    // The trail's screen shows it (in the row's details, which the signed export carries too).
    const events = await t.call('auditEvents', {
      session: boss,
      query: { action: 'customer.create' } as never,
    });
    expect(events.status, events.raw.body).toBe(200);
    const shown = (events.body as { Data: Array<{ RequestId: string | null; Details: unknown }> }).Data.find(
      (e) => e.RequestId === created.headers['x-request-id'],
    );
    expect(shown?.Details).toMatchObject({ apiToken: { id: made.Data.Id, name: 'writer' } });
    // A permission the token was not given: refused, and recorded as its owner's refusal.
    const teams = await withToken('teamList', made.Token);
    expect(teams.status).toBe(403);
    const refused = await t.db.query<{
      actor_uid: string;
      api_token_id: string;
      details: { missing: string };
    }>(
      "SELECT actor_uid, api_token_id, details FROM activity_log WHERE action = 'access.refused' AND target_id = 'GET /admin/team' ORDER BY id DESC LIMIT 1",
    );
    expect(refused.rows[0]).toMatchObject({ actor_uid: adaUid, details: { missing: 'team.read' } });
    expect(Number(refused.rows[0]!.api_token_id)).toBe(made.Data.Id);
  });

  it("may not touch its owner's sign-in, make tokens or open the live stream", async () => {
    const made = await makeToken(ada, { Name: 'narrow', ExpiresInDays: 7, Permissions: [] });
    for (const id of ['changePassword', 'mySessions', 'apiTokenCreate', 'apiTokenList', 'logout'] as const) {
      const r = await withToken(id, made.Token, { body: {} as never });
      expect(r.status, id).toBe(403);
      expect(r.error.ErrorCode, id).toBe(ERRORS.tokenNotAllowed.code);
    }
  });

  it('narrows at once when its owner loses a role, and ends when the owner is deleted', async () => {
    const uid = await t.addStaff('nia@example.com', ['Admin']);
    const nia = await t.login('nia@example.com');
    const made = await makeToken(nia, {
      Name: 'n',
      ExpiresInDays: 7,
      Permissions: ['customers.read', 'team.read'],
    });
    expect((await withToken('teamList', made.Token)).status).toBe(200);
    const team = await call('teamList', boss);
    const version = team.body.Data.find((s) => s.Uid === uid)!.Version;
    const change = await t.call('teamUpdateRoles', {
      session: boss,
      headers: { 'if-match': `"${version}"` },
      body: { uid, role: ['Support'], unAssignRoles: ['Admin'] },
    });
    expect(change.status, change.raw.body).toBe(200);
    expect((await withToken('teamList', made.Token)).status).toBe(403);
    const me = await withToken('session', made.Token);
    expect(me.body.Permissions).toEqual(['customers.read']);
    expect((await call('teamDelete', boss, { uid, role: [] } as never)).status).toBe(200);
    expect((await withToken('session', made.Token)).status).toBe(401);
  });

  it('is refused from an address outside its allowed addresses', async () => {
    const made = await makeToken(ada, {
      Name: 'office',
      ExpiresInDays: 7,
      Permissions: [],
      AllowedAddresses: ['10.1.0.0/16', '2001:db8::/32'],
    });
    expect((await withToken('session', made.Token, { remoteAddress: '10.1.2.3' })).status).toBe(200);
    expect((await withToken('session', made.Token, { remoteAddress: '2001:db8::7' })).status).toBe(200);
    const away = await withToken('session', made.Token, { remoteAddress: '10.2.0.1' });
    expect(away.status).toBe(403);
    expect(away.error.ErrorCode).toBe(ERRORS.addressNotAllowed.code);
    expect(away.error.Description).toBe(API_TOKEN_MESSAGES.addressRefused);
    const bad = await call('apiTokenCreate', ada, {
      Name: 'x',
      ExpiresInDays: 7,
      Permissions: [],
      AllowedAddresses: ['10.0.0.0/33'],
    });
    expect(bad.status).toBe(400);
  });

  it('is revocable: the next call is refused, and the revocation is a trail row', async () => {
    const made = await makeToken(ada, { Name: 'gone', ExpiresInDays: 7, Permissions: [] });
    expect((await withToken('session', made.Token)).status).toBe(200);
    // Another staff member finds no such token of theirs; a SuperAdmin may revoke anyone's.
    expect((await call('apiTokenRevoke', sam, { Id: made.Data.Id })).status).toBe(404);
    expect((await call('apiTokenRevoke', ada, { Id: made.Data.Id })).status).toBe(200);
    expect((await withToken('session', made.Token)).status).toBe(401);
    const trail = await t.db.query(
      "SELECT 1 FROM activity_log WHERE action = 'token.revoke' AND details->>'tokenId' = $1",
      [String(made.Data.Id)],
    );
    expect(trail.rows.length).toBe(1);
    const all = await call('apiTokenList', boss, undefined, { all: 'true' });
    expect(all.body.Data.find((x) => x.Id === made.Data.Id)?.RevokedAt).not.toBeNull();
    expect((await call('apiTokenList', ada, undefined, { all: 'true' })).status).toBe(403);
  });

  it('authenticates in one read, then none while kept, and records the last use behind the call', async () => {
    const made = await makeToken(ada, { Name: 'used', ExpiresInDays: 7, Permissions: ['customers.read'] });
    const first = await recordStatements(() =>
      withToken('session', made.Token, { remoteAddress: '192.0.2.44' }),
    );
    expect(first.out.status).toBe(200);
    expect(first.counts.written).toEqual([]);
    // The token auth path's budget: one read (the token, its owner's roles and permissions and
    // the allowlist in one statement), as a session's.
    expect(first.counts.statements).toBe(1);
    // Kept: the next call of the same token reads nothing for its authentication.
    const next = await recordStatements(() =>
      withToken('session', made.Token, { remoteAddress: '192.0.2.44' }),
    );
    expect(next.counts.statements).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const listed = (await call('apiTokenList', ada)).body.Data.find((x) => x.Id === made.Data.Id)!;
    expect(listed.LastUsedAt).toBe(t.clock.now().toISOString());
    expect(listed.LastUsedAddress).toBe('192.0.2.44');
  });
});
