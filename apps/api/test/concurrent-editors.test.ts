import { ERRORS } from '@sac/contract/errors';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * Two staff edit the same records in random orders, each from what they last read. Properties:
 * no write lands from a stale version (it answers 412 with 930 and nothing changes), and no field
 * a request does not name changes. On PostgreSQL the "together" steps truly overlap in the
 * database; on PGlite they interleave between statements.
 */
const RUNS = Number(process.env.EDITOR_RUNS ?? 25);
type S = { xtoken: string; xsign: string };

const PROFILE_FIELDS = ['FirstName', 'LastName', 'Organization', 'PhoneNumber', 'ContactEmail'] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];

const profileValue: Record<ProfileField, fc.Arbitrary<string>> = {
  FirstName: fc.constantFrom('Ada', 'Grace', 'Mary', 'Hedy'),
  LastName: fc.constantFrom('Lovelace', 'Hopper', 'Somerville', 'Lamarr'),
  Organization: fc.constantFrom('', 'Analytical', 'Navy', 'Optics'),
  PhoneNumber: fc.constantFrom('', '5550000001', '5550000002'),
  ContactEmail: fc.constantFrom('', 'contact@one.example', 'contact@two.example'),
};
const profileEdit = fc.record(
  Object.fromEntries(PROFILE_FIELDS.map((f) => [f, profileValue[f]])) as Record<
    ProfileField,
    fc.Arbitrary<string>
  >,
);
const siteEdit = fc
  .record(
    {
      ProductionUrl: fc.constantFrom('https://a.example.com', 'https://b.example.com', ''),
      StagingUrl: fc.constantFrom('https://s1.example.com', ''),
      Plan: fc.constantFrom('Developer', 'Developer Premium'),
    },
    { requiredKeys: [] },
  )
  .filter((e) => Object.keys(e).length > 0);

const step = fc.oneof(
  fc.record({ kind: fc.constant('read' as const), editor: fc.constantFrom(0, 1) }),
  fc.record({ kind: fc.constant('save' as const), editor: fc.constantFrom(0, 1), edit: profileEdit }),
  fc.record({ kind: fc.constant('together' as const), edits: fc.tuple(profileEdit, profileEdit) }),
  fc.record({ kind: fc.constant('site' as const), edit: siteEdit }),
);

