import type { BodyOf, EndpointId, QueryOf } from '@sac/contract/endpoints';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { startDnsServer } from '../../../test/dns-server.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { recheckDomains } from './custom-domains.service.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let s: S;
let uid: string;
let appId: number;

beforeAll(async () => {
  dns = await startDnsServer();
  t = await createTestApp({ dnsServers: [dns.server], hubDomain: 'hub.platform.test' });
  await t.addStaff('admin@example.com', ['Admin']);
  s = await t.login('admin@example.com');
  uid = await insertCustomer(t.db, { first: 'Dee', last: 'Ness', email: 'dee@dns.example' });
  appId = (await insertSite(t.db, { owner: uid, name: 'dee-site' })).appId;
});
afterAll(async () => {
  await t.close();
  await dns.close();
});

const q = () => ({ uid, appId: String(appId) });
const call = <I extends EndpointId>(id: I, body?: BodyOf<I>) =>
  t.call(id, { session: s, query: q() as QueryOf<I>, ...(body ? { body } : {}) });

const SCHEMA = JSON.stringify({
  type: 'object',
  properties: { plan: { type: 'string' }, seats: { type: 'integer', minimum: 1 } },
  required: ['plan'],
});

describe('custom objects', () => {
  it('answers 999 while the site has none', async () => {
    const r = await call('customObjectList');
    expect(r.status).toBe(404);
    expect(r.error.ErrorCode).toBe(999);
  });

  it.each([
    [{ Id: 'bad id!', Name: 'X', SizeMB: '10', Schema: SCHEMA }, MESSAGES.customObjectIdChars],
    [{ Id: 'ok', Name: 'X', SizeMB: 'ten', Schema: SCHEMA }, MESSAGES.customObjectSizeNumeric],
    [{ Id: 'ok', Name: 'X', SizeMB: '0', Schema: SCHEMA }, MESSAGES.customObjectSizeRange],
    [{ Id: 'ok', Name: 'X', SizeMB: '201', Schema: SCHEMA }, MESSAGES.customObjectSizeRange],
    [{ Id: 'ok', Name: 'X', SizeMB: '10', Schema: '   ' }, MESSAGES.customObjectSchemaEmpty],
    [{ Id: 'ok', Name: 'X', SizeMB: '10', Schema: '{not json' }, MESSAGES.customObjectSchemaInvalid],
  ])('refuses %j with "%s"', async (payload, message) => {
    const r = await call('customObjectCreate', payload);
    expect(r.status).toBe(400);
    expect(r.error.FieldErrors!.map((f: { Message: string }) => f.Message)).toContain(message);
  });

  it('checks the schema as a JSON Schema, not only as JSON', async () => {
    const r = await call('customObjectCreate', {
      Id: 'typo',
      Name: 'X',
      SizeMB: 5,
      Schema: '{"type":"objekt"}',
    });
    expect(r.status).toBe(400);
    expect(r.error.Description).toContain('not a valid JSON Schema');
  });

  it('saves, lists, sets the schema, validates a sample, and removes; each write logged', async () => {
    const created = await call('customObjectCreate', {
      Id: 'billing_info-1',
      Name: 'Billing',
      SizeMB: '20',
      Schema: SCHEMA,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      Data: { Id: 'billing_info-1', SizeMB: 20 },
      Message: 'Custom object saved.',
    });
    expect(
      (
        await call('customObjectCreate', {
          Id: 'billing_info-1',
          Name: 'B',
          SizeMB: 1,
          Schema: SCHEMA,
        })
      ).error.ErrorCode,
    ).toBe(960);
    expect((await call('customObjectList')).body.Data.map((o: { Id: string }) => o.Id)).toEqual([
      'billing_info-1',
    ]);

    const good = await call('customObjectValidate', {
      Schema: SCHEMA,
      Sample: '{"plan":"pro","seats":3}',
    });
    expect(good.body).toEqual({ Valid: true, Errors: [] });
    const bad = await call('customObjectValidate', { Schema: SCHEMA, Sample: '{"seats":0}' });
    expect(bad.body.Valid).toBe(false);
    expect(bad.body.Errors.length).toBeGreaterThanOrEqual(2);

    const schema2 = JSON.stringify({ type: 'object', properties: { plan: { type: 'string' } } });
    const set = await call('customObjectSchema', { objId: 'billing_info-1', Schema: schema2 });
    expect(set.body).toMatchObject({ Data: { Schema: schema2 }, Message: 'Schema set.' });
    const removed = await call('customObjectDelete', { objId: 'billing_info-1' });
    expect(removed.body).toEqual({ IsPosted: true, Message: 'Custom object removed.' });
    expect((await call('customObjectDelete', { objId: 'billing_info-1' })).status).toBe(404);
    const logged = await t.db.query<{ action: string }>(
      "SELECT action FROM activity_log WHERE action LIKE 'site.customobject%' ORDER BY id",
    );
    expect(logged.rows.map((r) => r.action)).toEqual([
      'site.customobject.create',
      'site.customobject.schema',
      'site.customobject.delete',
    ]);
  });
});

