/**
 * The authorization matrix: every endpoint of the contract's table, called as each principal
 * (anonymous, an expired session, and each role) on the caller's own object and on another's.
 * The expected status of every cell is in MATRIX (endpoint-matrix.ts); an endpoint without a row
 * fails the test.
 */
import { randomUUID } from 'node:crypto';
import { ENDPOINT_LIST, type EndpointId } from '@sac/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import {
  type Actor,
  type Fixture,
  impersonate,
  MATRIX,
  MATRIX_APPROVER,
  PRINCIPALS,
  type Principal,
  send,
  sleep,
  type Target,
  writes,
} from './endpoint-matrix.ts';
import { createTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let customer: Fixture['customer'];
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff(MATRIX_APPROVER, ['SuperAdmin']);
  const uid = await insertCustomer(t.db, {
    first: 'Matrix',
    last: 'Customer',
    email: 'matrix@customer.example',
  });
  customer = { uid, appId: (await insertSite(t.db, { owner: uid, name: 'matrix-site' })).appId };
});
// Closing flushes the outbox: hundreds of customer-request mails to the many SuperAdmins made here.
afterAll(() => t.close(), 180_000);

const newStaff = async (roles: string[]): Promise<Actor> => {
  const email = `m-${randomUUID()}@example.com`;
  return { uid: await t.addStaff(email, roles), email };
};

describe('authorization matrix', () => {
  it('has a row for every endpoint of the contract', () => {
    const missing = ENDPOINT_LIST.filter((e) => !(e.id in MATRIX)).map((e) => e.id);
    expect(missing).toEqual([]);
    const stale = Object.keys(MATRIX).filter((id) => !ENDPOINT_LIST.some((e) => e.id === id));
    expect(stale).toEqual([]);
  });

  const cells: Array<[string, EndpointId, Principal, Target]> = [];
  for (const e of ENDPOINT_LIST) {
    const row = MATRIX[e.id as EndpointId];
    if (!row) continue;
    for (const p of PRINCIPALS) {
      for (const target of row.targeted ? (['own', 'other'] as const) : (['own'] as const)) {
        cells.push([`${e.method} ${e.path}`, e.id as EndpointId, p, target]);
      }
    }
  }

  it.each(cells)('%s as %s on %s object', async (_name, id, principal, target) => {
    const e = ENDPOINT_LIST.find((x) => x.id === id)!;
    const row = MATRIX[id];
    const roles =
      principal === 'anonymous' || principal === 'expired'
        ? ['Support']
        : principal === 'Impersonating'
          ? ['Admin']
          : [principal];
    const actor = await newStaff(roles);
    const other = await newStaff(['Support']);
    let session: { xtoken: string; xsign: string } | undefined;
    if (principal !== 'anonymous') session = await t.login(actor.email);
    if (principal === 'Impersonating') session = await impersonate(t, customer, actor, session!);
    if (principal === 'expired') t.clock.advance(16 * 60_000);
    const arranged = await row.request({
      t,
      customer,
      actor,
      target: target === 'own' ? actor : other,
    });
    const answer = send(t, e, session, arranged);
    if (row.stream && session) {
      // An open stream answers when its session ends: sign out once it has had time to open.
      const settled = await Promise.race([answer.then(() => true), sleep(300).then(() => false)]);
      if (!settled) await t.call('logout', { session });
    }
    const r = await answer;
    const want = row.expect[principal];
    const expected = typeof want === 'number' ? want : want[target];
    expect(r.statusCode, r.body).toBe(expected);
    if (r.statusCode < 300 && writes(e)) {
      const trail = await t.db.query('SELECT action FROM activity_log WHERE request_id = $1', [
        r.headers['x-request-id'],
      ]);
      expect(trail.rows.length, `no trail row for ${e.id}`).toBeGreaterThan(0);
    }
  });
});
