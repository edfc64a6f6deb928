import { formatExpiry } from '@sac/contract/impersonation-api';
import { TEAM_MESSAGES } from '@sac/contract/team';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { insertRequest } from './impersonation-fixtures.ts';

/**
 * Separation of duties: a SuperAdmin promoted within the cool-down (APPROVER_COOL_DOWN_HOURS) may
 * not approve impersonation (948), nor act on another SuperAdmin's account or on the SuperAdmin
 * role: reset their second factors, end their sessions, change their roles or delete them, send a
 * SuperAdmin invitee their invitation again, give or take the role. Each refusal is in the staff trail; after the cool-down each works.
 */

type Session = { xtoken: string; xsign: string };
const DAY = 24 * 3_600_000;

let t: TestApp;
let founder: Session;
let demoUid: string;
let adminUid: string;
let supportUid: string;
let risingUid: string;
let invitedUid: string;
let promotedAt: Date;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('founder@example.com', ['SuperAdmin']);
  demoUid = await t.addStaff('demo-sa@example.com', ['SuperAdmin']);
  adminUid = await t.addStaff('plain-admin@example.com', ['Admin']);
  supportUid = await t.addStaff('helper@example.com', ['Support']);
  risingUid = await t.addStaff('rising@example.com', ['Admin']);
  // invited to be a SuperAdmin, not yet signed in (a new link lets them in)
  invitedUid = await t.addStaff('invited-sa@example.com', ['SuperAdmin']);
  await t.db.query('UPDATE staff SET invitation_pending = true WHERE uid = $1', [invitedUid]);
  founder = await t.login('founder@example.com');
  promotedAt = t.clock.now();
  const promoted = await t.call('teamUpdateRoles', {
    session: founder,
    body: { role: ['SuperAdmin'], uid: risingUid, unAssignRoles: ['Admin'] },
  });
  expect(promoted.status).toBe(200);
});
afterAll(() => t.close());

const resetFactors = (s: Session, uid: string) => t.call('staffFactorsReset', { session: s, body: { uid } });
const endSessions = (s: Session, uid: string) => t.call('endStaffSessions', { session: s, body: { uid } });
const setRoles = (s: Session, uid: string, role: string[]) =>
  t.call('teamUpdateRoles', { session: s, body: { role, uid, unAssignRoles: [] } });
const remove = (s: Session, uid: string) => t.call('teamDelete', { session: s, body: { role: [], uid } });
const works = async (s: Session) => (await t.call('session', { session: s })).status === 200;

const ACTS = [
  [
    "reset another SuperAdmin's second factors",
    (s: Session) => resetFactors(s, demoUid),
    'DELETE /admin/team/mfa',
  ],
  [
    "end another SuperAdmin's sessions",
    (s: Session) => endSessions(s, demoUid),
    'DELETE /admin/team/sessions',
  ],
  [
    "change another SuperAdmin's roles",
    (s: Session) => setRoles(s, demoUid, ['SuperAdmin', 'Support']),
    'PUT /admin/team/roles',
  ],
  [
    'give the SuperAdmin role',
    (s: Session) => setRoles(s, adminUid, ['SuperAdmin']),
    'PUT /admin/team/roles',
  ],
  [
    "resend a SuperAdmin invitee's invitation",
    (s: Session) => t.call('teamResendInvitation', { session: s, body: { uid: invitedUid } }),
    'POST /admin/team/invitation/resend',
  ],
  ['delete another SuperAdmin', (s: Session) => remove(s, demoUid), 'DELETE /admin/team'],
] as const;

describe('a SuperAdmin within the cool-down', () => {
  it.each(ACTS)('may not %s (948), and the refusal is in the trail', async (_what, act, endpoint) => {
    const demo = await t.login('demo-sa@example.com');
    const rising = await t.login('rising@example.com');
    const r = await act(rising);
    expect(r.status).toBe(403);
    const from = new Date(promotedAt.getTime() + DAY);
    expect(r.error).toMatchObject({
      ErrorCode: 948,
      Description: TEAM_MESSAGES.superAdminCoolingDown(
        formatExpiry(promotedAt.toISOString()),
        formatExpiry(from.toISOString()),
      ),
    });
    // nothing happened to the demo SuperAdmin or the Admin
    expect(await works(demo)).toBe(true);
    const roles = await t.db.query<{ uid: string; role: string }>(
      'SELECT uid, role FROM staff_roles WHERE uid = ANY($1) ORDER BY uid, role',
      [[demoUid, adminUid]],
    );
    expect(roles.rows.filter((x) => x.uid === demoUid).map((x) => x.role)).toEqual(['SuperAdmin']);
    expect(roles.rows.filter((x) => x.uid === adminUid).map((x) => x.role)).toEqual(['Admin']);

    const trail = await t.call('auditEvents', {
      session: founder,
      query: { action: 'access.refused', actor: 'rising@example.com' },
    });
    expect(trail.status).toBe(200);
    expect(trail.body.Data).toContainEqual(
      expect.objectContaining({
        ActorUid: risingUid,
        ActorEmail: 'rising@example.com',
        Action: 'access.refused',
        TargetType: 'endpoint',
        TargetId: endpoint,
        Details: expect.objectContaining({ missing: 'SuperAdmin cool-down', errorCode: 948, count: 1 }),
      }),
    );
  });

  it('may not approve an impersonation (948), and that refusal is in the trail too', async () => {
    const owner = await insertCustomer(t.db, { first: 'Ada', last: 'Owner', email: 'ada@customer.example' });
    const { appId } = await insertSite(t.db, { owner, name: 'duties-site' });
    const { id } = await insertRequest(t.db, {
      appId,
      initiator: 'plain-admin@example.com',
      assignees: ['rising@example.com'],
      consent: 'granted',
    });
    const rising = await t.login('rising@example.com');
    const r = await t.call('impersonationAction', {
      session: rising,
      query: { requestId: String(id) },
      body: { Status: 'Approve', ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 30 },
    });
    expect(r.status, r.raw.body).toBe(403);
    expect(r.error.ErrorCode).toBe(948);
    const trail = await t.call('auditEvents', {
      session: founder,
      query: { action: 'access.refused', actor: 'rising@example.com' },
    });
    expect(trail.body.Data).toContainEqual(
      expect.objectContaining({
        Action: 'access.refused',
        TargetId: 'POST /admin/impersonation/request/action',
        Details: expect.objectContaining({ missing: 'SuperAdmin cool-down', errorCode: 948 }),
      }),
    );
  });

  it('still manages a colleague who is no SuperAdmin (their sessions, factors, roles)', async () => {
    const rising = await t.login('rising@example.com');
    const helper = await t.login('helper@example.com');
    expect((await endSessions(rising, supportUid)).status).toBe(200);
    expect(await works(helper)).toBe(false);
    expect((await resetFactors(rising, supportUid)).status).toBe(200);
    expect((await setRoles(rising, supportUid, ['Support', 'Auditor'])).status).toBe(200);
  });
});

describe('after the cool-down', () => {
  it.each(ACTS)('a SuperAdmin may %s', async (_what, act) => {
    if (t.clock.now().getTime() < promotedAt.getTime() + DAY) t.clock.advance(DAY);
    const rising = await t.login('rising@example.com');
    // the target of each act is still there (deleting is the last act)
    const r = await act(rising);
    expect(r.status, r.raw.body).toBe(200);
  });
});