describe('custom domains, verified against a real DNS server on loopback', () => {
  it('answers the hub domain', async () => {
    const r = await t.call('hubDomain', { session: s });
    expect(r.body).toEqual({ Data: { HubDomain: 'hub.platform.test' } });
  });

  it('refuses an empty or malformed domain in the spec words', async () => {
    expect((await call('customDomainCreate', { domain: '' })).error.Description).toBe(
      MESSAGES.customDomainEmpty,
    );
    expect(
      (await t.callLoose('customDomainCreate', { session: s, query: q(), body: {} })).error.Description,
    ).toBe(MESSAGES.domainNameRequired);
    expect((await call('customDomainCreate', { domain: 'https://x.com/a' })).status).toBe(400);
  });

  it('starts Pending Verification, stays pending on wrong records, then verifies on the right ones', async () => {
    const created = await call('customDomainCreate', { domain: 'Login.Dee.Example' });
    expect(created.status).toBe(200);
    const d = created.body.Data;
    expect(d).toMatchObject({ Domain: 'login.dee.example', Status: 'Pending Verification' });
    const [cname, txt] = d.Records;
    if (!txt) throw new Error('no TXT record');
    expect(cname).toEqual({ Type: 'CNAME', Name: 'login.dee.example', Value: 'dee-site.hub.platform.test' });
    expect(txt.Name).toBe('_sac-verification.login.dee.example');
    expect(txt.Value).toMatch(/^sac-verify-[0-9a-f]{32}$/);
    expect((await call('customDomainCreate', { domain: 'login.dee.example' })).error.ErrorCode).toBe(961);

    // wrong records: a CNAME elsewhere and a wrong token
    dns.zone.set('login.dee.example', [{ type: 'CNAME', value: 'elsewhere.example.net' }]);
    dns.zone.set('_sac-verification.login.dee.example', [{ type: 'TXT', value: 'sac-verify-wrong' }]);
    const wrong = await call('customDomainVerify', { domain: 'login.dee.example' });
    expect(wrong.body.Data.Status).toBe('Pending Verification');
    expect(wrong.body.Data.LastCheckResult).toContain('elsewhere.example.net');
    expect(wrong.body.Data.LastCheckResult).toContain('does not hold the verification token');

    // the right records: the periodic re-check verifies it
    dns.zone.set('login.dee.example', [{ type: 'CNAME', value: 'dee-site.hub.platform.test' }]);
    dns.zone.set('_sac-verification.login.dee.example', [{ type: 'TXT', value: txt.Value }]);
    expect(await recheckDomains(t.ctx)).toBe(1);
    const list = await call('customDomainList');
    expect(list.body.Data[0]).toMatchObject({
      Status: 'Verified',
      LastCheckResult: 'The CNAME and the TXT verification token are in place.',
    });
    const again = await call('customDomainVerify', { domain: 'login.dee.example' });
    expect(again.body).toMatchObject({ Data: { Status: 'Verified' }, Message: 'Custom domain verified.' });

    const removed = await call('customDomainDelete', {
      domain: 'login.dee.example',
    });
    expect(removed.body).toEqual({ IsPosted: true, Message: 'Custom domain deleted.' });
  });

  it('does not verify when nothing answers for the domain', async () => {
    await call('customDomainCreate', { domain: 'absent.dee.example' });
    const r = await call('customDomainVerify', { domain: 'absent.dee.example' });
    expect(r.body.Data.Status).toBe('Pending Verification');
    expect(r.body.Data.LastCheckResult).toContain('No CNAME record');
  });
});

