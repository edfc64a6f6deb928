/**
 * The authorization matrix: every endpoint of the contract's table, called as each principal
 * (anonymous, an expired session, and each role) on the caller's own object and on another's.
 * The expected status of every cell is in MATRIX (endpoint-matrix.ts); an endpoint without a row
 * fails the test. Every endpoint is also called with API tokens of an Admin (their expected status
 * follows from the row: see TOKEN_PRINCIPALS).
 */
import { randomUUID } from 'node:crypto';
import { NOT_FOR_TOKENS } from '@sac/contract/api-tokens';
import { ENDPOINT_LIST, type EndpointId } from '@sac/contract/endpoints';
import { BUILT_IN_ROLES, ROLE_ADMIN } from '@sac/contract/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import {
  type Actor,
  type Fixture,
  impersonate,
  MATRIX,
  MATRIX_APPROVER,
  matrixBearer,
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

/**
 * API tokens of an Admin: one with all of the owner's permissions (answers as the Admin's session
 * does), one with none, and one with all but the permission the endpoint needs (both answer 403
 * where a permission is needed). A token never makes the calls of NOT_FOR_TOKENS (403), and a
 * public endpoint ignores it (answers as to anyone).
 */
const TOKEN_PRINCIPALS = ['token:all', 'token:none', 'token:narrower'] as const;
type TokenPrincipal = (typeof TOKEN_PRINCIPALS)[number];
const ADMIN_PERMISSIONS = [...BUILT_IN_ROLES[ROLE_ADMIN]!.permissions];

function tokenExpectation(id: EndpointId, principal: TokenPrincipal, target: Target): number {
  const e = ENDPOINT_LIST.find((x) => x.id === id)!;
  const row = MATRIX[id];
  const pick = (want: number | { own: number; other: number }) =>
    typeof want === 'number' ? want : want[target];
  if (e.access === 'public') return pick(row.expect.anonymous);
  // neither the calls no token makes, nor the sensitive ones (a person's recent step-up)
  if (NOT_FOR_TOKENS.includes(id) || e.stepUp) return 403;
  if (principal === 'token:all' || e.access === 'session') {
    // A token with no permissions reaches the 'session' endpoints as the Auditor's session does
    // (the role with the fewest permissions): the services decide by permission, not by role.
    return pick(principal === 'token:none' ? row.expect.Auditor : row.expect.Admin);
  }
  return 403;
}

describe('authorization matrix: API tokens', () => {
  const cells: Array<[string, EndpointId, TokenPrincipal, Target]> = [];
  for (const e of ENDPOINT_LIST) {
    const row = MATRIX[e.id as EndpointId];
    if (!row) continue;
    for (const p of TOKEN_PRINCIPALS) {
      // Narrower than the endpoint needs: only where it needs a permission.
      if (p === 'token:narrower' && (e.access === 'public' || e.access === 'session')) continue;
      for (const target of row.targeted ? (['own', 'other'] as const) : (['own'] as const)) {
        cells.push([`${e.method} ${e.path}`, e.id as EndpointId, p, target]);
      }
    }
  }

  it.each(cells)('%s with %s on %s object', async (_name, id, principal, target) => {
    const e = ENDPOINT_LIST.find((x) => x.id === id)!;
    const row = MATRIX[id];
    const actor = await newStaff([ROLE_ADMIN]);
    const other = await newStaff(['Support']);
    const permissions =
      principal === 'token:all'
        ? ADMIN_PERMISSIONS
        : principal === 'token:none'
          ? []
          : ADMIN_PERMISSIONS.filter((p) => p !== e.access);
    const { id: tokenId, bearer } = await matrixBearer(t, actor.uid, permissions);
    const arranged = await row.request({ t, customer, actor, target: target === 'own' ? actor : other });
    const r = await send(t, e, undefined, {
      ...arranged,
      headers: { ...arranged.headers, authorization: `Bearer ${bearer}` },
    });
    expect(r.statusCode, r.body).toBe(tokenExpectation(id, principal, target));
    if (r.statusCode < 300 && writes(e) && e.access !== 'public') {
      const trail = await t.db.query<{ api_token_id: string | null; actor_uid: string | null }>(
        'SELECT api_token_id, actor_uid FROM activity_log WHERE request_id = $1',
        [r.headers['x-request-id']],
      );
      expect(trail.rows.length, `no trail row for ${e.id}`).toBeGreaterThan(0);
      expect(Number(trail.rows[0]!.api_token_id), `${e.id}'s trail row names the token`).toBe(tokenId);
    }
  });
});
