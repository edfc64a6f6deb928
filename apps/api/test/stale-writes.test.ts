import type { EndpointId } from '@sac/contract/endpoints';
import { APPLICATION_SECURITY_DEFAULTS } from '@sac/contract/site-settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { type Answer, CONSOLE_ORIGIN, createTestApp, type TestApp } from './harness.ts';

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
const siteOfUser = () => ({ userId: owner, appId: String(appId) });
const ifMatch = (tag: string) => ({ 'if-match': tag });

/** One versioned record: how to read its version and what is stored, and a write naming a version. */
interface Versioned {
  name: string;
  /** The If-Match a form read at this moment would send. */
  tag(): Promise<string>;
  /** What is stored, as a read answers it (without the version). */
  stored(): Promise<unknown>;
  write(tag: string, variant: 'theirs' | 'mine'): Promise<Answer<EndpointId>>;
}

const tagOf = (r: Answer<EndpointId>) => {
  expect(r.status, r.raw.body).toBe(200);
  return r.headers.etag as string;
};

const security = (lockout: number) => ({ ...APPLICATION_SECURITY_DEFAULTS, LockoutMinutes: lockout });
const hashing = (iterations: number) =>
  ({
    EncryptionType: 'PBKDF2-SHA256',
    HashEncoding: 'base64',
    SaltEncoding: 'utf8',
    Salt: '',
    PerPasswordSalt: true,
    Iterations: iterations,
    SaltAttach: 'None',
  }) as const;
const writeSecurity = (tag: string, lockout: number, query = site()) =>
  t.call('updateApplicationSecurity', {
    session: boss,
    query,
    headers: ifMatch(tag),
    body: { data: security(lockout) },
  });

const supportRow = async () => {
  const row = (await t.call('teamList', { session: boss })).body.Data.find(
    (u) => u.Email[0]!.Value === 'support@example.com',
  );
  return row!;
};
const myRequest = async () =>
  (await t.call('impersonationList', { session: admin })).body.Data.find((r) => r.AppId === appId);

const RECORDS: Versioned[] = [
  {
    name: 'application level security (first saved from the defaults, version 0)',
    async tag() {
      const r = await t.call('applicationSecurity', { session: boss, query: site() });
      // never saved: 927, and a form shows the defaults at version 0
      return r.status === 200 ? tagOf(r) : '"0"';
    },
    async stored() {
      return (await t.call('applicationSecurity', { session: boss, query: site() })).body;
    },
    write: (tag, v) => writeSecurity(tag, v === 'theirs' ? 30 : 45),
  },
  {
    name: 'password hashing settings',
    tag: async () => tagOf(await t.call('passwordSettings', { session: boss, query: site() })),
    stored: async () => (await t.call('passwordSettings', { session: boss, query: site() })).body,
    write: (tag, v) =>
      t.call('saveEncryptionSettings', {
        session: boss,
        query: site(),
        headers: ifMatch(tag),
        body: { Set: 'password', data: hashing(v === 'theirs' ? 310_000 : 320_000) },
      }),
  },
  {
    name: 'default registration fields',
    tag: async () => tagOf(await t.call('activeCustomFields', { session: boss, query: site() })),
    stored: async () => (await t.call('activeCustomFields', { session: boss, query: site() })).body,
    write: (tag, v) =>
      t.call('saveDefaultFields', {
        session: boss,
        query: site(),
        headers: ifMatch(tag),
        body: {
          Fields: [
            {
              Name: 'FirstName',
              Enabled: true,
              Rules: v === 'theirs' ? 'required' : 'required|max_length[40]',
            },
          ],
        },
      }),
  },
  {
    name: "a site's features (wizard step 3)",
    tag: async () => tagOf(await t.call('siteFeature', { session: boss, query: siteOfUser() })),
    stored: async () => (await t.call('siteFeature', { session: boss, query: siteOfUser() })).body,
    write: (tag, v) =>
      t.call('updateSiteFeatures', {
        session: boss,
        query: siteOfUser(),
        headers: ifMatch(tag),
        body: { FeatureSet: v === 'theirs' ? 'Developer' : 'Developer Premium' },
      }),
  },
  {
    name: "a site's data center and database (wizard step 4)",
    tag: async () => tagOf(await t.call('siteDataCenter', { session: boss, query: siteOfUser() })),
    stored: async () =>
      (await t.call('siteDataCenter', { session: boss, query: siteOfUser() })).body.Data.Current,
    write: (tag, v) =>
      t.call('updateSiteDataCenter', {
        session: boss,
        query: siteOfUser(),
        headers: ifMatch(tag),
        body: {
          Source: 'global-server',
          GlobalServer: 'euw-shared-1',
          DbName: v === 'theirs' ? 'theirs_db' : 'mine_db',
        },
      }),
  },
  {
    name: "a custom object's schema (its Version in the list)",
    async tag() {
      const r = await t.call('customObjectList', { session: boss, query: site() });
      if (r.status !== 200) {
        const created = await t.call('customObjectCreate', {
          session: boss,
          query: site(),
          body: { Id: 'orders', Name: 'Orders', SizeMB: 1, Schema: '{"type":"object"}' },
        });
        expect(created.status, created.raw.body).toBe(200);
        return `"${created.body.Data.Version}"`;
      }
      return `"${r.body.Data.find((o) => o.Id === 'orders')!.Version}"`;
    },
    async stored() {
      const o = (await t.call('customObjectList', { session: boss, query: site() })).body.Data[0]!;
      return { Schema: o.Schema, ModifiedDate: o.ModifiedDate };
    },
    write: (tag, v) =>
      t.call('customObjectSchema', {
        session: boss,
        query: site(),
        headers: ifMatch(tag),
        body: {
          objId: 'orders',
          Schema:
            v === 'theirs'
              ? '{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}'
              : '{"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]}',
        },
      }),
  },
  {
    name: "a super user's roles (their Version in the team list)",
    tag: async () => `"${(await supportRow()).Version}"`,
    stored: async () => (await supportRow()).Roles,
    async write(tag, v) {
      const row = await supportRow();
      const role = v === 'theirs' ? ['Support', 'Admin'] : ['Admin'];
      return t.call('teamUpdateRoles', {
        session: boss,
        headers: ifMatch(tag),
        body: { uid: row.Uid, role, unAssignRoles: [] },
      });
    },
  },
  {
    name: 'an impersonation request the requester edits (its Version in the list)',
    async tag() {
      let mine: { Version: number } | undefined = await myRequest();
      if (!mine) {
        const created = await t.call('impersonationCreate', {
          session: admin,
          headers: { origin: CONSOLE_ORIGIN },
          body: {
            data: {
              AppId: appId,
              Priority: 'High',
              Description: 'Reports are empty',
              ReasonCode: 'support-ticket',
              Assignees: ['boss@example.com'],
              ProxyRoles: ['Developer'],
              AdditionalPermissions: ['ViewData'],
              Duration: 60,
            },
          },
        });
        expect(created.status, created.raw.body).toBe(200);
        mine = created.body.Data;
      }
      return `"${mine.Version}"`;
    },
    stored: async () => (await myRequest())!.Request,
    async write(tag, v) {
      const mine = (await myRequest())!;
      return t.call('impersonationEdit', {
        session: admin,
        query: { requestId: String(mine.Id) },
        headers: ifMatch(tag),
        body: {
          AdditionalPermissions: ['ViewData'],
          Assignees: ['boss@example.com'],
          Description: v === 'theirs' ? 'Their reason' : 'My reason',
          ReasonCode: 'support-ticket',
          Priority: v === 'theirs' ? 'Low' : 'Critical',
          ProxyRoles: ['Developer'],
        },
      });
    },
  },
];

