import type { EndpointId } from '@sac/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StaffCall } from '../src/lib/endpoint-route.ts';
import { updateProfile } from '../src/modules/customers/customer-writes.service.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { type Answer, createTestApp, type TestApp } from './harness.ts';

/**
 * The customers module's writes make the reads that decide them under the lock of the record the
 * call names, in the write's transaction (runWrite): what a write reports (its trail row's list of
 * changed fields, the address its mail goes to) and what it copies (another site's features) is
 * the record as it stands when the write holds it, not as it stood before another write committed.
 *
 * The first test runs on both engines: concurrent profile writes, where a before-image read
 * outside the lock lets both report the same change. The others hold a record's lock in a
 * transaction of their own while the call starts, so they need a second connection: PostgreSQL.
 */
type S = { xtoken: string; xsign: string };
const onPostgres = process.env.TEST_DB === 'postgres';
const ROUNDS = Number(process.env.LOCK_ROUNDS ?? 10);
/** How many profile writes of one name run at once in a round. */
const AT_ONCE = 3;

let t: TestApp;
let s: S;
let staffUid: string;
let seq = 0;
beforeAll(async () => {
  t = await createTestApp();
  staffUid = await t.addStaff('locks@example.com', ['Admin']);
  s = await t.login('locks@example.com');
});
afterAll(() => t.close());

const ok = (r: Answer<EndpointId>) => expect(r.status, r.raw.body).toBe(200);

/** A fresh customer as the profile writes below send it back (only FirstName varies). */
async function customer(first = 'Name0') {
  const n = ++seq;
  const email = `lock-${n}@locks.example`;
  const uid = await insertCustomer(t.db, { first, last: 'Locke', email });
  return { uid, email };
}

/** A profile edit that renames the customer and leaves the rest as stored. */
const edit = (uid: string, email: string, firstName: string) => ({
  uid,
  data: {
    FirstName: firstName,
    LastName: 'Locke',
    Email: email,
    Organization: '',
    PhoneNumber: '',
    ContactEmail: email,
    TimeZone: 'Europe/London',
  },
});

const putProfile = (uid: string, email: string, firstName: string) =>
  t.call('updateCustomerProfile', {
    session: s,
    query: { uid },
    body: { data: edit(uid, email, firstName).data },
  });

/** The staff call the profile service gets from its route, without If-Match. */
const staffCall = (): StaffCall => ({
  session: {
    sessionId: 0,
    uid: staffUid,
    email: 'locks@example.com',
    name: 'locks',
    roles: ['Admin'],
    permissions: new Set(),
    verifiedAt: new Date(),
  },
  clientAddress: '127.0.0.1',
  userAgent: null,
});

/** The `changed` lists of the customer's profile trail rows, oldest first. */
const profileTrail = async (uid: string) =>
  (
    await t.db.query<{ details: { changed: string[] } }>(
      `SELECT details FROM activity_log WHERE action = 'customer.profile.update' AND customer_uid = $1
       ORDER BY id`,
      [uid],
    )
  ).rows.map((r) => r.details.changed);

/**
 * Waits (a few seconds at most) until a statement of this database waits for a lock: the call
 * started meanwhile has reached the held record. False when none did.
 */
async function someoneWaits(): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    const r = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (r.rows[0]!.n > 0) return true;
    await new Promise((done) => setTimeout(done, 30));
  }
  return false;
}

