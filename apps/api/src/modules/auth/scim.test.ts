import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { openSse } from '../../../test/sse-client.ts';
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
    const page = await scim('GET', '/Users?startIndex=2&count=1');
    expect(page.body).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 1 });
    expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ totalResults: 3, Resources: [] });
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
    const off = await scim('PATCH', `/Users/${bossUid}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(off.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'mutability' });
    expect((await scim('DELETE', `/Users/${bossUid}`)).status).toBe(400);
    expect((await scim('GET', `/Users/${bossUid}`)).body.active).toBe(true);
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
