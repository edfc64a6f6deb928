import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { openSse } from '../../../test/sse-client.ts';
import { authChanged } from '../../db/db.ts';
import * as tokens from './scim-tokens.service.ts';

let t: TestApp;
let bossUid: string;
let token: string;
let base: string;
const ME = { clientAddress: '127.0.0.1' } as const;

beforeAll(async () => {
  t = await createTestApp();
  bossUid = await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('sam@example.com', ['Support']);
  token = (await tokens.createToken(t.ctx, { uid: bossUid, email: 'boss@example.com', ...ME }, 'Okta')).Token;
  await t.db.query(
    "INSERT INTO staff_group_roles (group_value, role) VALUES ('console-admins', 'Admin'), ('console-support', 'Support')",
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** A SCIM call as a provider sends it: bearer token, application/scim+json, no ajax marker. */
async function scim(method: string, path: string, body?: unknown, bearer = token) {
  const r = await fetch(`${base}/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  return {
    status: r.status,
    type: r.headers.get('content-type'),
    location: r.headers.get('location'),
    // biome-ignore lint/suspicious/noExplicitAny: SCIM answers are checked field by field
    body: (text ? JSON.parse(text) : undefined) as any,
  };
}

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const trail = async (action: string) =>
  (
    await t.db.query<{ target_id: string; actor_email: string }>(
      'SELECT target_id, actor_email FROM activity_log WHERE action = $1 ORDER BY id',
      [action],
    )
  ).rows;

/** RFC 7644 §3.3's example, adapted: bjensen, with externalId and name. */
const bjensen = {
  schemas: [USER],
  userName: 'bjensen@example.com',
  externalId: 'bjensen',
  name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
};

describe('SCIM 2.0 Users (RFC 7644 §3.3–3.6)', () => {
  let id: string;
  it('creates a user (§3.3): 201, Location, the resource with id and meta, a trail row', async () => {
    const r = await scim('POST', '/Users', bjensen);
    expect(r.status).toBe(201);
    expect(r.type).toContain('application/scim+json');
    expect(r.body).toMatchObject({
      schemas: [USER],
      userName: 'bjensen@example.com',
      externalId: 'bjensen',
      active: true,
      name: { formatted: 'Ms. Barbara J Jensen III' },
      meta: { resourceType: 'User' },
    });
    id = r.body.id;
    expect(r.location).toBe(`${base}/scim/v2/Users/${id}`);
    expect(r.body.meta.location).toBe(r.location);
    expect((await trail('scim.user.create')).at(-1)).toEqual({ target_id: id, actor_email: 'scim:Okta' });
    const again = await scim('POST', '/Users', bjensen);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      schemas: [ERROR],
      status: '409',
      scimType: 'uniqueness',
      detail: expect.any(String),
    });
  });

  it('gets it (§3.4.1) and filters by userName and externalId (§3.4.2), paged', async () => {
    expect((await scim('GET', `/Users/${id}`)).body.userName).toBe('bjensen@example.com');
    const byName = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "BJensen@example.com"')}`,
    );
    expect(byName.body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(byName.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:ListResponse']);
    expect(byName.body.Resources[0].id).toBe(id);
    const byExt = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "bjensen"')}`);
    expect(byExt.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);
    const none = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "nobody@example.com"')}`);
    expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });
    // the local accounts (boss, sam) are not the provider's: bjensen is the only User
    const page = await scim('GET', '/Users?startIndex=2&count=1');
    expect(page.body).toMatchObject({ totalResults: 1, startIndex: 2, itemsPerPage: 0 });
    expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ totalResults: 1, Resources: [] });
    expect((await scim('GET', '/Users/2819c223-7f76-453a-919d-413861904646')).status).toBe(404);
  });

  it('refuses filters it does not answer with invalidFilter', async () => {
    for (const f of [
      'title pr',
      'userName sw "b"',
      'userName eq bjensen',
      'emails[type eq "work"]',
      'userName eq "a" or userName eq "b"',
      `userName eq "${'a'.repeat(400)}"`,
      'name.familyName eq "O\'Malley"',
    ]) {
      const r = await scim('GET', `/Users?filter=${encodeURIComponent(f)}`);
      expect(r.status, f).toBe(400);
      expect(r.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });
    }
  });

  it('replaces a user (§3.5.1)', async () => {
    const r = await scim('PUT', `/Users/${id}`, {
      ...bjensen,
      name: { givenName: 'Babs', familyName: 'Jensen' },
    });
    expect(r.status).toBe(200);
    expect(r.body.name.formatted).toBe('Babs Jensen');
    expect((await trail('scim.user.replace')).at(-1)?.target_id).toBe(id);
  });

  it('patches a user (§3.5.2): replace, add and remove', async () => {
    const r = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'replace', path: 'name.formatted', value: 'Barbara Jensen' },
        { op: 'add', path: 'emails', value: [{ value: 'babs@example.com', type: 'work', primary: true }] },
        { op: 'remove', path: 'externalId' },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ userName: 'babs@example.com', name: { formatted: 'Barbara Jensen' } });
    expect(r.body.externalId).toBeUndefined();
    const bad = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'title', value: 'x' }],
    });
    expect(bad.body).toMatchObject({ status: '400', scimType: 'invalidPath' });
  });

  it('deletes a user (§3.6): 204, then 404', async () => {
    const u = await scim('POST', '/Users', { schemas: [USER], userName: 'gone@example.com' });
    expect((await scim('DELETE', `/Users/${u.body.id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${u.body.id}`)).status).toBe(404);
    expect((await trail('scim.user.delete')).at(-1)?.target_id).toBe(u.body.id);
  });
});

