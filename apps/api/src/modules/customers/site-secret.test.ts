import { SECRET_GRACE_MESSAGE, WRITE_MESSAGES } from '@sac/contract/customer-writes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { retireLapsedSecrets } from './customer-writes.service.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let admin: S;
let support: S;
let owner: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('admin@example.com', ['Admin']);
  await t.addStaff('support@example.com', ['Support']);
  admin = await t.login('admin@example.com');
  support = await t.login('support@example.com');
  owner = await insertCustomer(t.db, { first: 'Radia', last: 'Perlman', email: 'radia@stp.example' });
});
afterAll(() => t.close());

const rotate = (appId: number, GraceMinutes: unknown, session = admin, uid = owner) =>
  t.call('rotateSiteSecret', {
    session,
    query: { uid, appId: String(appId) },
    body: { GraceMinutes },
  });

/**
 * Whether the public call that authenticates with a site's key and secret takes them: anything but
 * 401 (949) means it did (a second request of the same roles answers 409, after authenticating).
 */
const authenticates = async (apikey: string, apisecret: string) => {
  const r = await customerCall(apikey, apisecret);
  return r.status !== 401;
};

/** The public call that authenticates with a site's key and secret. */
const customerCall = (apikey: string, apisecret: string) =>
  t.call('customerRequestsCreate', {
    headers: { apikey, apisecret },
    body: {
      data: {
        Priority: 'Low',
        Description: 'Checking our keys',
        ProxyRoles: ['Developer'],
        AdditionalPermissions: [],
        Duration: 5,
      },
    },
  });

