import { formatExpiry } from '@sac/contract/impersonation-api';
import { TEAM_MESSAGES } from '@sac/contract/team';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { acceptInvitation, invitationToken, inviteeOf } from '../../../test/invitation-fixtures.ts';

type S = { xtoken: string; xsign: string };
const DAY = 24 * 3_600_000;
let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('boss@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
  await t.addStaff('support@example.com', ['Support']);
});
afterAll(() => t.close());

const as = (who: string) => t.login(`${who}@example.com`);
/** A member invited by the boss with `roles`, their invitation pending. */
const invitee = async (roles = ['Support']) => inviteeOf(t, await as('boss'), `inv${++n}@example.com`, roles);
const tokenOf = (email: string, count: number) => invitationToken(t, email, count);
const accept = (token: string) => acceptInvitation(t, token);
const resend = (session: S, uid: string) => t.call('teamResendInvitation', { session, body: { uid } });

describe('POST /admin/team/invitation/resend: the single resend of a pending invitation', () => {
  it('mails a new link (the one before no longer works) and records it', async () => {
    const inv = await invitee();
    const r = await resend(await as('admin'), inv.uid);
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body).toEqual({
      Uid: inv.uid,
      Email: inv.email,
      Message: TEAM_MESSAGES.invitationResent(inv.email),
    });
    const fresh = await tokenOf(inv.email, 2);
    expect(fresh).not.toBe(inv.token);
    expect((await accept(inv.token)).error.ErrorCode).toBe(905);
    expect((await accept(fresh)).status).toBe(200);
    const trail = await t.db.query<{ action: string; actor_email: string; details: object }>(
      "SELECT action, actor_email, details FROM activity_log WHERE action = 'team.invite.resend' AND target_id = $1",
      [inv.uid],
    );
    expect(trail.rows).toEqual([
      {
        action: 'team.invite.resend',
        actor_email: 'admin@example.com',
        details: { email: inv.email, roles: ['Support'] },
      },
    ]);
  });

  it('refuses (1196) a member with no pending invitation: accepted, or deactivated', async () => {
    const boss = await as('boss');
    const accepted = await invitee();
    expect((await accept(accepted.token)).status).toBe(200);
    const off = await invitee();
    await t.db.query('UPDATE staff SET deactivated_at = $2 WHERE uid = $1', [off.uid, t.clock.now()]);
    for (const uid of [accepted.uid, off.uid]) {
      const r = await resend(boss, uid);
      expect([r.status, r.error.ErrorCode, r.error.Description]).toEqual([
        409,
        1196,
        'This member has no pending invitation: they accepted it, or were deactivated.',
      ]);
    }
    // nothing was mailed again
    expect(t.smtp.messages.filter((m) => m.to.includes(off.email))).toHaveLength(1);
  });

  it("refuses one's own account with a refusal of its own (1197), not the deletion's (933)", async () => {
    const admin = await as('admin');
    const own = (await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'admin@example.com'"))
      .rows[0]!.uid;
    const r = await resend(admin, own);
    expect([r.status, r.error.ErrorCode, r.error.Description]).toEqual([
      403,
      1197,
      'You cannot resend an invitation to your own account.',
    ]);
  });

  it("keeps to the team's rights: an Admin may not resend to an invited Admin (936); no such member is 404", async () => {
    const admin = await as('admin');
    const invitedAdmin = await invitee(['Admin']);
    const r = await resend(admin, invitedAdmin.uid);
    expect([r.status, r.error.ErrorCode]).toEqual([403, 936]);
    const none = await resend(admin, '00000000-0000-4000-8000-000000000000');
    expect(none.status).toBe(404);
    expect((await resend(await as('support'), invitedAdmin.uid)).status).toBe(403);
  });

  it("holds an invitee who would become a SuperAdmin for the actor's SuperAdmin cool-down (948)", async () => {
    const promotedAt = t.clock.now();
    const rising = await t.addStaff('rising@example.com', ['Admin']);
    const promoted = await t.call('teamUpdateRoles', {
      session: await as('boss'),
      body: { role: ['SuperAdmin'], uid: rising, unAssignRoles: ['Admin'] },
    });
    expect(promoted.status, promoted.raw.body).toBe(200);
    const superAdminInvitee = await invitee(['SuperAdmin']);
    const supportInvitee = await invitee();
    const newcomer = await as('rising');
    const held = await resend(newcomer, superAdminInvitee.uid);
    expect(held.status).toBe(403);
    expect(held.error).toMatchObject({
      ErrorCode: 948,
      Description: TEAM_MESSAGES.superAdminCoolingDown(
        formatExpiry(promotedAt.toISOString()),
        formatExpiry(new Date(promotedAt.getTime() + DAY).toISOString()),
      ),
    });
    expect(t.smtp.messages.filter((m) => m.to.includes(superAdminInvitee.email))).toHaveLength(1);
    // another invitee is not held back, and a settled SuperAdmin may resend to the SuperAdmin invitee
    expect((await resend(newcomer, supportInvitee.uid)).status).toBe(200);
    expect((await resend(await as('boss'), superAdminInvitee.uid)).status).toBe(200);
    // once the cool-down is over, the newcomer may too
    t.clock.advance(DAY);
    expect((await resend(await as('rising'), superAdminInvitee.uid)).status).toBe(200);
  });
});