describe('custom domains of every site: re-checks of verified ones, failing, the cross-site list', () => {
  it('marks a verified domain whose records broke as failing (still verified), lists it by status, pages, and clears it when the records are back', async () => {
    const domain = 'id.dee.example';
    const created = (await call('customDomainCreate', { domain })).body.Data;
    dns.zone.set(domain, [{ type: 'CNAME', value: 'dee-site.hub.platform.test' }]);
    dns.zone.set(`_sac-verification.${domain}`, [{ type: 'TXT', value: created.Records[1]!.Value }]);
    expect((await call('customDomainVerify', { domain })).body.Data.Status).toBe('Verified');
    await call('customDomainCreate', { domain: 'waiting.dee.example' });

    const all = async (query: Record<string, string>) => {
      const r = await t.call('customDomainsAll', { session: s, query });
      expect(r.status, r.raw.body).toBe(200);
      return r.body as {
        Data: Array<{
          Domain: string;
          AppName: string;
          OwnerUid: string;
          Status: string;
          FailingSince: string | null;
        }>;
        NextCursor: string | null;
      };
    };
    const names = async (status: string) => (await all({ status })).Data.map((d) => d.Domain);
    const dashboard = async () => (await t.call('dashboard', { session: s })).body.CustomDomains;
    expect(await names('verified')).toContain(domain);
    expect(await names('failing')).toEqual([]);

    // The records break; within a day nothing looks, after a day the re-check does.
    dns.zone.delete(domain);
    await recheckDomains(t.ctx);
    expect(await names('failing')).toEqual([]);
    t.clock.advance(25 * 3_600_000);
    s = await t.login('admin@example.com'); // a day on: the session has lapsed
    await recheckDomains(t.ctx);
    const failing = (await all({ status: 'failing' })).Data;
    expect(failing).toEqual([
      expect.objectContaining({ Domain: domain, AppName: 'dee-site', OwnerUid: uid, Status: 'Verified' }),
    ]);
    expect(failing[0]!.FailingSince).toBe(t.clock.now().toISOString());
    expect(await names('verified')).not.toContain(domain);
    expect(await names('pending')).toContain('waiting.dee.example');
    expect(await dashboard()).toMatchObject({ FailingRechecks: 1 });
    // A later failing check keeps the first failure's time.
    t.clock.advance(25 * 3_600_000);
    s = await t.login('admin@example.com'); // a day on: the session has lapsed
    await recheckDomains(t.ctx);
    expect((await all({ status: 'failing' })).Data[0]!.FailingSince).toBe(failing[0]!.FailingSince);

    // Paging by name, one a page, every domain once; a made-up cursor is refused.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await all({ limit: '1', ...(cursor ? { cursor } : {}) });
      seen.push(...page.Data.map((d) => d.Domain));
      cursor = page.NextCursor;
    } while (cursor);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([domain, 'waiting.dee.example', 'absent.dee.example']));
    // Z to A: the same domains backwards, one a page; a cursor of one order is refused under the other.
    const backwards: string[] = [];
    let firstBack: string | null = null;
    cursor = null;
    do {
      const page = await all({ limit: '1', sort: '-domain', ...(cursor ? { cursor } : {}) });
      backwards.push(...page.Data.map((d) => d.Domain));
      cursor = page.NextCursor;
      firstBack ??= cursor;
    } while (cursor);
    expect(backwards).toEqual([...seen].reverse());
    const crossed = await t.callLoose('customDomainsAll', {
      session: s,
      query: { cursor: firstBack!, sort: 'domain' },
    });
    expect(crossed.status).toBe(400);
    const bad = await t.call('customDomainsAll', {
      session: s,
      query: { cursor: Buffer.from('not a domain').toString('base64url') },
    });
    expect(bad.status).toBe(400);
    expect((await t.callLoose('customDomainsAll', { session: s, query: { status: 'x' } })).status).toBe(400);

    // By status or when added, either way, then by name: one a page, every domain once (issue 32).
    const walk = async (sort: string) => {
      const out: Array<{ Domain: string; Status: string; CreatedAt: string }> = [];
      let first: string | null = null;
      let c: string | null = null;
      do {
        const page = await all({ limit: '1', sort, ...(c ? { cursor: c } : {}) });
        out.push(...(page.Data as unknown as typeof out));
        c = page.NextCursor;
        first ??= c;
      } while (c);
      return { out, first };
    };
    const rowsOf = (await walk('domain')).out;
    const expected = (k: 'Status' | 'CreatedAt') =>
      [...rowsOf].sort((a, b) => (a[k] < b[k] ? -1 : a[k] > b[k] ? 1 : a.Domain < b.Domain ? -1 : 1));
    for (const k of ['status', 'created'] as const) {
      const field = k === 'status' ? 'Status' : 'CreatedAt';
      const up = await walk(k);
      expect(
        up.out.map((d) => d.Domain),
        k,
      ).toEqual(expected(field).map((d) => d.Domain));
      const down = await walk(`-${k}`);
      expect(
        down.out.map((d) => d.Domain),
        `-${k}`,
      ).toEqual(
        expected(field)
          .reverse()
          .map((d) => d.Domain),
      );
      // a cursor of one order is refused under another
      const other = await t.callLoose('customDomainsAll', {
        session: s,
        query: { cursor: up.first!, sort: k === 'status' ? 'created' : 'status' },
      });
      expect(other.status).toBe(400);
      expect(
        (await t.callLoose('customDomainsAll', { session: s, query: { cursor: up.first!, sort: `-${k}` } }))
          .status,
      ).toBe(400);
    }
    expect((await all({ status: 'pending', sort: '-status' })).Data.map((d) => d.Domain)).toEqual(
      rowsOf
        .filter((d) => d.Status === 'Pending Verification')
        .map((d) => d.Domain)
        .reverse(),
    );

    // The records are back: the next re-check clears it.
    dns.zone.set(domain, [{ type: 'CNAME', value: 'dee-site.hub.platform.test' }]);
    t.clock.advance(25 * 3_600_000);
    s = await t.login('admin@example.com'); // a day on: the session has lapsed
    await recheckDomains(t.ctx);
    expect(await names('failing')).toEqual([]);
    expect(await dashboard()).toMatchObject({ FailingRechecks: 0 });
  });
});