describe('POST /admin/site/secret (a new API secret)', () => {
  it('answers the new secret once; the old one works through the grace chosen, then is refused', async () => {
    const site = await insertSite(t.db, { owner, name: 'spanning-tree' });
    const r = await rotate(site.appId, 60);
    expect(r.status, r.raw.body).toBe(200);
    const until = new Date(t.clock.now().getTime() + 60 * 60_000).toISOString();
    expect(r.body).toEqual({
      Data: {
        AppName: 'spanning-tree',
        ApiKey: site.apiKey,
        ApiSecret: expect.stringMatching(/^.{32,}$/),
        PreviousSecretValidUntil: until,
      },
      Message: WRITE_MESSAGES.secretRotated,
    });
    const fresh = r.body.Data.ApiSecret as string;
    expect(fresh).not.toBe(site.secret);
    expect(await authenticates(site.apiKey, fresh)).toBe(true);
    expect(await authenticates(site.apiKey, site.secret)).toBe(true);
    t.clock.advance(60 * 60_000);
    // the staff sessions idled out meanwhile
    admin = await t.login('admin@example.com');
    support = await t.login('support@example.com');
    const late = await customerCall(site.apiKey, site.secret);
    expect(late.status).toBe(401);
    expect(late.error.ErrorCode).toBe(949);
    expect(await authenticates(site.apiKey, fresh)).toBe(true);
  });

  it('with no grace, refuses the old secret at once; only the hash is kept, and search finds the new one', async () => {
    const site = await insertSite(t.db, { owner, name: 'link-state' });
    const r = await rotate(site.appId, 0);
    expect(r.body.Data.PreviousSecretValidUntil).toBeNull();
    expect(await authenticates(site.apiKey, site.secret)).toBe(false);
    const fresh = r.body.Data.ApiSecret as string;
    const stored = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM sites WHERE encode(secret_hash, 'escape') LIKE '%' || $1 || '%'",
      [fresh],
    );
    expect(stored.rows[0]!.n).toBe(0);
    const found = await t.call('searchCustomer', {
      session: admin,
      query: { apisecret: fresh },
    });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.body)).toContain('radia@stp.example');
  });

  it('logs the rotation (never the secret) and mails the owner when the old secret stops', async () => {
    const site = await insertSite(t.db, { owner, name: 'mesh-net' });
    const r = await rotate(site.appId, 1440);
    const secret = r.body.Data.ApiSecret as string;
    const logged = await t.db.query<{
      action: string;
      actor_email: string;
      details: Record<string, unknown>;
    }>(
      "SELECT action, actor_email, details FROM activity_log WHERE target_id = $1 AND action = 'site.secret.rotate'",
      [owner],
    );
    expect(logged.rows.at(-1)).toMatchObject({
      actor_email: 'admin@example.com',
      details: { appId: site.appId, graceMinutes: 1440 },
    });
    expect(JSON.stringify(logged.rows)).not.toContain(secret);
    const mail = await t.smtp.waitFor((m) => m.subject === 'A new API secret for your site mesh-net');
    expect(mail.to).toContain('radia@stp.example');
    expect(mail.text).toContain('The previous secret keeps working until');
    expect(mail.text).not.toContain(secret);
  });

  it.each([[-1], [1441], ['soon'], [1.5]])('refuses a grace of %j with its message', async (grace) => {
    const site = await insertSite(t.db, { owner, name: `bad-grace-${String(grace).replace(/\W/g, '')}` });
    const r = await rotate(site.appId, grace);
    expect(r.status).toBe(400);
    expect(r.error.FieldErrors).toContainEqual({ Field: 'GraceMinutes', Message: SECRET_GRACE_MESSAGE });
    expect(await authenticates(site.apiKey, site.secret)).toBe(true);
  });

  it('is refused to Support, and for a site the customer does not own', async () => {
    const site = await insertSite(t.db, { owner, name: 'not-yours' });
    expect((await rotate(site.appId, 0, support)).status).toBe(403);
    const other = await insertCustomer(t.db, { first: 'Other', last: 'One', email: 'other@one.example' });
    expect((await rotate(site.appId, 0, admin, other)).status).toBe(404);
    expect(await authenticates(site.apiKey, site.secret)).toBe(true);
  });

  it('logs the end of the grace as the second step, once, and forgets the old hash', async () => {
    await retireLapsedSecrets(t.ctx); // what earlier tests left lapsed
    const site = await insertSite(t.db, { owner, name: 'token-ring' });
    await rotate(site.appId, 30);
    expect(await retireLapsedSecrets(t.ctx)).toBe(0);
    t.clock.advance(30 * 60_000);
    admin = await t.login('admin@example.com');
    support = await t.login('support@example.com');
    expect(await authenticates(site.apiKey, site.secret)).toBe(false);
    expect(await retireLapsedSecrets(t.ctx)).toBe(1);
    expect(await retireLapsedSecrets(t.ctx)).toBe(0);
    const steps = await t.db.query<{
      action: string;
      actor_email: string | null;
      details: Record<string, unknown>;
    }>(
      `SELECT action, actor_email, details FROM activity_log
       WHERE target_id = $1 AND action LIKE 'site.secret.%' AND (details->>'appId')::int = $2 ORDER BY id`,
      [owner, site.appId],
    );
    expect(steps.rows.map((r) => [r.action, r.actor_email])).toEqual([
      ['site.secret.rotate', 'admin@example.com'],
      ['site.secret.retire', null],
    ]);
    const kept = await t.db.query(
      'SELECT 1 FROM sites WHERE app_id = $1 AND previous_secret_hash IS NOT NULL',
      [site.appId],
    );
    expect(kept.rows).toHaveLength(0);
  });

  it('finds lapsed secrets through an index of the sites in a grace, not a scan of every site', async () => {
    // The job runs once a minute; at 1.1M sites a scan took 440-830 ms on PGlite (migration 0050).
    const plan = await t.db.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off');
      const r = await tx.query<Record<string, string>>(
        'EXPLAIN SELECT app_id FROM sites WHERE previous_secret_until <= $1 FOR UPDATE SKIP LOCKED',
        [new Date()],
      );
      return r.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toContain('sites_previous_secret_until');
    expect(plan).not.toContain('Seq Scan');
  });
});
