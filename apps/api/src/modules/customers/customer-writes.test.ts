import { DB_NAME_MESSAGE, WRITE_MESSAGES } from '@sac/contract/customer-writes';
import type { BodyOf, EndpointId, QueryOf } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite, shareSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let s: { xtoken: string; xsign: string };

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('admin@example.com', ['Admin']);
  s = await t.login('admin@example.com');
});
afterAll(() => t.close());

const call = <I extends EndpointId>(id: I, body?: BodyOf<I>, query?: QueryOf<I>) =>
  t.call(id, { session: s, ...(body !== undefined ? { body } : {}), ...(query ? { query } : {}) });

const newCustomer = (over: Record<string, unknown> = {}) =>
  call('createCustomer', {
    firstname: 'Katherine',
    lastname: 'Johnson',
    email: 'katherine@nasa.example',
    organization: 'NASA',
    phone: '5551234567',
    timezone: 'America/New_York',
    appname: 'orbital-mechanics',
    ...over,
  });

async function activity(uid: string) {
  const r = await t.db.query<{ action: string; details: Record<string, unknown> }>(
    "SELECT action, details FROM activity_log WHERE target_type = 'customer' AND target_id = $1 ORDER BY id",
    [uid],
  );
  return r.rows;
}

describe('POST /admin/customer (wizard step 1)', () => {
  it.each([
    [{ firstname: '' }, 'First name is required.'],
    [{ email: 'bad' }, MESSAGES.emailInvalid],
    [{ phone: '12345abcde' }, MESSAGES.phoneNotNumber],
    [{ phone: '123456789' }, MESSAGES.phoneLength],
    [
      { appname: 'A b' },
      'Site name must be 3 to 63 lower-case letters, digits or dashes, starting and ending with a letter or digit.',
    ],
    [{ appname: '' }, 'Site name is required.'],
  ])('refuses %j: "%s"', async (over, message) => {
    const r = await newCustomer(over);
    expect(r.status).toBe(400);
    expect(r.error.FieldErrors!.map((f: { Message: string }) => f.Message)).toContain(message);
  });

  it('creates the customer and the first site, answers the secret once, and logs it', async () => {
    const r = await newCustomer();
    expect(r.status).toBe(200);
    const { Customer, Site, ApiSecret } = r.body.Data;
    expect(Customer).toMatchObject({
      FirstName: 'Katherine',
      Email: 'katherine@nasa.example',
      TimeZone: 'America/New_York',
    });
    expect(Site).toMatchObject({
      AppName: 'orbital-mechanics',
      uid: Customer.Uid,
      Role: 'Owner',
      Status: 'active',
    });
    expect(ApiSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const found = await call('searchCustomer', undefined, { apisecret: ApiSecret });
    expect(found.body.Data[0]!.Uid).toBe(Customer.Uid);
    const stored = await t.db.query('SELECT secret_hash FROM sites WHERE app_id = $1', [Site.appId]);
    expect(JSON.stringify(stored.rows)).not.toContain(ApiSecret);
    expect((await activity(Customer.Uid)).map((a) => a.action)).toEqual(['customer.create']);
  });

  it('refuses an existing email in any case with the spec message, and a taken site name', async () => {
    const dup = await newCustomer({ email: 'KATHERINE@nasa.example', appname: 'another-one' });
    expect(dup.status).toBe(409);
    expect(dup.error).toMatchObject({ ErrorCode: 940, Description: MESSAGES.customerExists });
    const taken = await newCustomer({ email: 'dorothy@nasa.example', appname: 'Orbital-Mechanics' });
    expect(taken.error.ErrorCode).toBe(941);
    // nothing half-made: the customer of the refused call does not exist
    expect((await call('searchCustomer', undefined, { emailid: 'dorothy@' })).status).toBe(404);
  });
});

describe('PUT /admin/site/basicsettings changes only what it names', () => {
  let owner: string;
  beforeAll(async () => {
    owner = await insertCustomer(t.db, { first: 'Ada', last: 'Intent', email: 'ada@intent.example' });
  });
  const stored = async (appId: number) =>
    (
      await t.db.query<{
        plan: string;
        plan_status: string;
        trial_ends_at: Date | null;
        production_url: string;
        staging_url: string;
      }>(
        'SELECT plan, plan_status, trial_ends_at, production_url, staging_url FROM sites WHERE app_id = $1',
        [appId],
      )
    ).rows[0]!;
  const put = (appId: number, data: Record<string, unknown>) =>
    call('updateSiteBasicSettings', { data }, { uID: owner, appId });

  it('keeps a running trial exactly when only a URL changes, however often it is saved', async () => {
    const { appId } = await insertSite(t.db, { owner, name: 'intent-running' }); // trial till 2026-02-01
    const before = await stored(appId);
    for (const n of [1, 2, 3]) {
      const r = await put(appId, { ProductionUrl: `https://v${n}.intent.example` });
      expect(r.status, r.raw.body).toBe(200);
    }
    expect(await stored(appId)).toEqual({ ...before, production_url: 'https://v3.intent.example' });
  });

  it('keeps an expired trial expired (not "Subscribed") when only a URL changes', async () => {
    const { appId } = await insertSite(t.db, { owner, name: 'intent-expired' });
    await t.db.query("UPDATE sites SET trial_ends_at = '2025-12-01T00:00:00Z' WHERE app_id = $1", [appId]);
    const before = await stored(appId);
    const r = await put(appId, { StagingUrl: '' });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Data).toMatchObject({ PlanStatus: 'Trial', TrialEndsAt: '2025-12-01T00:00:00.000Z' });
    expect(await stored(appId)).toEqual({ ...before, staging_url: '' });
  });

  it('leaves the URLs alone when only the plan changes', async () => {
    const { appId } = await insertSite(t.db, { owner, name: 'intent-plan' });
    const before = await stored(appId);
    const r = await put(appId, { Plan: 'Developer Premium', TrialDays: 0 });
    expect(r.status, r.raw.body).toBe(200);
    expect(await stored(appId)).toEqual({
      ...before,
      plan: 'Developer Premium',
      plan_status: 'Subscribed',
      trial_ends_at: null,
    });
  });

  it('takes scheme and host in any case, refuses a port above 65535, and a database name that is no identifier', async () => {
    const { appId } = await insertSite(t.db, { owner, name: 'intent-rules' });
    const upper = await put(appId, { ProductionUrl: 'HTTPS://EXAMPLE.COM' });
    expect(upper.status, upper.raw.body).toBe(200);
    const port = await put(appId, { ProductionUrl: 'https://example.com:70000/x' });
    expect(port.error.Description).toBe('Please enter a valid URL.');
    const db = await call(
      'updateSiteDataCenter',
      { Source: 'global-server', GlobalServer: 'euc-shared-1', DbName: 'my db; DROP TABLE x' },
      { userId: owner, appId },
    );
    expect(db.status).toBe(400);
    expect(db.error.Description).toBe(DB_NAME_MESSAGE);
  });

  it('refuses a write from a stale read of the site (basic settings and app settings share its version)', async () => {
    const { appId } = await insertSite(t.db, { owner, name: 'intent-versions' });
    const read = await call('siteBasicSettings', undefined, { uID: owner, appId });
    const tag = read.headers.etag as string;
    const apps = await call('appSettings', undefined, { uid: owner, appId });
    expect(apps.headers.etag).toBe(tag);
    // another editor saves the web apps through the configuration screen
    const other = await t.call('updateAppSettings', {
      session: s,
      query: { uid: owner, appId: String(appId) },
      headers: { 'if-match': tag },
      body: { data: { ProductionUrl: 'https://theirs.example.com', StagingUrl: '' } },
    });
    expect(other.status, other.raw.body).toBe(200);
    const before = await stored(appId);
    const stale = await t.call('updateSiteBasicSettings', {
      session: s,
      query: { uID: owner, appId: String(appId) },
      headers: { 'if-match': tag },
      body: { data: { StagingUrl: 'https://mine.example.com' } },
    });
    expect(stale.status).toBe(412);
    expect(stale.error.ErrorCode).toBe(930);
    expect(await stored(appId)).toEqual(before);
    const fresh = await t.call('updateSiteBasicSettings', {
      session: s,
      query: { uID: owner, appId: String(appId) },
      headers: { 'if-match': other.headers.etag as string },
      body: { data: { StagingUrl: 'https://mine.example.com' } },
    });
    expect(fresh.status).toBe(200);
    expect(await stored(appId)).toMatchObject({
      production_url: 'https://theirs.example.com',
      staging_url: 'https://mine.example.com',
    });
  });

  it('refuses a trial on the Free plan, a trial without a plan, and a body naming nothing', async () => {
    const { appId } = await insertSite(t.db, { owner, name: 'intent-refused' });
    const before = await stored(appId);
    const free = await put(appId, { Plan: 'Free', TrialDays: 14 });
    expect(free.status).toBe(400);
    expect(free.error.FieldErrors).toContainEqual({
      Field: 'data.TrialDays',
      Message: WRITE_MESSAGES.freePlanNoTrial,
    });
    const noPlan = await put(appId, { TrialDays: 14 });
    expect(noPlan.status).toBe(400);
    expect(noPlan.error.FieldErrors).toContainEqual({
      Field: 'data.Plan',
      Message: WRITE_MESSAGES.trialNeedsPlan,
    });
    const nothing = await put(appId, {});
    expect(nothing.status).toBe(400);
    expect(nothing.error.Description).toBe(WRITE_MESSAGES.nothingToChange);
    expect(await stored(appId)).toEqual(before);
  });
});