describe('a write from a stale read is refused (412, 930) and stores nothing', () => {
  it.each(RECORDS.map((r) => [r.name, r] as const))('%s', async (_name, record) => {
    const formRead = await record.tag();
    // another editor saves from the same read first
    const theirs = await record.write(formRead, 'theirs');
    expect(theirs.status, theirs.raw.body).toBe(200);
    const afterTheirs = await record.stored();

    const stale = await record.write(formRead, 'mine');
    expect(stale.status, stale.raw.body).toBe(412);
    expect(stale.error.ErrorCode).toBe(930);
    expect(await record.stored()).toEqual(afterTheirs);

    // read again (or knowingly save over theirs): the write goes through
    const fresh = await record.write(await record.tag(), 'mine');
    expect(fresh.status, fresh.raw.body).toBe(200);
    expect(await record.stored()).not.toEqual(afterTheirs);
  });

  it('lets exactly one of two first saves from the defaults through, whatever their timing', async () => {
    const other = (await insertSite(t.db, { owner, name: 'first-save' })).appId;
    const q = { uid: owner, appId: String(other) };
    expect((await t.call('applicationSecurity', { session: boss, query: q })).error.ErrorCode).toBe(927);
    const both = await Promise.all([20, 25].map((lockout) => writeSecurity('"0"', lockout, q)));
    expect(both.map((r) => r.status).sort()).toEqual([200, 412]);
    const kept = both.find((r) => r.status === 200)!.body.Data.LockoutMinutes;
    expect((await t.call('applicationSecurity', { session: boss, query: q })).body.Data.LockoutMinutes).toBe(
      kept,
    );
  });

  it('refuses an If-Match that names no version, and takes "*" or none as no precondition', async () => {
    const bad = await writeSecurity('yesterday', 10);
    expect(bad.status).toBe(400);
    for (const tag of ['*', undefined]) {
      const r = await t.call('updateApplicationSecurity', {
        session: boss,
        query: site(),
        headers: tag ? ifMatch(tag) : {},
        body: { data: security(12) },
      });
      expect(r.status, r.raw.body).toBe(200);
    }
  });

  it('answers the version a write made as its ETag, so the next save from that form goes through', async () => {
    const first = await writeSecurity(await RECORDS[0]!.tag(), 50);
    const next = await writeSecurity(first.headers.etag as string, 55);
    expect(next.status, next.raw.body).toBe(200);
  });
});
