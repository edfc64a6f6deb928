import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite, shareSite } from './customer-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';

type S = { xtoken: string; xsign: string };
let t: TestApp;
let eu: S;
let both: S;
let euSite: number;
let usSite: number;
let euOwner: string;
let usOwner: string;
let euMember: string;

/** A custom role, as a SuperAdmin's role editor stores it. */
async function addRole(
  name: string,
  permissions: string[],
  dataCenters: string[] | null,
  plans: string[] | null,
) {
  await t.db.query(
    'INSERT INTO roles (name, permissions, scope_data_centers, scope_plans) VALUES ($1, $2, $3, $4)',
    [name, permissions, dataCenters, plans],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  euOwner = await insertCustomer(t.db, { first: 'Eva', last: 'Europe', email: 'eva@example.com' });
  usOwner = await insertCustomer(t.db, { first: 'Sam', last: 'States', email: 'sam@example.com' });
  euMember = await insertCustomer(t.db, { first: 'Max', last: 'Member', email: 'max@example.com' });
  euSite = (await insertSite(t.db, { owner: euOwner, name: 'eu-shop' })).appId;
  usSite = (await insertSite(t.db, { owner: usOwner, name: 'us-shop' })).appId;
  await t.db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [usSite]);
  await shareSite(t.db, euSite, euMember, 'Developer');
  await addRole('Support EU', ['customers.read', 'sites.read'], ['eu-central'], null);
  await addRole('Sites US Free', ['sites.read'], ['us-east'], ['Free']);
  await t.addStaff('eu@example.com', ['Support EU']);
  await t.addStaff('both@example.com', ['Support EU', 'Support']);
  eu = await t.login('eu@example.com');
  both = await t.login('both@example.com');
});
afterAll(() => t.close());

describe('a scoped role', () => {
  it('reaches a site in its data centers and is refused (403, recorded) one outside them', async () => {
    const inside = await t.call('appById', { session: eu, query: { appId: euSite, uId: euOwner } });
    expect(inside.status, inside.raw.body).toBe(200);
    const outside = await t.call('appById', { session: eu, query: { appId: usSite, uId: usOwner } });
    expect(outside.status).toBe(403);
    expect(outside.error.ErrorCode).toBe(ERRORS.outOfScope.code);
    const trail = await t.db.query<{ details: { missing: string } }>(
      "SELECT details FROM activity_log WHERE action = 'access.refused' AND details->>'missing' = 'a site in scope'",
    );
    expect(trail.rows.length).toBe(1);
  });

  it('reaches a customer who owns or is a member of a site in scope, and no other', async () => {
    for (const uid of [euOwner, euMember]) {
      const r = await t.call('customerProfile', { session: eu, query: { uid } });
      expect(r.status, r.raw.body).toBe(200);
    }
    const r = await t.call('customerProfile', { session: eu, query: { uid: usOwner } });
    expect(r.status).toBe(403);
    expect(r.error.ErrorCode).toBe(ERRORS.outOfScope.code);
  });

  it('never narrows what an unscoped role grants the same holder', async () => {
    // Support (built in, unscoped) grants customers.read and sites.read everywhere
    const r = await t.call('appById', { session: both, query: { appId: usSite, uId: usOwner } });
    expect(r.status, r.raw.body).toBe(200);
    expect((await t.call('customerProfile', { session: both, query: { uid: usOwner } })).status).toBe(200);
  });

  it("shows a customer's activity on their sites in scope, and their own, not that of their other sites", async () => {
    await addRole('Activity EU', ['activity.read'], ['eu-central'], null);
    await t.addStaff('activity-eu@example.com', ['Activity EU', 'Support EU']);
    const reader = await t.login('activity-eu@example.com');
    const usOfEva = (await insertSite(t.db, { owner: euOwner, name: 'eva-us-shop' })).appId;
    await t.db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [usOfEva]);
    const row = (action: string, appId: number | null) =>
      t.db.query(
        `INSERT INTO activity_log (at, actor_email, action, target_type, target_id, customer_uid, app_id, details)
         VALUES (now(), 'staff@example.com', $1, 'customer', $2::text, $2::uuid, $3, '{}')`,
        [action, euOwner, appId],
      );
    await row('customer.profile.update', null);
    await row('site.basicsettings', euSite);
    await row('site.secret.rotate', usOfEva);
    const r = await t.call('activityLogs', { session: reader, query: { uid: euOwner } });
    expect(r.status, r.raw.body).toBe(200);
    const actions = r.body.Data.map((e) => e.Action);
    expect(actions).toContain('customer.profile.update');
    expect(actions).toContain('site.basicsettings');
    expect(actions).not.toContain('site.secret.rotate');
  });
});
