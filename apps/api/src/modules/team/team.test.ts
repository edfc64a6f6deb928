import { formatExpiry, IMPERSONATION_MESSAGES } from '@sac/contract/impersonation-api';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { insertRequest } from '../../../test/impersonation-fixtures.ts';
import * as team from './team.service.ts';

let t: TestApp;
let sa: { xtoken: string; xsign: string };
let admin: { xtoken: string; xsign: string };
let support: { xtoken: string; xsign: string };
let saUid: string;
let adminUid: string;
let supportUid: string;

beforeAll(async () => {
  t = await createTestApp();
  saUid = await t.addStaff('sa@example.com', ['SuperAdmin']);
  adminUid = await t.addStaff('admin@example.com', ['Admin']);
  supportUid = await t.addStaff('support@example.com', ['Support']);
  sa = await t.login('sa@example.com');
  admin = await t.login('admin@example.com');
  support = await t.login('support@example.com');
});
afterAll(() => t.close());

type Session = { xtoken: string; xsign: string };
const create = (session: Session, body: Record<string, unknown>) =>
  t.callLoose('teamCreate', { session, body, headers: { origin: CONSOLE_ORIGIN } });
const setRoles = (session: Session, uid: string, role: string[], unAssignRoles: string[] = []) =>
  t.call('teamUpdateRoles', { session, body: { role, uid, unAssignRoles } });
const remove = (session: Session, uid: string) => t.call('teamDelete', { session, body: { role: [], uid } });
const me = (session: Session) => t.call('session', { session });

describe('GET /admin/team', () => {
  it('lists every super user under the server names', async () => {
    const r = await t.call('teamList', { session: admin });
    expect(r.status).toBe(200);
    const row = r.body.Data.find((u: { Uid: string }) => u.Uid === saUid);
    expect(row).toEqual({
      Uid: saUid,
      FullName: 'sa',
      Email: [{ Type: 'Primary', Value: 'sa@example.com' }],
      Roles: ['SuperAdmin'],
      CreatedDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      LastLoginDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      // a SuperAdmin from the start (no recorded promotion): no approval cool-down
      ApproverSince: null,
      CanApproveImpersonationFrom: null,
      Version: 0,
      // the periodic access review: never confirmed, due ACCESS_REVIEW_DAYS (90) after creation
      Review: { State: 'ok', ConfirmedAt: null, ConfirmedBy: null, DueAt: '2026-04-15T10:00:00.000Z' },
    });
  });

  it('is refused to a role without team.read', async () => {
    const r = await t.call('teamList', { session: support });
    expect(r.status).toBe(403);
    expect(r.error.ErrorCode).toBe(902);
  });
});

describe('GET /admin/team/roles', () => {
  it('answers every role with its permissions to anyone signed in', async () => {
    const r = await t.call('teamRoles', { session: support });
    expect(r.status).toBe(200);
    const names = r.body.Data.map((x: { Name: string }) => x.Name);
    expect(names).toEqual(expect.arrayContaining(['SuperAdmin', 'Admin', 'Support']));
    const supportRole = r.body.Data.find((x: { Name: string }) => x.Name === 'Support');
    expect(supportRole!.Permissions).not.toContain('team.write');
  });
});