describe('site configuration steps', () => {
  let uid: string;
  let appId: number;
  beforeAll(async () => {
    const r = await newCustomer({ email: 'mary@nasa.example', appname: 'wind-tunnel' });
    uid = r.body.Data.Customer.Uid;
    appId = r.body.Data.Site.appId;
  });

  it('basic settings: web apps by the URL-like rule, plan and trial', async () => {
    const bad = await call(
      'updateSiteBasicSettings',
      { data: { ProductionUrl: 'not a url', Plan: 'Free' } },
      { uID: uid, appId },
    );
    expect(bad.error.Description).toBe('Please enter a valid URL.');
    const r = await call(
      'updateSiteBasicSettings',
      {
        data: {
          ProductionUrl: 'https://tunnel.example.com',
          StagingUrl: 'staging.tunnel.example.com:8443/app',
          Plan: 'Developer',
          TrialDays: 30,
        },
      },
      { uID: uid, appId },
    );
    expect(r.status).toBe(200);
    expect(r.body.Data).toMatchObject({
      Plan: 'Developer',
      PlanStatus: 'Trial',
      ProductionUrl: 'https://tunnel.example.com',
    });
    expect(new Date(r.body.Data.TrialEndsAt!).getTime() - t.clock.now().getTime()).toBe(30 * 86_400_000);
  });

  it('features from a feature set or from another site of the customer', async () => {
    const r = await call('updateSiteFeatures', { FeatureSet: 'Developer' }, { userId: uid, appId });
    expect(r.body.Data.Features).toContain('mfa');
    expect(
      (await call('updateSiteFeatures', { FeatureSet: 'Nope' }, { userId: uid, appId })).error.ErrorCode,
    ).toBe(942);
    expect((await call('updateSiteFeatures', {}, { userId: uid, appId })).status).toBe(400);
    const second = (await call('addSite', { appname: 'wind-tunnel-2' }, { uid })).body.Data.Site.appId;
    const copied = await call('updateSiteFeatures', { FromAppId: appId }, { userId: uid, appId: second });
    expect(copied.body.Data.Features).toEqual(r.body.Data.Features);
  });

  it('data center: a global server, a custom database (encrypted, masked), or a copy', async () => {
    const noName = await call(
      'updateSiteDataCenter',
      { Source: 'global-server', GlobalServer: 'use-shared-1', DbName: '' },
      { userId: uid, appId },
    );
    expect(noName.error.Description).toBe(MESSAGES.databaseNameRequired);
    const noConn = await call(
      'updateSiteDataCenter',
      { Source: 'custom-database', DataCenter: 'eu-west', DbName: 'tunnel', ConnectionString: '' },
      { userId: uid, appId },
    );
    expect(noConn.error.Description).toBe(MESSAGES.connectionStringRequired);
    const ok = await call(
      'updateSiteDataCenter',
      {
        Source: 'custom-database',
        DataCenter: 'eu-west',
        DbName: 'tunnel',
        ConnectionString: 'postgres://u:TopSecret1@db.example:5432/tunnel',
      },
      { userId: uid, appId },
    );
    expect(ok.body.Data.Current).toEqual({
      DataCenter: 'eu-west',
      GlobalServer: null,
      DbName: 'tunnel',
      CustomDb: true,
    });
    const info = await call('appInfoById', undefined, { uId: uid, appId });
    expect(info.body.Data.Database.ConnectionString).toBe('postgres://u:****@db.example:5432/tunnel');
    expect(info.raw.body).not.toContain('TopSecret1');
    const logged = JSON.stringify(await activity(uid));
    expect(logged).not.toContain('TopSecret1');
    const global = await call(
      'updateSiteDataCenter',
      { Source: 'global-server', GlobalServer: 'euc-shared-1', DbName: 'tunnel' },
      { userId: uid, appId },
    );
    expect(global.body.Data.Current).toEqual({
      DataCenter: 'eu-central',
      GlobalServer: 'euc-shared-1',
      DbName: 'tunnel',
      CustomDb: false,
    });
  });

  it('activate and deactivate, only on the owner side', async () => {
    const off = await call('setSiteStatus', { Status: 'inactive' }, { uId: uid, appId });
    expect(off.body.Data.Status).toBe('inactive');
    expect((await call('setSiteStatus', { Status: 'active' }, { uId: uid, appId })).body.Data.Status).toBe(
      'active',
    );
    const other = await insertCustomer(t.db, { first: 'Other', last: 'Person', email: 'other@example.com' });
    await shareSite(t.db, appId, other, 'Developer');
    expect((await call('setSiteStatus', { Status: 'inactive' }, { uId: other, appId })).status).toBe(404);
    const actions = (await activity(uid)).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'site.deactivate',
        'site.activate',
        'site.datacenter',
        'site.features',
        'site.basicsettings',
        'site.create',
      ]),
    );
  });
});