describe('deactivation (active: false)', () => {
  it('ends a live session, a live stream and an API token at once; reactivation lets them sign in', async () => {
    const uid = await t.addStaff('ada@example.com', ['Admin']);
    // a member the provider manages (SCIM reaches no other account)
    await t.db.query('UPDATE staff SET scim_managed = true WHERE uid = $1', [uid]);
    const session = await t.login('ada@example.com');
    const made = await t.call('apiTokenCreate', {
      session,
      body: { Name: 'ci', ExpiresInDays: 1, Permissions: [] },
    });
    const apiToken = made.body.Token;
    expect((await t.call('session', { session })).status).toBe(200);
    const stream = openSse(base, session);
    expect((await stream.response).status).toBe(200);

    const r = await scim('PATCH', `/Users/${uid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    const answered = performance.now();
    expect(r.status).toBe(200);
    expect(r.body.active).toBe(false);
    const next = await t.call('session', { session });
    const refusedMs = performance.now() - answered;
    expect(next.status).toBe(401);
    expect(next.error.ErrorCode).toBe(901);
    await Promise.race([stream.done, new Promise((res) => setTimeout(res, 3000))]);
    const streamMs = performance.now() - answered;
    expect(stream.ended()).toBe(true);
    console.log(
      `deactivation → next call refused in ${refusedMs.toFixed(1)} ms; stream ended in ${streamMs.toFixed(0)} ms`,
    );
    const byToken = await t.call('session', { headers: { authorization: `Bearer ${apiToken}` } });
    expect(byToken.status).toBe(401);
    await expect(t.login('ada@example.com')).rejects.toThrow();
    expect((await trail('scim.user.deactivate')).at(-1)?.target_id).toBe(uid);
    const list = await t.call('teamList', { session: await t.login('boss@example.com') });
    expect(JSON.stringify(list.body)).toContain('ada@example.com');

    const back = await scim('PATCH', `/Users/${uid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: true }],
    });
    expect(back.body.active).toBe(true);
    expect((await t.call('session', { session: await t.login('ada@example.com') })).status).toBe(200);
  });

  it('refuses to deactivate or delete the last SuperAdmin', async () => {
    await t.db.query('UPDATE staff SET scim_managed = true WHERE uid = $1', [bossUid]);
    const off = await scim('PATCH', `/Users/${bossUid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(off.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' });
    expect((await scim('DELETE', `/Users/${bossUid}`)).status).toBe(400);
    expect((await scim('GET', `/Users/${bossUid}`)).body.active).toBe(true);
    await t.db.query('UPDATE staff SET scim_managed = false WHERE uid = $1', [bossUid]);
  });
});

describe('SCIM Groups map to roles through staff_group_roles', () => {
  it('creates, patches members in and out (§3.5.2 members add / remove), replaces and deletes', async () => {
    const a = (await scim('POST', '/Users', { schemas: [USER], userName: 'g1@example.com' })).body.id;
    const b = (await scim('POST', '/Users', { schemas: [USER], userName: 'g2@example.com' })).body.id;
    const roles = async (uid: string) =>
      (
        await t.db.query<{ role: string }>('SELECT role FROM staff_roles WHERE uid = $1 ORDER BY role', [uid])
      ).rows.map((x) => x.role);
    const g = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'console-admins',
      members: [{ value: a }],
    });
    expect(g.status).toBe(201);
    expect(g.body.members.map((m: { value: string }) => m.value)).toEqual([a]);
    expect(await roles(a)).toEqual(['Admin']);
    const added = await scim('PATCH', `/Groups/${g.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ display: 'g2', value: b }] }],
    });
    expect(added.body.members).toHaveLength(2);
    expect(await roles(b)).toEqual(['Admin']);
    expect((await scim('GET', `/Users/${b}`)).body.groups.map((x: { display: string }) => x.display)).toEqual(
      ['console-admins'],
    );
    await scim('PATCH', `/Groups/${g.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${a}"]` }],
    });
    expect(await roles(a)).toEqual([]);
    expect(
      (await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "console-admins"')}`)).body
        .totalResults,
    ).toBe(1);
    const renamed = await scim('PUT', `/Groups/${g.body.id}`, {
      schemas: [GROUP],
      displayName: 'console-support',
      members: [{ value: b }],
    });
    expect(renamed.body.meta.version).toBe('W/"4"');
    expect(await roles(b)).toEqual(['Support']);
    expect((await scim('DELETE', `/Groups/${g.body.id}`)).status).toBe(204);
    expect(await roles(b)).toEqual([]);
    for (const a2 of ['scim.group.create', 'scim.group.patch', 'scim.group.replace', 'scim.group.delete'])
      expect((await trail(a2)).length, a2).toBeGreaterThan(0);
    const unknown = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'x',
      members: [{ value: 'nope' }],
    });
    expect(unknown.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
  });
});

