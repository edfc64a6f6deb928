import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushRefusals, REFUSAL_FOLD_MS } from '../src/modules/activity/activity.service.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * Refused staff calls are in the staff trail (access.refused): a 403 for a missing permission,
 * and a 401 on a pair that names a real session that has ended. Repeats of one actor, endpoint
 * and missing permission fold into one row with a count, so a flood cannot fill the trail.
 */

type Session = { xtoken: string; xsign: string };
interface Event {
  ActorUid: string | null;
  ActorEmail: string | null;
  Action: string;
  TargetType: string | null;
  TargetId: string | null;
  Details: { missing?: string; count?: number; status?: number; errorCode?: number };
}

let t: TestApp;
let auditor: Session;
let adminUid: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  adminUid = await t.addStaff('admin@example.com', ['Admin']);
  await t.addStaff('flood@example.com', ['Support']);
  await t.addStaff('again@example.com', ['Support']);
  await t.addStaff('gone@example.com', ['Support']);
  auditor = await t.login('boss@example.com');
});
afterAll(() => t.close());

/** The refusals of one actor as the audit events list shows them. */
async function refusalsOf(email: string): Promise<Event[]> {
  const r = await t.call('auditEvents', {
    session: auditor,
    query: { action: 'access.refused', actor: email },
  });
  expect(r.status, r.raw.body).toBe(200);
  return r.body.Data;
}
const countOf = (rows: Event[]) => rows.reduce((n, e) => n + (e.Details.count ?? 0), 0);

describe('a refused staff call', () => {
  it("is a trail row naming the actor, the endpoint and the permission missing (an Admin's approval)", async () => {
    const admin = await t.login('admin@example.com');
    const r = await t.call('impersonationAction', {
      session: admin,
      query: { requestId: '1' },
      body: { Status: 'Approve', ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 30 },
    });
    expect(r.status).toBe(403);
    expect(r.error.ErrorCode).toBe(902);
    expect(await refusalsOf('admin@example.com')).toEqual([
      expect.objectContaining({
        ActorUid: adminUid,
        ActorEmail: 'admin@example.com',
        Action: 'access.refused',
        TargetType: 'endpoint',
        TargetId: 'POST /admin/impersonation/request/action',
        Details: expect.objectContaining({
          missing: 'impersonation.approve',
          status: 403,
          errorCode: 902,
          count: 1,
        }),
      }),
    ]);
  });

  it('refused by a service for want of the SuperAdmin role is a trail row naming the role', async () => {
    const admin = await t.login('admin@example.com');
    const r = await t.call('staffFactorsReset', { session: admin, body: { uid: adminUid } });
    expect(r.status).toBe(403);
    expect(await refusalsOf('admin@example.com')).toContainEqual(
      expect.objectContaining({
        TargetId: 'DELETE /admin/team/mfa',
        Details: expect.objectContaining({ missing: 'SuperAdmin', status: 403, count: 1 }),
      }),
    );
  });

  it('on a pair whose session has ended is a trail row (401); a call without a pair or with a made-up one is not', async () => {
    const gone = await t.login('gone@example.com');
    expect((await t.call('logout', { session: gone })).status).toBe(200);
    const r = await t.call('teamRoles', { session: gone });
    expect(r.status).toBe(401);
    expect(await refusalsOf('gone@example.com')).toEqual([
      expect.objectContaining({
        Action: 'access.refused',
        TargetId: 'GET /admin/team/roles',
        Details: expect.objectContaining({ missing: 'a live session', status: 401, count: 1 }),
      }),
    ]);
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM activity_log')).rows[0]!
      .n;
    expect((await t.call('teamRoles')).status).toBe(401);
    const madeUp = { xtoken: gone.xtoken, xsign: 'not-the-sign' };
    expect((await t.call('teamRoles', { session: madeUp })).status).toBe(401);
    const after = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM activity_log')).rows[0]!.n;
    expect(after).toBe(before);
  });

  it('flooded 200 times by one actor leaves a few rows whose counts sum to 200, once the fold is flushed', async () => {
    const flood = await t.login('flood@example.com');
    for (let i = 0; i < 200; i++) {
      const r = await t.call('teamList', { session: flood });
      expect(r.status).toBe(403);
    }
    expect(await refusalsOf('flood@example.com')).toHaveLength(1);
    t.clock.advance(REFUSAL_FOLD_MS);
    expect(await flushRefusals(t.db, t.clock.now())).toBeGreaterThanOrEqual(1);
    const rows = await refusalsOf('flood@example.com');
    expect(rows).toHaveLength(2);
    expect(rows.every((e) => e.TargetId === 'GET /admin/team' && e.Details.missing === 'team.read')).toBe(
      true,
    );
    expect(countOf(rows)).toBe(200);
    // flushed once: a second flush writes nothing more
    expect(await flushRefusals(t.db, t.clock.now())).toBe(0);
    expect(countOf(await refusalsOf('flood@example.com'))).toBe(200);
  });

  it("folds the repeats into one row when the actor's next refusal comes after the window", async () => {
    const again = await t.login('again@example.com');
    const refused = async () => expect((await t.call('teamList', { session: again })).status).toBe(403);
    for (let i = 0; i < 5; i++) await refused();
    t.clock.advance(REFUSAL_FOLD_MS + 1);
    const fresh = await t.login('again@example.com');
    expect((await t.call('teamList', { session: fresh })).status).toBe(403);
    const rows = await refusalsOf('again@example.com');
    expect(rows.map((e) => e.Details.count).sort()).toEqual([1, 1, 4]);
    expect(countOf(rows)).toBe(6);
  });

  it('stays a 403 when the trail cannot be written', async () => {
    const flood = await t.login('flood@example.com');
    await t.db.exec('ALTER TABLE staff_refusals RENAME TO staff_refusals_away');
    try {
      const r = await t.call('teamList', { session: flood });
      expect(r.status).toBe(403);
      expect(r.error.ErrorCode).toBe(902);
    } finally {
      await t.db.exec('ALTER TABLE staff_refusals_away RENAME TO staff_refusals');
    }
  });
});
