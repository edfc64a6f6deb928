import { APPLICATION_SECURITY_DEFAULTS } from '@sac/contract/site-settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, type TestApp } from './harness.ts';

/**
 * Every edited record refuses a write from a stale read: the read answers a version (an ETag, or a
 * row's Version in a list), a write naming an older one answers 412 with 930 and stores nothing,
 * and a write naming the current one goes through. The customer profile and the site's web apps
 * and plan have their tests beside their module (customer-writes.test.ts).
 */

type S = { xtoken: string; xsign: string };
let t: TestApp;
let boss: S; // SuperAdmin
let admin: S; // Admin: requests impersonation
let owner: string;
let appId: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
  await t.addStaff('support@example.com', ['Support']);
  boss = await t.login('boss@example.com');
  admin = await t.login('admin@example.com');
  owner = await insertCustomer(t.db, { first: 'Grace', last: 'Hopper', email: 'grace@navy.example' });
  appId = (await insertSite(t.db, { owner, name: 'cobol-works' })).appId;
});
afterAll(() => t.close());

const site = () => ({ uid: owner, appId: String(appId) });

/** One versioned record: how to read its version and what is stored, and a write naming a version. */
interface Versioned {
  name: string;
  /** The If-Match a form read at this moment would send. */
  tag(): Promise<string>;
  /** What is stored, as a read answers it (without the version). */
  stored(): Promise<unknown>;
  write(tag: string, variant: 'theirs' | 'mine'): ReturnType<TestApp['inject']>;
}

const tagOf = (r: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
  expect(r.statusCode, r.body).toBe(200);
  return r.headers.etag as string;
};
const get = (url: string, session = boss, query: Record<string, string> = site()) =>
  t.inject({ method: 'GET', url, session, query });
const write = (
  method: 'PUT' | 'POST',
  url: string,
  tag: string,
  payload: Record<string, unknown>,
  session = boss,
  query: Record<string, string> = site(),
) => t.inject({ method, url, session, query, headers: { 'if-match': tag }, payload });

const security = (lockout: number) => ({ ...APPLICATION_SECURITY_DEFAULTS, LockoutMinutes: lockout });
const hashing = (iterations: number) => ({
  EncryptionType: 'PBKDF2-SHA256',
  HashEncoding: 'base64',
  SaltEncoding: 'utf8',
  Salt: '',
  PerPasswordSalt: true,
  Iterations: iterations,
  SaltAttach: 'None',
});

const RECORDS: Versioned[] = [
  {
    name: 'application level security (first saved from the defaults, version 0)',
    async tag() {
      const r = await get('/admin/applicationlevelsecurity');
      // never saved: 927, and a form shows the defaults at version 0
      return r.statusCode === 200 ? tagOf(r) : '"0"';
    },
    async stored() {
      return (await get('/admin/applicationlevelsecurity')).json();
    },
    write: (tag, v) =>
      write('PUT', '/admin/applicationlevelsecurity', tag, { data: security(v === 'theirs' ? 30 : 45) }),
  },
  {
    name: 'password hashing settings',
    tag: async () => tagOf(await get('/admin/password-settings')),
    stored: async () => (await get('/admin/password-settings')).json(),
    write: (tag, v) =>
      write('POST', '/admin/save-encryption-settings', tag, {
        Set: 'password',
        data: hashing(v === 'theirs' ? 310_000 : 320_000),
      }),
  },
  {
    name: 'default registration fields',
    tag: async () => tagOf(await get('/admin/active-custom-fields')),
    stored: async () => (await get('/admin/active-custom-fields')).json(),
    write: (tag, v) =>
      write('POST', '/admin/default-fields', tag, {
        Fields: [
          {
            Name: 'FirstName',
            Enabled: true,
            Rules: v === 'theirs' ? 'required' : 'required|max_length[40]',
          },
        ],
      }),
  },
  {
    name: "a site's features (wizard step 3)",
    tag: async () => tagOf(await get('/admin/site/feature', boss, { userId: owner, appId: String(appId) })),
    stored: async () =>
      (await get('/admin/site/feature', boss, { userId: owner, appId: String(appId) })).json(),
    write: (tag, v) =>
      write(
        'PUT',
        '/admin/site/feature',
        tag,
        { FeatureSet: v === 'theirs' ? 'Developer' : 'Developer Premium' },
        boss,
        { userId: owner, appId: String(appId) },
      ),
  },
  {
    name: "a site's data center and database (wizard step 4)",
    tag: async () =>
      tagOf(await get('/admin/site/datacenter', boss, { userId: owner, appId: String(appId) })),
    stored: async () =>
      (await get('/admin/site/datacenter', boss, { userId: owner, appId: String(appId) })).json().Data
        .Current,
    write: (tag, v) =>
      write(
        'PUT',
        '/admin/site/datacenter',
        tag,
        {
          Source: 'global-server',
          GlobalServer: 'euw-shared-1',
          DbName: v === 'theirs' ? 'theirs_db' : 'mine_db',
        },
        boss,
        { userId: owner, appId: String(appId) },
      ),
  },
  {
    name: "a custom object's schema (its Version in the list)",
    async tag() {
      const r = await get('/admin/customobject');
      if (r.statusCode !== 200) {
        const created = await t.inject({
          method: 'POST',
          url: '/admin/customobject',
          session: boss,
          query: site(),
          payload: { Id: 'orders', Name: 'Orders', SizeMB: 1, Schema: '{"type":"object"}' },
        });
        expect(created.statusCode, created.body).toBe(200);
        return `"${created.json().Data.Version}"`;
      }
      return `"${r.json().Data.find((o: { Id: string }) => o.Id === 'orders').Version}"`;
    },
    async stored() {
      const o = (await get('/admin/customobject')).json().Data[0];
      return { Schema: o.Schema, ModifiedDate: o.ModifiedDate };
    },
    write: (tag, v) =>
      write('PUT', '/admin/customobject/schema', tag, {
        objId: 'orders',
        Schema:
          v === 'theirs'
            ? '{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}'
            : '{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}',
      }),
  },
  {
    name: "a super user's roles (their Version in the team list)",
    async tag() {
      const row = (await get('/admin/team', boss, {}))
        .json()
        .Data.find((u: { Email: { Value: string }[] }) => u.Email[0]!.Value === 'support@example.com');
      return `"${row.Version}"`;
    },
    async stored() {
      const row = (await get('/admin/team', boss, {}))
        .json()
        .Data.find((u: { Email: { Value: string }[] }) => u.Email[0]!.Value === 'support@example.com');
      return row.Roles;
    },
    async write(tag, v) {
      const row = (await get('/admin/team', boss, {}))
        .json()
        .Data.find((u: { Email: { Value: string }[] }) => u.Email[0]!.Value === 'support@example.com');
      const role = v === 'theirs' ? ['Support', 'Admin'] : ['Admin'];
      return write('PUT', '/admin/team/roles', tag, { uid: row.Uid, role, unAssignRoles: [] }, boss, {});
    },
  },
  {
    name: 'an impersonation request the requester edits (its Version in the list)',
    async tag() {
      const list = await get('/admin/impersonation/requests', admin, {});
      let mine = list.json().Data.find((r: { AppId: number }) => r.AppId === appId);
      if (!mine) {
        const created = await t.inject({
          method: 'POST',
          url: '/admin/impersonation/requests',
          session: admin,
          headers: { origin: CONSOLE_ORIGIN },
          payload: {
            data: {
              AppId: appId,
              Priority: 'High',
              Description: 'Reports are empty',
              Assignees: ['boss@example.com'],
              ProxyRoles: ['Developer'],
              AdditionalPermissions: ['ViewData'],
              Duration: 60,
            },
          },
        });
        expect(created.statusCode, created.body).toBe(200);
        mine = created.json().Data;
      }
      return `"${mine.Version}"`;
    },
    async stored() {
      const mine = (await get('/admin/impersonation/requests', admin, {}))
        .json()
        .Data.find((r: { AppId: number }) => r.AppId === appId);
      return mine.Request;
    },
    async write(tag, v) {
      const mine = (await get('/admin/impersonation/requests', admin, {}))
        .json()
        .Data.find((r: { AppId: number }) => r.AppId === appId);
      return write(
        'PUT',
        '/admin/impersonation/request',
        tag,
        {
          AdditionalPermissions: ['ViewData'],
          Assignees: ['boss@example.com'],
          Description: v === 'theirs' ? 'Their reason' : 'My reason',
          Priority: v === 'theirs' ? 'Low' : 'Critical',
          ProxyRoles: ['Developer'],
        },
        admin,
        { requestId: String(mine.Id) },
      );
    },
  },
];