describe('the SCIM credential and discovery (§4)', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const c = await scim('GET', '/ServiceProviderConfig');
    expect(c.body).toMatchObject({
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
    });
    expect(c.body.authenticationSchemes[0].type).toBe('oauthbearertoken');
    expect((await scim('GET', '/ResourceTypes')).body.Resources.map((x: { id: string }) => x.id)).toEqual([
      'User',
      'Group',
    ]);
    expect((await scim('GET', '/Schemas')).body.Resources.map((x: { id: string }) => x.id)).toEqual([
      USER,
      GROUP,
    ]);
    expect((await scim('GET', `/Schemas/${USER}`)).body.name).toBe('User');
  });

  it('refuses a wrong, a revoked and a staff token, and a session pair', async () => {
    expect((await scim('GET', '/Users', undefined, 'scim_wrong')).body).toMatchObject({
      schemas: [ERROR],
      status: '401',
    });
    const boss = { uid: bossUid, email: 'boss@example.com', ...ME };
    const second = await tokens.createToken(t.ctx, boss, 'Entra');
    expect((await scim('GET', '/Users', undefined, second.Token)).status).toBe(200);
    await tokens.revokeToken(t.ctx, boss, second.Data.Id);
    expect((await scim('GET', '/Users', undefined, second.Token)).status).toBe(401);
    const session = await t.login('boss@example.com');
    const staffToken = (
      await t.call('apiTokenCreate', { session, body: { Name: 'x', ExpiresInDays: 1, Permissions: [] } })
    ).body.Token;
    expect((await scim('GET', '/Users', undefined, staffToken)).status).toBe(401);
    const bySession = await fetch(`${base}/scim/v2/Users`, {
      headers: { 'x-token': session.xtoken, 'x-sign': session.xsign },
    });
    expect(bySession.status).toBe(401);
    // and the SCIM token opens nothing of the console's
    expect((await t.call('session', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await trail('scim.token.revoke')).length).toBe(1);
  });
});