describe('profile, password and email', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await insertCustomer(t.db, { first: 'Alan', last: 'Turing', email: 'alan@bletchley.example' });
    await insertCustomer(t.db, { first: 'Joan', last: 'Clarke', email: 'joan@bletchley.example' });
  });
  const profile = (data: Record<string, unknown>) =>
    call(
      'updateCustomerProfile',
      {
        data: {
          FirstName: 'Alan',
          LastName: 'Turing',
          Email: 'alan@bletchley.example',
          ContactEmail: 'alan@bletchley.example',
          TimeZone: 'Europe/London',
          ...data,
        },
      },
      { uid },
    );

  it('applies the phone and email rules in the spec words', async () => {
    expect((await profile({ PhoneNumber: '12ab' })).error.Description).toBe(MESSAGES.phoneNotNumber);
    expect((await profile({ PhoneNumber: '12345' })).error.Description).toBe(MESSAGES.phoneLength);
    expect((await profile({ Email: '' })).error.Description).toBe(MESSAGES.emailRequired);
    expect((await profile({ Email: 'x@y' })).error.Description).toBe(MESSAGES.emailInvalid);
    expect((await profile({ ContactEmail: 'nope' })).error.Description).toBe(MESSAGES.emailInvalid);
    // a taken email has its own message, not the create-customer one
    expect((await profile({ Email: 'JOAN@bletchley.example' })).error).toMatchObject({
      ErrorCode: 977,
      Description: ERRORS.customerEmailTaken.text,
    });
  });

  it('no two customers share an email or a sign-in email, in either column, in any case', async () => {
    const grace = await insertCustomer(t.db, { first: 'Grace', last: 'Hopper', email: 'grace@navy.example' });
    const edit = (uidOf: string, data: Record<string, unknown>) =>
      t.callLoose('updateCustomerProfile', {
        session: s,
        body: { data: { FirstName: 'Grace', LastName: 'Hopper', TimeZone: 'Europe/London', ...data } },
        query: { uid: uidOf },
      });
    // her email changes; her sign-in email stays on the old address unless named
    expect((await edit(grace, { Email: 'grace@cobol.example' })).status).toBe(200);
    const moved = (await call('customerProfile', undefined, { uid: grace })).body.Data;
    expect(moved).toMatchObject({ Email: 'grace@cobol.example', AuthEmail: 'grace@navy.example' });
    // the old address still finds her, and no new customer may take it
    const found = await call('searchCustomer', undefined, { emailid: 'GRACE@NAVY.example' });
    expect(found.body.Data.map((c: { Uid: string }) => c.Uid)).toEqual([grace]);
    const both = await call('searchCustomer', undefined, { emailid: 'grace@' });
    expect(both.body.Data.map((c: { Uid: string }) => c.Uid)).toEqual([grace]); // once, not per address
    const dup = await newCustomer({ email: 'Grace@Navy.example', appname: 'navy-dup' });
    expect(dup.status).toBe(409);
    expect(dup.error.ErrorCode).toBe(940);
    // another customer may not take it as email, nor as sign-in email
    expect((await profile({ Email: 'grace@navy.example' })).error.ErrorCode).toBe(977);
    const auth = await profile({ AuthEmail: 'GRACE@cobol.example' });
    expect(auth.status).toBe(409);
    expect(auth.error).toMatchObject({ ErrorCode: 978, Description: ERRORS.customerAuthEmailTaken.text });
    // staff move her sign-in email deliberately; the old address is free again
    expect(
      (await edit(grace, { Email: 'grace@cobol.example', AuthEmail: 'grace@cobol.example' })).status,
    ).toBe(200);
    expect((await call('searchCustomer', undefined, { emailid: 'grace@navy' })).status).toBe(404);
    // and the database refuses a direct write that would share an address
    await expect(
      t.db.query('UPDATE customers SET auth_email = $1 WHERE uid = $2', ['Grace@Cobol.example', uid]),
    ).rejects.toMatchObject({ code: '23505' });
  });

  it('refuses a write from a stale form (If-Match older than the stored version) with 412 and 930', async () => {
    const ida = await insertCustomer(t.db, { first: 'Ida', last: 'Rhodes', email: 'ida@census.example' });
    const read = () => call('customerProfile', undefined, { uid: ida });
    const first = await read();
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"\d+"$/);
    const put = (data: Record<string, unknown>, ifMatch?: string) =>
      t.call('updateCustomerProfile', {
        session: s,
        query: { uid: ida },
        ...(ifMatch ? { headers: { 'if-match': ifMatch } } : {}),
        body: {
          data: {
            FirstName: 'Ida',
            LastName: 'Rhodes',
            Email: 'ida@census.example',
            TimeZone: 'Europe/London',
            ...data,
          },
        },
      });
    // two editors read the same version; the first save wins and moves the version on
    const saved = await put({ Organization: 'Census Bureau' }, tag);
    expect(saved.status, saved.raw.body).toBe(200);
    expect(saved.headers.etag).not.toBe(tag);
    expect((await read()).headers.etag).toBe(saved.headers.etag);
    // the second, from the stale form, is refused and stores nothing
    const stale = await put({ Organization: '', PhoneNumber: '5551112222' }, tag);
    expect(stale.status).toBe(412);
    expect(stale.error).toMatchObject({ ErrorCode: 930, Description: ERRORS.conflict.text });
    expect((await read()).body.Data).toMatchObject({ Organization: 'Census Bureau', PhoneNumber: '' });
    // from the new version it goes through; without If-Match there is no precondition
    expect((await put({ PhoneNumber: '5551112222' }, saved.headers.etag as string)).status).toBe(200);
    expect((await put({ PhoneNumber: '5553334444' })).status).toBe(200);
    expect((await put({}, 'yesterday')).status).toBe(400);
  });

  it('saves the profile and logs which fields changed', async () => {
    t.clock.advance(60_000);
    const r = await profile({ PhoneNumber: '0987654321', Organization: 'GC&CS' });
    expect(r.status).toBe(200);
    expect(r.body.Data).toMatchObject({ PhoneNumber: '0987654321', Organization: 'GC&CS' });
    expect(r.body.Data.ModifiedDate).toBe(t.clock.now().toISOString());
    const last = (await activity(uid)).at(-1)!;
    expect(last).toEqual({
      action: 'customer.profile.update',
      details: { changed: ['Organization', 'PhoneNumber'] },
    });
  });

  it('resets the customer password under the password rule', async () => {
    const weak = await call('setCustomerPassword', { password: 'weak' }, { uid });
    expect(weak.error.Description).toBe(MESSAGES.passwordRule);
    const ok = await call('setCustomerPassword', { password: 'Enigma#1939' }, { uid });
    expect(ok.body).toEqual({ IsPosted: true, Message: 'The customer password has been reset.' });
    const row = await t.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM customers WHERE uid = $1',
      [uid],
    );
    expect(row.rows[0]!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('verifies the email', async () => {
    expect((await call('verifyEmail', { uid })).status).toBe(200);
    expect((await call('customerProfile', undefined, { uid })).body.Data.EmailVerified).toBe(true);
    expect((await call('verifyEmail', { uid: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it('refuses writes to staff without the write permissions', async () => {
    await t.addStaff('support@example.com', ['Support']);
    const support = await t.login('support@example.com');
    const r = await t.call('verifyEmail', {
      session: support,
      body: { uid },
    });
    expect(r.status).toBe(403);
    const site = await insertSite(t.db, { owner: uid, name: 'bombe' });
    const st = await t.call('setSiteStatus', {
      session: support,
      query: { uId: uid, appId: String(site.appId) },
      body: { Status: 'inactive' },
    });
    expect(st.status).toBe(403);
  });
});
