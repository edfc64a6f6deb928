import { ERRORS } from '@sac/contract/errors';
import { STEP_UP_MESSAGES } from '@sac/contract/step-up';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { insertRequest } from '../../../test/impersonation-fixtures.ts';
import { type SoftPasskey, softPasskey } from '../../../test/soft-authenticator.ts';
import { base32Decode, totpCodeAt, totpStepOf } from '../../lib/totp.ts';

type Pair = { xtoken: string; xsign: string };
const MINUTE = 60_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const trail = async (action: string, email: string) =>
  (
    await t.db.query<{ details: Record<string, unknown> }>(
      'SELECT details FROM activity_log WHERE action = $1 AND actor_email = $2 ORDER BY id',
      [action, email],
    )
  ).rows.map((r) => r.details);

const codeAt = (secret: string, steps = 0) =>
  totpCodeAt(base32Decode(secret), totpStepOf(t.clock.now()) + steps);

/** A staff member with an authenticator app, signed in with it now. */
async function withTotp(email: string, roles: string[]) {
  await t.addStaff(email, roles);
  const first = await t.login(email);
  const start = await t.call('totpEnrolStart', { session: first, body: { password: PASSWORD } });
  const secret = start.body.Secret;
  expect((await t.call('totpEnrolConfirm', { session: first, body: { Code: codeAt(secret) } })).status).toBe(
    200,
  );
  t.clock.advance(30_000);
  const ticket = await t.callLoose('login', { body: { email, password: PASSWORD } });
  const second = await t.callLoose('loginSecondStep', {
    body: {
      Ticket: (ticket.body as { SecondStep: { Ticket: string } }).SecondStep.Ticket,
      Method: 'totp',
      Code: codeAt(secret),
    },
  });
  expect(second.status, second.raw.body).toBe(200);
  t.clock.advance(30_000);
  return { secret, session: second.body as unknown as Pair };
}

/** A role change of a fresh Support user, as `session` makes it. */
const changeRoles = async (session: Pair) => {
  const uid = await t.addStaff(`target-${Math.random().toString(36).slice(2)}@example.com`, ['Support']);
  return {
    uid,
    answer: await t.callLoose('teamUpdateRoles', {
      session,
      body: { role: ['Admin'], uid, unAssignRoles: ['Support'] },
    }),
  };
};

const rolesOf = async (uid: string) =>
  (
    await t.db.query<{ role: string }>('SELECT role FROM staff_roles WHERE uid = $1 ORDER BY role', [uid])
  ).rows.map((r) => r.role);