describe('two concurrent editors', () => {
  let t: TestApp;
  let s: S;
  let seq = 0;
  beforeAll(async () => {
    t = await createTestApp();
    await t.addStaff('editor@example.com', ['Admin']);
    s = await t.login('editor@example.com');
  });
  afterAll(() => t.close());

  const storedCustomer = async (uid: string) =>
    (
      await t.db.query<Record<string, unknown>>(
        `SELECT first_name, last_name, email, auth_email, organization, phone, contact_email, time_zone,
           status, role, version::int AS version FROM customers WHERE uid = $1`,
        [uid],
      )
    ).rows[0]!;
  const storedSite = async (appId: number) =>
    (
      await t.db.query<Record<string, unknown>>(
        `SELECT production_url, staging_url, plan, plan_status, trial_ends_at, status, features, db_name
         FROM sites WHERE app_id = $1`,
        [appId],
      )
    ).rows[0]!;
  const readProfile = async (uid: string) => {
    const r = await t.call('customerProfile', { session: s, query: { uid } });
    return r.headers.etag as string;
  };
  const saveProfile = (uid: string, email: string, edit: Record<ProfileField, string>, etag: string) =>
    t.callLoose('updateCustomerProfile', {
      session: s,
      query: { uid },
      headers: { 'if-match': etag },
      body: { data: { ...edit, Email: email, TimeZone: 'Europe/London' } },
    });
  const column: Record<ProfileField, string> = {
    FirstName: 'first_name',
    LastName: 'last_name',
    Organization: 'organization',
    PhoneNumber: 'phone',
    ContactEmail: 'contact_email',
  };
  /** The stored row after a write that named `edit`: only those columns (and the version) moved. */
  const after = (before: Record<string, unknown>, edit: Record<ProfileField, string>) => ({
    ...before,
    ...Object.fromEntries(PROFILE_FIELDS.map((f) => [column[f], edit[f]])),
    version: (before.version as number) + 1,
  });

  it('never applies a write from a stale version, and changes only what a request names', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        seq += 1;
        const email = `editors-${seq}@example.com`;
        const uid = await insertCustomer(t.db, { first: 'Ada', last: 'Lovelace', email });
        const { appId } = await insertSite(t.db, { owner: uid, name: `editors-${seq}` });
        const seen = [await readProfile(uid), await readProfile(uid)];
        for (const st of steps) {
          if (st.kind === 'read') {
            seen[st.editor] = await readProfile(uid);
          } else if (st.kind === 'save') {
            const before = await storedCustomer(uid);
            const current = `"${before.version}"`;
            const r = await saveProfile(uid, email, st.edit, seen[st.editor]!);
            if (seen[st.editor] === current) {
              expect(r.status, r.raw.body).toBe(200);
              expect(await storedCustomer(uid)).toEqual(after(before, st.edit));
              seen[st.editor] = r.headers.etag as string;
            } else {
              expect(r.status).toBe(412);
              expect(r.error.ErrorCode).toBe(ERRORS.conflict.code);
              expect(await storedCustomer(uid)).toEqual(before);
            }
          } else if (st.kind === 'together') {
            // both save at once from the same fresh read: exactly one lands
            const tag = await readProfile(uid);
            const before = await storedCustomer(uid);
            const rs = await Promise.all(st.edits.map((edit) => saveProfile(uid, email, edit, tag)));
            const codes = rs.map((r) => r.status).sort();
            expect(codes).toEqual([200, 412]);
            const won = rs.findIndex((r) => r.status === 200);
            expect(await storedCustomer(uid)).toEqual(after(before, st.edits[won]!));
            seen[won] = rs[won]!.headers.etag as string;
          } else {
            // a partial site write: what it does not name stays as stored
            const before = await storedSite(appId);
            const r = await t.callLoose('updateSiteBasicSettings', {
              session: s,
              query: { uID: uid, appId: String(appId) },
              body: { data: st.edit },
            });
            expect(r.status, r.raw.body).toBe(200);
            const now = await storedSite(appId);
            const expected = { ...before };
            if (st.edit.ProductionUrl !== undefined) expected.production_url = st.edit.ProductionUrl;
            if (st.edit.StagingUrl !== undefined) expected.staging_url = st.edit.StagingUrl;
            if (st.edit.Plan !== undefined) {
              expected.plan = st.edit.Plan;
              expected.plan_status = 'Subscribed';
              expected.trial_ends_at = null;
            }
            expect(now).toEqual(expected);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  /**
   * The same over a record whose version lives in record_versions (a site's application security):
   * its first save is from version 0 (never saved), later ones from the ETag read.
   */
  it('holds for a settings section versioned apart from its rows, from its first save on', async () => {
    const lockout = fc.integer({ min: 1, max: 60 });
    const securityStep = fc.oneof(
      fc.record({ kind: fc.constant('read' as const), editor: fc.constantFrom(0, 1) }),
      fc.record({ kind: fc.constant('save' as const), editor: fc.constantFrom(0, 1), value: lockout }),
      fc.record({ kind: fc.constant('together' as const), values: fc.tuple(lockout, lockout) }),
    );
    const settings = (LockoutMinutes: number) => ({
      SignInMode: 'Optional',
      MfaMode: 'Optional',
      PasswordMinLength: 8,
      MaxFailedLogins: 5,
      LockoutMinutes,
      SessionTimeoutMinutes: 1440,
      SecurityReportTime: '',
    });
    await fc.assert(
      fc.asyncProperty(fc.array(securityStep, { minLength: 1, maxLength: 10 }), async (steps) => {
        seq += 1;
        const uid = await insertCustomer(t.db, {
          first: 'Hedy',
          last: 'Lamarr',
          email: `sections-${seq}@example.com`,
        });
        const { appId } = await insertSite(t.db, { owner: uid, name: `sections-${seq}` });
        const query = { uid, appId: String(appId) };
        /** The stored lockout and the tag a read answers ("0" and undefined before the first save). */
        const read = async () => {
          const r = await t.call('applicationSecurity', { session: s, query });
          return r.status === 200
            ? { tag: r.headers.etag as string, lockout: r.body.Data.LockoutMinutes }
            : { tag: '"0"', lockout: undefined };
        };
        const save = (value: number, tag: string) =>
          t.callLoose('updateApplicationSecurity', {
            session: s,
            query,
            headers: { 'if-match': tag },
            body: { data: settings(value) },
          });
        const seen = [(await read()).tag, (await read()).tag];
        for (const st of steps) {
          if (st.kind === 'read') {
            seen[st.editor] = (await read()).tag;
          } else if (st.kind === 'save') {
            const before = await read();
            const r = await save(st.value, seen[st.editor]!);
            if (seen[st.editor] === before.tag) {
              expect(r.status, r.raw.body).toBe(200);
              expect((await read()).lockout).toBe(st.value);
              seen[st.editor] = r.headers.etag as string;
            } else {
              expect(r.status).toBe(412);
              expect(r.error.ErrorCode).toBe(ERRORS.conflict.code);
              expect(await read()).toEqual(before);
            }
          } else {
            const { tag } = await read();
            const rs = await Promise.all(st.values.map((v) => save(v, tag)));
            expect(rs.map((r) => r.status).sort()).toEqual([200, 412]);
            const won = rs.findIndex((r) => r.status === 200);
            expect((await read()).lockout).toBe(st.values[won]);
            seen[won] = rs[won]!.headers.etag as string;
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