describe('SCIM reaches only the accounts it provisioned', () => {
  it('neither lists, reads, changes nor deletes a local account, and refuses to take one over (409)', async () => {
    const list = await scim('GET', '/Users?count=200');
    const emails = list.body.Resources.map((u: { userName: string }) => u.userName);
    expect(emails).not.toContain('boss@example.com');
    expect(emails).not.toContain('sam@example.com');
    const byName = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "sam@example.com"')}`);
    expect(byName.body.totalResults).toBe(0);
    const samUid = (
      await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'sam@example.com'")
    ).rows[0]!.uid;
    expect((await scim('GET', `/Users/${samUid}`)).status).toBe(404);
    const off = await scim('PATCH', `/Users/${samUid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(off.status).toBe(404);
    expect(
      (await scim('PUT', `/Users/${samUid}`, { schemas: [USER], userName: 'x@example.com' })).status,
    ).toBe(404);
    expect((await scim('DELETE', `/Users/${samUid}`)).status).toBe(404);
    const inGroup = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'console-admins-local',
      members: [{ value: samUid }],
    });
    expect(inGroup.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const adopt = await scim('POST', '/Users', { schemas: [USER], userName: 'SAM@example.com' });
    expect(adopt.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });
    const sam = await t.db.query('SELECT deactivated_at, scim_managed FROM staff WHERE uid = $1', [samUid]);
    expect(sam.rows[0]).toEqual({ deactivated_at: null, scim_managed: false });
  });

  it('never deactivates, deletes or changes the break-glass account, nor its roles through a group', async () => {
    const made = await scim('POST', '/Users', { schemas: [USER], userName: 'glass@example.com' });
    const glass = made.body.id as string;
    await t.db.query("INSERT INTO staff_roles (uid, role) VALUES ($1, 'SuperAdmin')", [glass]);
    await t.db.query(
      'INSERT INTO sso_settings (id, enabled, password_sign_in, break_glass_uid) VALUES (1, false, true, $1) ON CONFLICT (id) DO UPDATE SET break_glass_uid = $1',
      [glass],
    );
    try {
      for (const active of [false, true]) {
        const r = await scim('PATCH', `/Users/${glass}`, {
          schemas: [PATCH],
          Operations: [{ op: 'replace', path: 'active', value: active }],
        });
        expect(r.body, String(active)).toMatchObject({ status: '400', scimType: 'mutability' });
      }
      const put = await scim('PUT', `/Users/${glass}`, { schemas: [USER], userName: 'other@example.com' });
      expect(put.body).toMatchObject({ status: '400', scimType: 'mutability' });
      expect((await scim('DELETE', `/Users/${glass}`)).status).toBe(400);
      const g = await scim('POST', '/Groups', {
        schemas: [GROUP],
        displayName: 'console-support',
        members: [{ value: glass }],
      });
      expect(g.body).toMatchObject({ status: '400', scimType: 'mutability' });
      const roles = await t.db.query('SELECT role FROM staff_roles WHERE uid = $1', [glass]);
      expect(roles.rows).toEqual([{ role: 'SuperAdmin' }]);
      expect((await scim('GET', `/Users/${glass}`)).body).toMatchObject({
        userName: 'glass@example.com',
        active: true,
      });
    } finally {
      await t.db.query('UPDATE sso_settings SET break_glass_uid = NULL');
    }
  });
});

describe('SCIM group writes and the roles they give', () => {
  const roles = async (uid: string) =>
    (
      await t.db.query<{ role: string }>('SELECT role FROM staff_roles WHERE uid = $1 ORDER BY role', [uid])
    ).rows.map((x) => x.role);
  const rolesTrail = async (uid: string) =>
    (
      await t.db.query<{ actor_email: string; details: Record<string, unknown> }>(
        "SELECT actor_email, details FROM activity_log WHERE action = 'team.roles' AND target_id = $1 ORDER BY id",
        [uid],
      )
    ).rows;

  it('re-syncs only the members a PATCH changed, each change with a team.roles row of its own', async () => {
    const user = async (n: string) =>
      (await scim('POST', '/Users', { schemas: [USER], userName: `${n}@example.com` })).body.id as string;
    const [a, b, c] = [await user('sync-a'), await user('sync-b'), await user('sync-c')];
    const g = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'console-sync',
      members: [{ value: a }, { value: b }],
    });
    expect(g.status).toBe(201);
    await t.db.query("INSERT INTO staff_group_roles (group_value, role) VALUES ('console-sync', 'Support')");
    // a is given a role in the console meanwhile; adding c must not touch a (nor b)
    await t.db.query("INSERT INTO staff_roles (uid, role) VALUES ($1, 'Admin')", [a]);
    const added = await scim('PATCH', `/Groups/${g.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: c }] }],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(await roles(a)).toEqual(['Admin']);
    expect(await roles(b)).toEqual([]);
    expect(await roles(c)).toEqual(['Support']);
    expect(await rolesTrail(c)).toEqual([
      {
        actor_email: 'scim:Okta',
        details: { via: 'scim', group: 'console-sync', from: [], to: ['Support'] },
      },
    ]);
    expect(await rolesTrail(a)).toEqual([]);
    expect(await rolesTrail(b)).toEqual([]);
    await scim('PATCH', `/Groups/${g.body.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${c}"]` }],
    });
    expect(await roles(c)).toEqual([]);
    expect((await rolesTrail(c)).at(-1)?.details).toMatchObject({ via: 'scim', from: ['Support'], to: [] });
  });

  it('re-syncs the SCIM members of the groups whose row changes on the Single sign-on screen', async () => {
    const d = (await scim('POST', '/Users', { schemas: [USER], userName: 'table-d@example.com' })).body.id;
    await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'console-table',
      members: [{ value: d }],
    });
    expect(await roles(d)).toEqual([]);
    const session = await t.login('boss@example.com');
    await t.call('stepUp', { session, body: { Method: 'password', Password: PASSWORD } });
    const save = (rows: Array<{ Group: string; Role: string }>) =>
      t.callLoose('ssoSettingsUpdate', {
        session,
        body: {
          Enabled: false,
          Name: '',
          Issuer: '',
          ClientId: '',
          GroupsClaim: 'groups',
          CreateOnFirstSignIn: false,
          SecondFactorValues: [],
          PasswordSignIn: true,
          BreakGlassEmail: null,
          GroupRoles: rows,
        },
      });
    const kept = (
      await t.db.query<{ group_value: string; role: string }>(
        'SELECT group_value, role FROM staff_group_roles',
      )
    ).rows.map((r) => ({ Group: r.group_value, Role: r.role }));
    const saved = await save([...kept, { Group: 'console-table', Role: 'Auditor' }]);
    expect(saved.status, saved.raw.body).toBe(200);
    expect(await roles(d)).toEqual(['Auditor']);
    expect((await rolesTrail(d)).at(-1)).toEqual({
      actor_email: 'boss@example.com',
      details: { via: 'group-roles', from: [], to: ['Auditor'] },
    });
    expect((await save(kept)).status).toBe(200);
    expect(await roles(d)).toEqual([]);
  });
});