describe('POST /admin/team', () => {
  it.each([
    [{ role: ['Support'] }, MESSAGES.emailRequired],
    [{ role: ['Support'], email: '  ' }, MESSAGES.emailRequired],
    [{ role: ['Support'], email: 'a@b.c' }, MESSAGES.emailInvalid],
    [{ role: [], email: 'new@example.com' }, 'Roles field is required.'],
    [{ email: 'new@example.com' }, 'Roles field is required.'],
  ])('validates %j: "%s"', async (payload, message) => {
    const r = await create(sa, payload);
    expect(r.status).toBe(400);
    expect(r.error.Description).toBe(message);
  });

  it('refuses an existing email in any case with the spec message', async () => {
    const r = await create(sa, { role: ['Support'], email: 'ADMIN@example.com', name: 'X' });
    expect(r.status).toBe(409);
    expect(r.error).toMatchObject({ ErrorCode: 931, Description: MESSAGES.superUserExists });
  });

  it('never gives SuperAdmin at creation, and an Admin gives neither Admin nor SuperAdmin', async () => {
    expect((await create(sa, { role: ['SuperAdmin'], email: 'x1@example.com' })).error.ErrorCode).toBe(935);
    expect((await create(admin, { role: ['Admin'], email: 'x2@example.com' })).error.ErrorCode).toBe(935);
    expect((await create(sa, { role: ['Nope'], email: 'x3@example.com' })).error.ErrorCode).toBe(937);
    expect((await create(support, { role: ['Support'], email: 'x4@example.com' })).status).toBe(403);
  });

  it('creates the user, mails a single-use invitation, and the link sets their password', async () => {
    const r = await create(admin, { role: ['Support'], email: 'New.Hire@example.com', name: ' Nia Hire ' });
    expect(r.status).toBe(200);
    const row = r.body.Data;
    expect(row).toMatchObject({ FullName: 'Nia Hire', Roles: ['Support'], LastLoginDate: null });
    expect(row.Email[0]!.Value).toBe('New.Hire@example.com');

    const mail = await t.smtp.waitFor((m) => m.to.includes('New.Hire@example.com'));
    expect(mail.subject).toContain('invited');
    expect(mail.text).not.toMatch(/[A-Za-z0-9]{8}1@/); // the generated password is never sent
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    expect(link.origin).toBe(CONSOLE_ORIGIN);
    expect(link.searchParams.get('vtype')).toBe('invite');

    const profile = await t.call('teamProfile', {
      session: sa,
      query: { uid: row.Uid },
    });
    expect(profile.body.Data.Invited).toBe(true);

    const set = (password: string) =>
      t.call('resetPassword', {
        body: { password, resettoken: link.searchParams.get('vtoken')! },
      });
    const accepted = await set('Hired#123');
    expect(accepted.status).toBe(200);
    expect(accepted.body.Message).toBe('Your password has been set. Please sign in.');
    expect((await set('Again#123')).error.ErrorCode).toBe(905);
    const session = await t.login('new.hire@example.com', 'Hired#123');
    expect((await me(session)).body.Role).toEqual(['Support']);
    const after = await t.call('teamProfile', {
      session: sa,
      query: { uid: row.Uid },
    });
    expect(after.body.Data.Invited).toBe(false);
    const audit = await t.db.query("SELECT actor_uid FROM activity_log WHERE action = 'team.create'");
    expect(audit.rows).toEqual([{ actor_uid: adminUid }]);
  });

  it('lets the invitation lapse after 24 hours', async () => {
    await create(sa, { role: ['Support'], email: 'late@example.com' });
    const mail = await t.smtp.waitFor((m) => m.to.includes('late@example.com'));
    const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('vtoken');
    t.clock.advance(24 * 3_600_000);
    const r = await t.call('resetPassword', {
      body: { password: 'Late#1234', resettoken: token! },
    });
    expect(r.error.ErrorCode).toBe(905);
    sa = await t.login('sa@example.com');
    admin = await t.login('admin@example.com');
    support = await t.login('support@example.com');
  });
});