describe('customer writes read what decides them under the lock', () => {
  it('profile writes at once of the same name: one trail row reports the change, the others none', async () => {
    const { uid, email } = await customer();
    // Called as the route calls it, so the writes start in step (through HTTP the sign-in checks
    // ahead of them stagger them on PGlite, where they interleave only between statements).
    for (let round = 1; round <= ROUNDS; round++) {
      const name = `Name${round}`;
      await Promise.all(
        Array.from({ length: AT_ONCE }, () => updateProfile(t.ctx, staffCall(), edit(uid, email, name))),
      );
      // Each trail row compares with the profile its write replaced: the first write renamed her,
      // the others found the name it left and changed nothing (a before-image read ahead of the
      // lock would have found the old name for more than one).
      const rows = (await profileTrail(uid)).slice(-AT_ONCE);
      expect(rows.map((c) => c.join(',')).sort(), `round ${round}`).toEqual([
        ...Array<string>(AT_ONCE - 1).fill(''),
        'FirstName',
      ]);
    }
    expect(await profileTrail(uid)).toHaveLength(AT_ONCE * ROUNDS);
  });

  it.runIf(onPostgres)(
    "a profile write waiting for the customer's row reports against the profile it then replaces",
    async () => {
      const { uid, email } = await customer('Ada');
      let call!: Promise<Answer<'updateCustomerProfile'>>;
      await t.db.transaction(async (tx) => {
        // Another write holds the customer's row and renames her to the name the call sends.
        await tx.query(`UPDATE customers SET first_name = 'Grace' WHERE uid = $1`, [uid]);
        call = putProfile(uid, email, 'Grace');
        expect(await someoneWaits()).toBe(true);
      });
      ok(await call);
      expect(await profileTrail(uid)).toEqual([[]]);
    },
  );

  it.runIf(onPostgres)(
    "a features copy waiting for the target's lock copies the source as it is then",
    async () => {
      const { uid } = await customer();
      const source = await insertSite(t.db, { owner: uid, name: `lock-source-${seq}`, features: ['mfa'] });
      const target = await insertSite(t.db, { owner: uid, name: `lock-target-${seq}`, features: [] });
      let call!: Promise<Answer<'updateSiteFeatures'>>;
      await t.db.transaction(async (tx) => {
        // Another write holds the target site; meanwhile the source's features change (committed).
        await tx.query('SELECT 1 FROM sites WHERE app_id = $1 FOR UPDATE', [target.appId]);
        call = t.call('updateSiteFeatures', {
          session: s,
          query: { userId: uid, appId: String(target.appId) },
          body: { FromAppId: source.appId },
        });
        expect(await someoneWaits()).toBe(true);
        await t.db.query(`UPDATE sites SET features = '{sso,mfa}' WHERE app_id = $1`, [source.appId]);
      });
      const r = await call;
      ok(r);
      expect(r.body.Data.Features).toEqual(['sso', 'mfa']);
      const stored = await t.db.query<{ features: string[] }>(
        'SELECT features FROM sites WHERE app_id = $1',
        [target.appId],
      );
      expect(stored.rows[0]!.features).toEqual(['sso', 'mfa']);
    },
  );

  it.runIf(onPostgres)(
    "a secret rotation waiting for the customer's row mails the address she has then",
    async () => {
      const { uid } = await customer();
      const site = await insertSite(t.db, { owner: uid, name: `lock-rotate-${seq}` });
      const moved = `moved-${seq}@locks.example`;
      let call!: Promise<Answer<'rotateSiteSecret'>>;
      await t.db.transaction(async (tx) => {
        // Another write holds the customer's row and changes her address.
        await tx.query('UPDATE customers SET email = $2 WHERE uid = $1', [uid, moved]);
        call = t.call('rotateSiteSecret', {
          session: s,
          query: { uid, appId: String(site.appId) },
          body: { GraceMinutes: 0 },
        });
        expect(await someoneWaits()).toBe(true);
      });
      ok(await call);
      const mails = await t.db.query<{ to_address: string }>(
        `SELECT to_address FROM mail_outbox WHERE to_address LIKE $1 ORDER BY id`,
        [`%-${seq}@locks.example`],
      );
      expect(mails.rows.map((m) => m.to_address)).toEqual([moved]);
    },
  );

  it('an unknown customer answers 404 before a site they do not own, and nothing is written', async () => {
    const { uid } = await customer();
    const other = (await customer()).uid;
    const theirs = await insertSite(t.db, { owner: other, name: `lock-theirs-${seq}` });
    const status = (u: string) =>
      t.call('setSiteStatus', {
        session: s,
        query: { uId: u, appId: String(theirs.appId) },
        body: { Status: 'inactive' },
      });
    const unknown = await status('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.error.Description).toBe('There is no customer with that uid.');
    const notOwned = await status(uid);
    expect(notOwned.status).toBe(404);
    expect(notOwned.error.Description).toBe('This customer owns no site with that appId.');
    const row = await t.db.query<{ status: string }>('SELECT status FROM sites WHERE app_id = $1', [
      theirs.appId,
    ]);
    expect(row.rows[0]!.status).toBe('active');
    const trail = await t.db.query('SELECT 1 FROM activity_log WHERE customer_uid IN ($1, $2)', [uid, other]);
    expect(trail.rows).toHaveLength(0);
  });
});