describe('SCIM limits: the address allowlist, a per-address budget, racing creations', () => {
  it('refuses an address the staff allowlist leaves out (403, a SCIM error)', async () => {
    await t.db.query(
      "INSERT INTO staff_address_allowlist (id, entries) VALUES (1, '{203.0.113.0/24}') ON CONFLICT (id) DO UPDATE SET entries = '{203.0.113.0/24}'",
    );
    authChanged(t.ctx.db);
    try {
      const r = await scim('GET', '/Users');
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ schemas: [ERROR], status: '403' });
    } finally {
      await t.db.query("UPDATE staff_address_allowlist SET entries = '{}'");
      authChanged(t.ctx.db);
    }
  });

  it('answers 429 with Retry-After past the per-address budget, and past the per-token one', async () => {
    // behind a proxy on loopback, so a call may come from another client address
    const small = await createTestApp({
      addressLimits: { ...t.ctx.config.addressLimits, scim: 3 },
      trustProxy: ['127.0.0.1'],
    });
    try {
      await small.app.listen({ port: 0, host: '127.0.0.1' });
      const at = `http://127.0.0.1:${(small.app.server.address() as AddressInfo).port}`;
      const boss = await small.addStaff('boss@example.com', ['SuperAdmin']);
      const tok = (
        await tokens.createToken(small.ctx, { uid: boss, email: 'boss@example.com', ...ME }, 'Okta')
      ).Token;
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await fetch(`${at}/scim/v2/Users`, { headers: { authorization: `Bearer ${tok}` } });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await last!.json()).toMatchObject({ schemas: [ERROR], status: '429' });
      // a flood of wrong tokens counts as well
      const wrong = await fetch(`${at}/scim/v2/Users`, { headers: { authorization: 'Bearer scim_wrong' } });
      expect(wrong.status).toBe(429);
      // and one token has the budget apart, whatever addresses it comes from
      const spread: number[] = [];
      for (let i = 1; i <= 3; i++) {
        const r = await fetch(`${at}/scim/v2/Users`, {
          headers: { authorization: `Bearer ${tok}`, 'x-forwarded-for': `203.0.113.${i}` },
        });
        spread.push(r.status);
      }
      expect(spread).toEqual([429, 429, 429]);
      const other = (
        await tokens.createToken(small.ctx, { uid: boss, email: 'boss@example.com', ...ME }, 'Entra')
      ).Token;
      const fresh = await fetch(`${at}/scim/v2/Users`, {
        headers: { authorization: `Bearer ${other}`, 'x-forwarded-for': '203.0.113.9' },
      });
      expect(fresh.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('answers two racing creations of one userName or displayName 201 and 409, never 500', async () => {
    // several rounds: on PostgreSQL (a pool) both pass the "taken?" read now and then
    for (let round = 0; round < 5; round++) {
      const users = await Promise.all(
        [1, 2].map(() => scim('POST', '/Users', { schemas: [USER], userName: `twin${round}@example.com` })),
      );
      expect(users.map((u) => u.status).sort()).toEqual([201, 409]);
      expect(users.find((u) => u.status === 409)?.body.scimType).toBe('uniqueness');
      const ext = await Promise.all(
        [1, 2].map((i) =>
          scim('POST', '/Users', {
            schemas: [USER],
            userName: `ext${round}-${i}@example.com`,
            externalId: `ext${round}`,
          }),
        ),
      );
      expect(ext.map((u) => u.status).sort()).toEqual([201, 409]);
      const groups = await Promise.all(
        [1, 2].map(() => scim('POST', '/Groups', { schemas: [GROUP], displayName: `twins${round}` })),
      );
      expect(groups.map((g) => g.status).sort()).toEqual([201, 409]);
    }
  });
});