describe('PUT /admin/team/roles', () => {
  it('sets the roles, ends the target sessions at once, and logs it', async () => {
    const uid = await t.addStaff('mover@example.com', ['Support']);
    const theirs = await t.login('mover@example.com');
    const r = await setRoles(sa, uid, ['Admin'], ['Support', 'SuperAdmin']);
    expect(r.status).toBe(200);
    expect(r.body.Data).toMatchObject({ Uid: uid, Roles: ['Admin'] });
    expect((await me(theirs)).status).toBe(401);
    const again = await t.login('mover@example.com');
    expect((await me(again)).body.Role).toEqual(['Admin']);
    const audit = await t.db.query<{ details: { from: string[]; to: string[] } }>(
      "SELECT details FROM activity_log WHERE action = 'team.roles' AND target_id = $1",
      [uid],
    );
    expect(audit.rows[0]?.details).toMatchObject({ from: ['Support'], to: ['Admin'] });
  });

  it('refuses your own roles, staff you may not manage, and roles you may not give', async () => {
    expect((await setRoles(sa, saUid, ['Admin'])).error.ErrorCode).toBe(932);
    expect((await setRoles(admin, adminUid, ['Support'])).error.ErrorCode).toBe(932);
    expect((await setRoles(admin, saUid, ['Support'])).error.ErrorCode).toBe(936);
    const peer = await t.addStaff('peer-admin@example.com', ['Admin']);
    expect((await setRoles(admin, peer, ['Support'])).error.ErrorCode).toBe(936);
    expect((await setRoles(admin, supportUid, ['Admin'])).error.ErrorCode).toBe(935);
    expect((await setRoles(support, adminUid, ['Support'])).status).toBe(403);
    expect((await setRoles(sa, '00000000-0000-4000-8000-000000000000', ['Support'])).error.ErrorCode).toBe(
      927,
    );
    expect((await setRoles(sa, supportUid, ['Support'], ['Support'])).status).toBe(400);
  });

  it('keeps the last SuperAdmin: of two SuperAdmins demoting each other at once, one wins', async () => {
    const a = await t.addStaff('sa-a@example.com', ['SuperAdmin']);
    const b = await t.addStaff('sa-b@example.com', ['SuperAdmin']);
    // Leave exactly these two SuperAdmins.
    expect((await setRoles(await t.login('sa-a@example.com'), saUid, ['Admin'])).status).toBe(200);
    const sessionA = await t.login('sa-a@example.com');
    const sessionB = await t.login('sa-b@example.com');
    const [ra, rb] = await Promise.all([setRoles(sessionA, b, ['Admin']), setRoles(sessionB, a, ['Admin'])]);
    // The loser is refused at authentication (its session ended with its demotion), by the management
    // rule (its roles were already changed when it was authorized), or by the
    // last-SuperAdmin check when it got past both just before the winner committed.
    expect([ra.status, rb.status].filter((s) => s === 200)).toHaveLength(1);
    const loser = ra.status === 200 ? rb : ra;
    expect([401, 403, 409]).toContain(loser.status);
    const left = await t.db.query<{ uid: string }>("SELECT uid FROM staff_roles WHERE role = 'SuperAdmin'");
    expect(left.rows).toHaveLength(1);

    // The same race, with the loser's call already past authentication: under the lock its roles are
    // read again, and a demoted actor may not manage a SuperAdmin any more.
    const winner = left.rows[0]!.uid;
    const loserUid = winner === a ? b : a;
    const stale = {
      sessionId: 0,
      uid: loserUid,
      email: 'loser@example.com',
      name: '',
      roles: ['SuperAdmin'],
      permissions: new Set<string>(),
      verifiedAt: new Date(),
    };
    await expect(
      team.updateRoles(
        t.ctx,
        { session: stale, clientAddress: '127.0.0.1', userAgent: null },
        {
          role: ['Admin'],
          uid: winner,
          unAssignRoles: ['SuperAdmin'],
        },
      ),
    ).rejects.toMatchObject({ code: 936 });
    await expect(
      team.remove(t.ctx, { session: stale, clientAddress: '127.0.0.1', userAgent: null }, { uid: winner }),
    ).rejects.toMatchObject({
      code: 936,
    });

    // restore the suite's SuperAdmin
    const winnerEmail = winner === a ? 'sa-a@example.com' : 'sa-b@example.com';
    expect((await setRoles(await t.login(winnerEmail), saUid, ['SuperAdmin'])).status).toBe(200);
    sa = await t.login('sa@example.com');
  });
});

describe('DELETE /admin/team', () => {
  it('deletes, ends the sessions at once, and the row is gone from the list', async () => {
    const uid = await t.addStaff('leaver@example.com', ['Support']);
    const theirs = await t.login('leaver@example.com');
    const r = await remove(admin, uid);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ IsDeleted: true, Uid: uid });
    expect((await me(theirs)).status).toBe(401);
    const list = await t.call('teamList', { session: sa });
    expect(list.body.Data.map((u: { Uid: string }) => u.Uid)).not.toContain(uid);
    expect((await t.db.query("SELECT 1 FROM activity_log WHERE action = 'team.delete'")).rows).toHaveLength(
      1,
    );
  });

  it('refuses deleting yourself, and staff you may not manage', async () => {
    expect((await remove(sa, saUid)).error.ErrorCode).toBe(933);
    expect((await remove(admin, saUid)).error.ErrorCode).toBe(936);
    expect((await remove(support, adminUid)).status).toBe(403);
    expect((await remove(sa, '00000000-0000-4000-8000-000000000000')).error.ErrorCode).toBe(927);
  });
});

describe('GET /admin/team/profile', () => {
  const open = (session: Session, uid: string) => t.call('teamProfile', { session, query: { uid } });

  it('follows the profile-access rule of spec section 6', async () => {
    expect((await open(support, supportUid)).status).toBe(200); // own
    expect((await open(support, adminUid)).error.ErrorCode).toBe(938);
    expect((await open(admin, supportUid)).status).toBe(200);
    expect((await open(admin, saUid)).error.ErrorCode).toBe(938);
    expect((await open(sa, adminUid)).status).toBe(200);
    const otherSa = await t.addStaff('sa-other@example.com', ['SuperAdmin']);
    expect((await open(sa, otherSa)).error.ErrorCode).toBe(938); // shared role SuperAdmin
    const r = await open(sa, supportUid);
    expect(r.body.Data.Permissions).toContain('customers.read');
  });
});

describe('password of a user created by invitation', () => {
  it('cannot be guessed before the invitation is used: the generated one is never told', async () => {
    await create(sa, { role: ['Support'], email: 'quiet@example.com' });
    await expect(t.login('quiet@example.com', PASSWORD)).rejects.toThrow('401');
  });
});