describe('a sensitive action needs a recent sign-in or step-up', () => {
  it('goes ahead within STEP_UP_MINUTES of the sign-in, and after it answers 911 and changes nothing', async () => {
    await t.addStaff('boss1@example.com', ['SuperAdmin']);
    const session = await t.login('boss1@example.com');
    expect((await changeRoles(session)).answer.status).toBe(200);

    t.clock.advance(11 * MINUTE);
    const { uid, answer } = await changeRoles(session);
    expect(answer.status).toBe(403);
    expect(answer.error.ErrorCode).toBe(ERRORS.stepUpRequired.code);
    expect(await rolesOf(uid)).toEqual(['Support']);
    // a prompt, not a refusal: the trail's refusals do not count it
    expect(await trail('access.refused', 'boss1@example.com')).toEqual([]);
  });

  it('a step-up with the password (no second factor) lets the same call through, and is recorded', async () => {
    await t.addStaff('boss2@example.com', ['SuperAdmin']);
    const session = await t.login('boss2@example.com');
    t.clock.advance(11 * MINUTE);
    const status = await t.call('stepUpStatus', { session });
    expect(status.body.Methods).toEqual(['password']);
    expect(status.body.WindowMinutes).toBe(10);
    expect(new Date(status.body.VerifiedUntil).getTime()).toBeLessThan(t.clock.now().getTime());

    const wrong = await t.callLoose('stepUp', {
      session,
      body: { Method: 'password', Password: 'Wrong1!pass' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.error.Description).toBe(STEP_UP_MESSAGES.wrongPassword);
    expect(await trail('stepup.failed', 'boss2@example.com')).toEqual([
      { method: 'password', reason: 'wrong-password' },
    ]);

    const done = await t.call('stepUp', { session, body: { Method: 'password', Password: PASSWORD } });
    expect(done.status).toBe(200);
    expect(done.body.VerifiedUntil).toBe(new Date(t.clock.now().getTime() + 10 * MINUTE).toISOString());
    expect(await trail('stepup.success', 'boss2@example.com')).toEqual([{ method: 'password' }]);
    const { uid, answer } = await changeRoles(session);
    expect(answer.status, answer.raw.body).toBe(200);
    expect(await rolesOf(uid)).toEqual(['Admin']);
  });

  it('an account with a second factor steps up with it, never with the password', async () => {
    const { secret, session } = await withTotp('boss3@example.com', ['SuperAdmin']);
    t.clock.advance(11 * MINUTE);
    expect((await t.call('stepUpStatus', { session })).body.Methods).toEqual(['totp', 'recovery']);
    const byPassword = await t.callLoose('stepUp', {
      session,
      body: { Method: 'password', Password: PASSWORD },
    });
    expect(byPassword.status).toBe(400);
    expect(byPassword.error.Description).toBe(STEP_UP_MESSAGES.useFactor);
    const done = await t.call('stepUp', { session, body: { Method: 'totp', Code: codeAt(secret) } });
    expect(done.status, done.raw.body).toBe(200);
    expect((await changeRoles(session)).answer.status).toBe(200);
  });

  it('an account with no password and no factor (single sign-on only) is told to sign in again, and nothing is counted', async () => {
    const uid = await t.addStaff('sso-only@example.com', ['SuperAdmin']);
    const session = await t.login('sso-only@example.com');
    await t.db.query("UPDATE staff SET password_hash = '!sso' WHERE uid = $1", [uid]);
    t.clock.advance(11 * MINUTE);
    expect((await t.call('stepUpStatus', { session })).body.Methods).toEqual(['sign-in']);
    for (const Password of ['!sso', 'Anything#1']) {
      const r = await t.callLoose('stepUp', { session, body: { Method: 'password', Password } });
      expect(r.status).toBe(400);
      expect(r.error.Description).toBe(STEP_UP_MESSAGES.signInAgain);
    }
    const counts = await t.db.query<{ failed_logins: number }>(
      'SELECT failed_logins FROM staff WHERE uid = $1',
      [uid],
    );
    expect(counts.rows[0]!.failed_logins).toBe(0);
    expect(await trail('stepup.failed', 'sso-only@example.com')).toEqual([]);
  });

  it('wrong codes count towards the lockout as wrong sign-ins do', async () => {
    const { secret, session } = await withTotp('boss4@example.com', ['SuperAdmin']);
    const wrongCode = codeAt(secret) === '000000' ? '111111' : '000000';
    const answers: number[] = [];
    for (let i = 0; i < 6; i++)
      answers.push(
        (await t.callLoose('stepUp', { session, body: { Method: 'totp', Code: wrongCode } })).status,
      );
    expect(answers.slice(0, 5)).toEqual(Array(5).fill(ERRORS.wrongSecondFactor.status));
    expect(answers[5]).toBe(ERRORS.accountLocked.status);
    expect((await trail('login.lockout', 'boss4@example.com')).length).toBe(1);
    // locked: even the right code waits for the lock to end
    const right = await t.callLoose('stepUp', { session, body: { Method: 'totp', Code: codeAt(secret) } });
    expect(right.error.ErrorCode).toBe(ERRORS.accountLocked.code);
  });

  it('a passkey steps up through its own challenge', async () => {
    await t.addStaff('boss5@example.com', ['SuperAdmin']);
    const session = await t.login('boss5@example.com');
    const key: SoftPasskey = softPasskey();
    const options = await t.callLoose('passkeyOptions', {
      session,
      headers: { origin: CONSOLE_ORIGIN },
      body: { password: PASSWORD },
    });
    const added = await t.callLoose('passkeyAdd', {
      session,
      headers: { origin: CONSOLE_ORIGIN },
      body: {
        Name: 'Key',
        Response: key.register(
          (options.body as { Options: Parameters<SoftPasskey['register']>[0] }).Options,
          CONSOLE_ORIGIN,
        ),
      },
    });
    expect(added.status, added.raw.body).toBe(200);
    t.clock.advance(11 * MINUTE);
    const ask = await t.callLoose('stepUpPasskeyOptions', { session, headers: { origin: CONSOLE_ORIGIN } });
    expect(ask.status, ask.raw.body).toBe(200);
    const done = await t.callLoose('stepUp', {
      session,
      headers: { origin: CONSOLE_ORIGIN },
      body: {
        Method: 'passkey',
        Response: key.assert(
          (ask.body as { Options: Parameters<SoftPasskey['assert']>[0] }).Options,
          CONSOLE_ORIGIN,
        ),
      },
    });
    expect(done.status, done.raw.body).toBe(200);
    expect((await changeRoles(session)).answer.status).toBe(200);
  });

  it('approving an impersonation request needs it; rejecting one does not', async () => {
    await t.addStaff('boss6@example.com', ['SuperAdmin']);
    await t.addStaff('asker6@example.com', ['Admin']);
    const session = await t.login('boss6@example.com');
    const owner = await insertCustomer(t.db, {
      first: 'Step',
      last: 'Up',
      email: 'stepup-owner@example.com',
    });
    const site = await insertSite(t.db, { owner, name: 'stepup-site' });
    const consented = async (roles: string[]) =>
      (
        await insertRequest(t.db, {
          appId: site.appId,
          initiator: 'asker6@example.com',
          assignees: ['boss6@example.com'],
          roles,
          consent: 'granted',
          at: t.clock.now(),
        })
      ).id;
    t.clock.advance(11 * MINUTE);
    const id = await consented(['Developer']);
    const approve = await t.callLoose('impersonationAction', {
      session,
      query: { requestId: String(id) },
      body: { Status: 'Approve', ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 30 },
    });
    expect(approve.error.ErrorCode, approve.raw.body).toBe(ERRORS.stepUpRequired.code);
    const row = await t.db.query<{ status: string }>(
      'SELECT status FROM impersonation_requests WHERE id = $1',
      [id],
    );
    expect(row.rows[0]!.status).toBe('Pending');
    const reject = await t.callLoose('impersonationAction', {
      session,
      query: { requestId: String(id) },
      body: { Status: 'Reject', Comments: 'not now' },
    });
    expect(reject.status, reject.raw.body).toBe(200);
  });

  it('the trail export needs it too', async () => {
    await t.addStaff('auditor7@example.com', ['Auditor']);
    const session = await t.login('auditor7@example.com');
    expect((await t.stream('auditExport', { session, query: { format: 'csv' } })).statusCode).toBe(200);
    t.clock.advance(11 * MINUTE);
    const late = await t.callLoose('auditExport', { session, query: { format: 'csv' } });
    expect(late.error.ErrorCode).toBe(ERRORS.stepUpRequired.code);
  });
});

describe('STEP_UP_MINUTES', () => {
  it('sets the window', async () => {
    const wide = await createTestApp({ stepUpWindowMs: 30 * MINUTE });
    try {
      await wide.addStaff('boss8@example.com', ['SuperAdmin']);
      const session = await wide.login('boss8@example.com');
      const uid = await wide.addStaff('target8@example.com', ['Support']);
      wide.clock.advance(12 * MINUTE);
      expect((await wide.call('stepUpStatus', { session })).body.WindowMinutes).toBe(30);
      const answer = await wide.callLoose('teamUpdateRoles', {
        session,
        body: { role: ['Admin'], uid, unAssignRoles: ['Support'] },
      });
      expect(answer.status, answer.raw.body).toBe(200);
    } finally {
      await wide.close();
    }
  });
});