describe('a write from a stale read is refused (412, 930) and stores nothing', () => {
  it.each(RECORDS.map((r) => [r.name, r] as const))('%s', async (_name, record) => {
    const formRead = await record.tag();
    // another editor saves from the same read first
    const theirs = await record.write(formRead, 'theirs');
    expect(theirs.statusCode, theirs.body).toBe(200);
    const afterTheirs = await record.stored();

    const stale = await record.write(formRead, 'mine');
    expect(stale.statusCode, stale.body).toBe(412);
    expect(stale.json().ErrorCode).toBe(930);
    expect(await record.stored()).toEqual(afterTheirs);

    // read again (or knowingly save over theirs): the write goes through
    const fresh = await record.write(await record.tag(), 'mine');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(await record.stored()).not.toEqual(afterTheirs);
  });

  it('lets exactly one of two first saves from the defaults through, whatever their timing', async () => {
    const other = (await insertSite(t.db, { owner, name: 'first-save' })).appId;
    const q = { uid: owner, appId: String(other) };
    expect((await get('/admin/applicationlevelsecurity', boss, q)).json().ErrorCode).toBe(927);
    const both = await Promise.all(
      [20, 25].map((lockout) =>
        write('PUT', '/admin/applicationlevelsecurity', '"0"', { data: security(lockout) }, boss, q),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 412]);
    const kept = both.find((r) => r.statusCode === 200)!.json().Data.LockoutMinutes;
    expect((await get('/admin/applicationlevelsecurity', boss, q)).json().Data.LockoutMinutes).toBe(kept);
  });

  it('refuses an If-Match that names no version, and takes "*" or none as no precondition', async () => {
    const bad = await write('PUT', '/admin/applicationlevelsecurity', 'yesterday', { data: security(10) });
    expect(bad.statusCode).toBe(400);
    for (const tag of ['*', undefined]) {
      const r = await t.inject({
        method: 'PUT',
        url: '/admin/applicationlevelsecurity',
        session: boss,
        query: site(),
        headers: tag ? { 'if-match': tag } : {},
        payload: { data: security(12) },
      });
      expect(r.statusCode, r.body).toBe(200);
    }
  });

  it('answers the version a write made as its ETag, so the next save from that form goes through', async () => {
    const first = await write('PUT', '/admin/applicationlevelsecurity', await RECORDS[0]!.tag(), {
      data: security(50),
    });
    const next = await write('PUT', '/admin/applicationlevelsecurity', first.headers.etag as string, {
      data: security(55),
    });
    expect(next.statusCode, next.body).toBe(200);
  });
});