describe('site settings permissions', () => {
  it('a Support user reads but does not change them', async () => {
    await t.addStaff('support@example.com', ['Support']);
    const support = await t.login('support@example.com');
    const read = await t.call('customDomainList', {
      session: support,
      query: q(),
    });
    expect(read.status).toBe(200);
    const write = await t.call('customDomainCreate', {
      session: support,
      query: q(),
      body: { domain: 'x.dee.example' },
    });
    expect(write.status).toBe(403);
  });
});

describe('app settings and application level security', () => {
  it('answers the plan info and saves the web apps by the URL-like rule', async () => {
    const r = await call('appSettings');
    expect(r.body.Data).toMatchObject({
      AppName: 'dee-site',
      Plan: 'Developer',
      PlanStatus: 'Trial',
      Billing: 'Monthly',
    });
    const bad = await call('updateAppSettings', { data: { ProductionUrl: 'not a url' } });
    expect(bad.error.Description).toBe('Please enter a valid URL.');
    const ok = await call('updateAppSettings', {
      data: { ProductionUrl: 'https://dee.example', StagingUrl: '' },
    });
    expect(ok.body).toMatchObject({
      Data: { ProductionUrl: 'https://dee.example', StagingUrl: '' },
      Message: 'Settings saved.',
    });
  });

  it('answers 927 until saved, refuses contradictions with 981, and saves', async () => {
    const none = await call('applicationSecurity');
    expect(none.status).toBe(404);
    expect(none.error.ErrorCode).toBe(927);
    const data: BodyOf<'updateApplicationSecurity'>['data'] = {
      SignInMode: 'Required',
      MfaMode: 'Required',
      PasswordMinLength: 10,
      MaxFailedLogins: 5,
      LockoutMinutes: 0,
      SessionTimeoutMinutes: 60,
      SecurityReportTime: '07:30',
    };
    const conflict = await call('updateApplicationSecurity', { data });
    expect(conflict.status).toBe(400);
    expect(conflict.error).toMatchObject({
      ErrorCode: 981,
      Description: 'Account lockout needs a lockout time: set Lockout minutes, or set Failed sign-ins to 0.',
    });
    expect(
      (
        await call('updateApplicationSecurity', {
          data: { ...data, SecurityReportTime: '25:00' },
        })
      ).error.Description,
    ).toBe('Please choose a time of day.');
    const saved = await call('updateApplicationSecurity', {
      data: { ...data, LockoutMinutes: 30 },
    });
    expect(saved.body).toMatchObject({
      Data: { SignInMode: 'Required', LockoutMinutes: 30 },
      Message: 'Settings saved.',
    });
    expect((await call('applicationSecurity')).body.Data).toMatchObject({
      MfaMode: 'Required',
      SecurityReportTime: '07:30',
    });
  });
});