describe('a new SuperAdmin approves impersonation only after a cool-down', () => {
  const DAY = 24 * 3_600_000;
  let uid: string;
  let appId: number;
  const approve = (session: Session, id: number) =>
    t.call('impersonationAction', {
      session,
      query: { requestId: String(id) },
      body: { Status: 'Approve', ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 30 },
    });
  const row = async (session: Session) =>
    (await t.call('teamList', { session })).body.Data.find((u: { Uid: string }) => u.Uid === uid)!;
  beforeAll(async () => {
    // sa@example.com was made a SuperAdmin again above, so is in its own cool-down, in which the
    // SuperAdmin role is not theirs to give (separation-of-duties.test.ts): a SuperAdmin from the start promotes.
    await t.addStaff('settled@example.com', ['SuperAdmin']);
    sa = await t.login('settled@example.com');
    uid = await t.addStaff('rising@example.com', ['Admin']);
    const owner = await insertCustomer(t.db, { first: 'Cool', last: 'Down', email: 'cool@down.example' });
    appId = (await insertSite(t.db, { owner, name: 'cool-down' })).appId;
  });

  it('records the promotion, shows when they may approve, and refuses approvals until then (948)', async () => {
    const promotedAt = t.clock.now();
    expect((await setRoles(sa, uid, ['SuperAdmin'])).status).toBe(200);
    const from = new Date(promotedAt.getTime() + DAY);
    expect(await row(sa)).toMatchObject({
      ApproverSince: promotedAt.toISOString(),
      CanApproveImpersonationFrom: from.toISOString(),
    });
    const rising = await t.login('rising@example.com');
    expect((await me(rising)).body.CanApproveImpersonationFrom).toBe(from.toISOString());
    const profile = await t.call('teamProfile', {
      session: rising,
      query: { uid },
    });
    expect(profile.body.Data).toMatchObject({ CanApproveImpersonationFrom: from.toISOString() });

    const { id } = await insertRequest(t.db, {
      appId,
      initiator: 'admin@example.com',
      assignees: ['rising@example.com'],
      consent: 'granted',
      at: t.clock.now(),
    });
    const refused = await approve(rising, id);
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({
      ErrorCode: 948,
      Description: IMPERSONATION_MESSAGES.approverCoolingDown(
        formatExpiry(promotedAt.toISOString()),
        formatExpiry(from.toISOString()),
      ),
    });
    // a SuperAdmin from the start (no recorded promotion, as the demo staff) is not held back
    await t.addStaff('founder@example.com', ['SuperAdmin']);
    const founder = await t.login('founder@example.com');
    expect((await me(founder)).body.CanApproveImpersonationFrom).toBeNull();

    t.clock.advance(DAY - 60_000);
    const still = await t.login('rising@example.com');
    expect((await approve(still, id)).error.ErrorCode).toBe(948);
    t.clock.advance(60_000);
    const now = await t.login('rising@example.com');
    expect((await me(now)).body.CanApproveImpersonationFrom).toBeNull();
    expect((await approve(now, id)).status).toBe(200);
    sa = await t.login('settled@example.com');
    expect(await row(sa)).toMatchObject({
      ApproverSince: promotedAt.toISOString(),
      CanApproveImpersonationFrom: null,
    });
  });

  it('starts again on a new promotion after a demotion, and other role changes keep it', async () => {
    expect((await setRoles(sa, uid, ['SuperAdmin', 'Support'])).status).toBe(200);
    expect((await row(sa)).CanApproveImpersonationFrom).toBeNull(); // still a SuperAdmin since before
    expect((await setRoles(sa, uid, ['Admin'])).status).toBe(200);
    expect(await row(sa)).toMatchObject({ ApproverSince: null, CanApproveImpersonationFrom: null });
    const again = t.clock.now();
    expect((await setRoles(sa, uid, ['SuperAdmin'])).status).toBe(200);
    expect((await row(sa)).CanApproveImpersonationFrom).toBe(new Date(again.getTime() + DAY).toISOString());
  });

  it('waits as long as APPROVER_COOL_DOWN_HOURS says (0: not at all)', async () => {
    const other = await createTestApp({ approverCoolDownMs: 0 });
    try {
      await other.addStaff('first@example.com', ['SuperAdmin']);
      const newUid = await other.addStaff('second@example.com', ['Admin']);
      const first = await other.login('first@example.com');
      await other.call('teamUpdateRoles', {
        session: first,
        body: { role: ['SuperAdmin'], uid: newUid, unAssignRoles: [] },
      });
      const second = await other.login('second@example.com');
      expect((await other.call('session', { session: second })).body).toMatchObject({
        CanApproveImpersonationFrom: null,
      });
    } finally {
      await other.close();
    }
  });
});