describe('encryption and hashing settings', () => {
  const data: BodyOf<'saveEncryptionSettings'>['data'] = {
    EncryptionType: 'HMAC-SHA256',
    HashEncoding: 'hex',
    SaltEncoding: 'utf8',
    Salt: 'site-salt',
    PerPasswordSalt: false,
    Iterations: 1,
    SaltAttach: 'Append',
  };

  it('answers the defaults for passwords, 1037 and 1090 for the sets not yet saved', async () => {
    expect((await call('passwordSettings')).body.Data).toMatchObject({
      EncryptionType: 'Argon2id',
      HasEncryptionKey: false,
    });
    expect((await call('previousPasswordSettings')).error.ErrorCode).toBe(1037);
    expect((await call('securityQuestionSettings')).error.ErrorCode).toBe(1090);
  });

  it('needs a key for HMAC, keeps it encrypted and never answers it', async () => {
    const noKey = await call('saveEncryptionSettings', { Set: 'security-answer', data });
    expect(noKey.error.ErrorCode).toBe(962);
    const saved = await call('saveEncryptionSettings', {
      Set: 'security-answer',
      data: { ...data, EncryptionKey: 'Very-Secret-Key-42' },
    });
    expect(saved.body).toMatchObject({
      Data: { EncryptionType: 'HMAC-SHA256', HasEncryptionKey: true },
      Message: 'Settings saved.',
    });
    expect(saved.body).not.toContain('Very-Secret-Key-42');
    const got = await call('securityQuestionSettings');
    expect(got.body).not.toContain('Very-Secret-Key-42');
    const raw = await t.db.query<{ key_sealed: Buffer; settings: unknown }>(
      'SELECT key_sealed, settings FROM encryption_settings',
    );
    expect(JSON.stringify(raw.rows[0]!.settings)).not.toContain('Very-Secret');
    expect(Buffer.from(raw.rows[0]!.key_sealed).toString('latin1')).not.toContain('Very-Secret');
    // saving again without a key keeps the stored one
    const again = await call('saveEncryptionSettings', {
      Set: 'security-answer',
      data: { ...data, Salt: 'x' },
    });
    expect(again.body.Data.HasEncryptionKey).toBe(true);
    const logged = await t.db.query(
      "SELECT details::text AS d FROM activity_log WHERE action = 'site.encryption'",
    );
    expect(JSON.stringify(logged.rows)).not.toContain('Very-Secret');
  });

  it('previews the stored form with the real implementation and says when it is weak', async () => {
    const md5 = await call('encryptionPreview', {
      data: { ...data, EncryptionType: 'MD5', Salt: '', SaltAttach: 'None' },
      Sample: 'password',
    });
    expect(md5.body.Data).toMatchObject({
      Stored: '5f4dcc3b5aa765d61d8327deb882cf99',
      Weak: expect.stringContaining('MD5 is broken'),
    });
    const argon = await call('encryptionPreview', {
      data: { ...data, EncryptionType: 'Argon2id', PerPasswordSalt: true, SaltAttach: 'None' },
      Sample: 'password',
    });
    expect(argon.body.Data.Stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(argon.body.Data.Weak).toBeNull();
  });
});
