import type { EndpointId, ResponseOf } from '@sac/contract/endpoints';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { type SoftPasskey, softPasskey } from '../../../test/soft-authenticator.ts';
import { loadConfig } from '../../config.ts';
import { base32Decode, totpCodeAt, totpStepOf } from '../../lib/totp.ts';

type Pair = { xtoken: string; xsign: string };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// Loose bodies: the soft authenticator's passkey answers are untyped records.
const post = <I extends EndpointId>(id: I, body: Record<string, unknown>, session?: Pair) =>
  t.callLoose(id, { body, headers: { origin: CONSOLE_ORIGIN }, ...(session ? { session } : {}) });

const passwordLogin = (email: string, password = PASSWORD) => t.call('login', { body: { email, password } });

/** A sign-in answer read as either of its shapes: the session pair, or the second step it asks for. */
type SignIn = Partial<Extract<ResponseOf<'login'>, { xtoken: string }>> &
  Partial<Extract<ResponseOf<'login'>, { SecondStep: unknown }>>;
const read = (r: { body: ResponseOf<'login'> }): SignIn => r.body;
/** The session pair of a sign-in that needed no second step. */
function pairOf(r: { body: ResponseOf<'login'> }): Pair {
  const b = r.body;
  if (!('xtoken' in b)) throw new Error('the sign-in asked for a second step');
  return b;
}
type RegisterOptions = Parameters<SoftPasskey['register']>[0];

/** The code an authenticator app shows `steps` steps from the test clock's now. */
const codeAt = (secret: string, steps = 0) =>
  totpCodeAt(base32Decode(secret), totpStepOf(t.clock.now()) + steps);

async function activity(action: string, email: string) {
  const r = await t.db.query<{ details: Record<string, unknown> }>(
    'SELECT details FROM activity_log WHERE action = $1 AND actor_email = $2 ORDER BY id',
    [action, email],
  );
  return r.rows.map((row) => row.details);
}

const failedLogins = async (email: string) =>
  (await t.db.query<{ n: number }>('SELECT failed_logins AS n FROM staff WHERE email = $1', [email])).rows[0]!
    .n;

/** A staff member with an authenticator app set up through the account menu. */
async function withTotp(email: string, roles = ['Support']) {
  await t.addStaff(email, roles);
  const session: Pair = pairOf(await passwordLogin(email));
  const start = await post('totpEnrolStart', { password: PASSWORD }, session);
  expect(start.status, start.raw.body).toBe(200);
  const { Secret, OtpauthUrl } = start.body;
  expect(Secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(OtpauthUrl).toContain(`secret=${Secret}`);
  const done = await post('totpEnrolConfirm', { Code: codeAt(Secret) }, session);
  expect(done.status, done.raw.body).toBe(200);
  const codes: string[] = done.body.RecoveryCodes!;
  t.clock.advance(30_000); // the set-up spent this step's code
  return { secret: Secret as string, session, codes };
}

async function ticketOf(email: string) {
  const r = await passwordLogin(email);
  expect(r.status, r.raw.body).toBe(200);
  const body = read(r);
  expect(body.xtoken).toBeUndefined();
  return body.SecondStep as { Ticket: string; Kind: string; Methods: string[]; ExpiresAt: string };
}

const secondStep = (body: Record<string, unknown>) => post('loginSecondStep', body);

describe('without a factor (STAFF_MFA=optional)', () => {
  it('signs in with the password alone', async () => {
    await t.addStaff('plain@example.com', ['Support']);
    const r = await passwordLogin('plain@example.com');
    expect(read(r).xtoken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('one-time codes (TOTP)', () => {
  it('needs the current password to start a set-up, counted as a sign-in failure', async () => {
    await t.addStaff('start@example.com', ['Support']);
    const session: Pair = pairOf(await passwordLogin('start@example.com'));
    const r = await post('totpEnrolStart', { password: 'Wrong#123' }, session);
    expect(r.status).toBe(400);
    expect(r.error.Description).toBe('The password is not correct.');
    expect(await failedLogins('start@example.com')).toBe(1);
  });

  it('sets up with a code, gives ten recovery codes once, then asks for a code at sign-in', async () => {
    const { codes } = await withTotp('otp@example.com');
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    const stored = await t.db.query<{ secret_sealed: Buffer }>(
      "SELECT secret_sealed FROM staff_totp t JOIN staff s USING (uid) WHERE s.email = 'otp@example.com'",
    );
    // sealed at rest: version byte 1, never the base32 text
    expect(stored.rows[0]!.secret_sealed[0]).toBe(1);
    const step = await ticketOf('otp@example.com');
    expect(step).toMatchObject({ Kind: 'verify', Methods: ['totp', 'recovery'] });
    expect(await activity('mfa.enrol', 'otp@example.com')).toEqual([{ method: 'totp' }]);
  });

  it('issues the session pair for the right code; the pair works; the ticket is single-use', async () => {
    const { secret } = await withTotp('right@example.com');
    const { Ticket } = await ticketOf('right@example.com');
    const r = await secondStep({ Ticket, Method: 'totp', Code: codeAt(secret) });
    expect(r.status, r.raw.body).toBe(200);
    const pair = r.body;
    expect(pair).toMatchObject({ Email: 'right@example.com', Role: ['Support'] });
    expect((await t.call('session', { session: pair })).status).toBe(200);
    t.clock.advance(30_000);
    const again = await secondStep({ Ticket, Method: 'totp', Code: codeAt(secret) });
    expect(again.status).toBe(401);
    expect(again.error.ErrorCode).toBe(985);
    expect(await activity('mfa.success', 'right@example.com')).toEqual([{ method: 'totp' }]);
  });

  it('refuses a code already used in its step (replay), and an earlier step after a later one', async () => {
    const { secret } = await withTotp('replay@example.com');
    const code = codeAt(secret);
    expect(
      (await secondStep({ ...(await ticketOf('replay@example.com')), Method: 'totp', Code: code })).status,
    ).toBe(200);
    const replay = await secondStep({
      Ticket: (await ticketOf('replay@example.com')).Ticket,
      Method: 'totp',
      Code: code,
    });
    expect(replay.status).toBe(401);
    expect(replay.error).toMatchObject({ ErrorCode: 986 });
    expect(replay.error.Description).toContain('already used');
    const earlier = await secondStep({
      Ticket: (await ticketOf('replay@example.com')).Ticket,
      Method: 'totp',
      Code: codeAt(secret, -1),
    });
    expect(earlier.status).toBe(401);
  });

  it('accepts one step of clock skew either side and refuses two', async () => {
    const { secret } = await withTotp('skew@example.com');
    t.clock.advance(5 * 30_000); // past the step the set-up used
    const tryCode = async (steps: number) =>
      (
        await secondStep({
          Ticket: (await ticketOf('skew@example.com')).Ticket,
          Method: 'totp',
          Code: codeAt(secret, steps),
        })
      ).status;
    expect(await tryCode(-2)).toBe(401);
    expect(await tryCode(2)).toBe(401);
    expect(await tryCode(-1)).toBe(200);
    t.clock.advance(10 * 30_000);
    expect(await tryCode(1)).toBe(200);
  });

  it('refuses a malformed code before any work: not counted towards the lockout', async () => {
    await withTotp('format@example.com');
    const { Ticket } = await ticketOf('format@example.com');
    for (const Code of ['12345a', '1234567', '', ' 12 34 56', '１２３４５６']) {
      const r = await secondStep({ Ticket, Method: 'totp', Code });
      expect(r.status, Code).toBe(400);
      expect(r.error.FieldErrors![0]!.Message).toBe(
        'Enter the 6-digit code from your authenticator app (digits only).',
      );
    }
    expect(await failedLogins('format@example.com')).toBe(0);
  });

  it('locks the account after five wrong second steps, as after five wrong passwords, and logs them', async () => {
    const { secret } = await withTotp('lock2@example.com');
    // two wrong passwords first: the right one clears them (not the wrong codes, see below)
    await passwordLogin('lock2@example.com', 'Wrong#123');
    await passwordLogin('lock2@example.com', 'Wrong#123');
    const { Ticket } = await ticketOf('lock2@example.com');
    expect(await failedLogins('lock2@example.com')).toBe(0);
    const wrong = codeAt(secret) === '000000' ? '000001' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await secondStep({ Ticket, Method: 'totp', Code: wrong });
      expect(r.status).toBe(401);
      expect(r.error.Description).toBe(
        'That code is not correct, or it was already used. Wait for the next code and try again.',
      );
    }
    // the fifth failure locked it: the right code is refused now, and so is the password
    const locked = await secondStep({ Ticket, Method: 'totp', Code: codeAt(secret) });
    expect(locked.status).toBe(429);
    expect(locked.error).toMatchObject({
      ErrorCode: 974,
      Description:
        'Too many failed sign-in attempts (wrong passwords or codes): this account is locked for a few minutes. Please try again later.',
    });
    expect(locked.headers['retry-after']).toBe('60');
    expect((await passwordLogin('lock2@example.com')).status).toBe(401);
    expect(await activity('mfa.failed', 'lock2@example.com')).toHaveLength(6);
    expect(await activity('login.lockout', 'lock2@example.com')).toEqual([
      { lockedUntil: expect.any(String), via: 'second-step' },
    ]);
    t.clock.advance(61_000);
    const after = await ticketOf('lock2@example.com');
    expect((await secondStep({ Ticket: after.Ticket, Method: 'totp', Code: codeAt(secret) })).status).toBe(
      200,
    );
    expect(await failedLogins('lock2@example.com')).toBe(0);
  });

  it('does not let a right password clear the count of wrong second steps', async () => {
    const { secret } = await withTotp('nofresh@example.com');
    const wrong = codeAt(secret) === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++) {
      const { Ticket } = await ticketOf('nofresh@example.com');
      expect((await secondStep({ Ticket, Method: 'totp', Code: wrong })).status).toBe(401);
    }
    const { Ticket } = await ticketOf('nofresh@example.com');
    expect((await secondStep({ Ticket, Method: 'totp', Code: wrong })).status).toBe(401);
    expect((await passwordLogin('nofresh@example.com')).status).toBe(401); // locked
  });

  it('keeps doubling the locks of wrong codes across right passwords, until a sign-in completes', async () => {
    const { secret } = await withTotp('doubling@example.com');
    const wrong = codeAt(secret) === '000000' ? '000001' : '000000';
    const fiveWrongCodes = async () => {
      const { Ticket } = await ticketOf('doubling@example.com');
      for (let i = 0; i < 5; i++)
        expect((await secondStep({ Ticket, Method: 'totp', Code: wrong })).status).toBe(401);
      const locked = await secondStep({ Ticket, Method: 'totp', Code: wrong });
      return Number(locked.headers['retry-after']);
    };
    expect(await fiveWrongCodes()).toBe(60);
    t.clock.advance(60_000);
    expect(await fiveWrongCodes()).toBe(120);
    t.clock.advance(120_000);
    const { Ticket } = await ticketOf('doubling@example.com');
    expect((await secondStep({ Ticket, Method: 'totp', Code: codeAt(secret) })).status).toBe(200);
    t.clock.advance(30_000);
    expect(await fiveWrongCodes()).toBe(60);
  });

  it('a new password forgets the wrong codes, as it lifts a lock', async () => {
    const { secret, session } = await withTotp('newpass@example.com');
    const wrong = codeAt(secret) === '000000' ? '000001' : '000000';
    const { Ticket } = await ticketOf('newpass@example.com');
    for (let i = 0; i < 4; i++)
      expect((await secondStep({ Ticket, Method: 'totp', Code: wrong })).status).toBe(401);
    const changed = await t.call('changePassword', {
      session,
      body: { oldpassword: PASSWORD, newpassword: 'Fresh#456' },
    });
    expect(changed.status).toBe(200);
    const again = await passwordLogin('newpass@example.com', 'Fresh#456');
    const next = read(again).SecondStep!.Ticket;
    // four more wrong codes are not the fifth to lock: the count started again
    for (let i = 0; i < 4; i++)
      expect((await secondStep({ Ticket: next, Method: 'totp', Code: wrong })).status).toBe(401);
  });

  it('10 right passwords at once: each gets a ticket or is told to try again, and the account signs in after', async () => {
    const { secret } = await withTotp('burst@example.com');
    const all = await Promise.all(Array.from({ length: 10 }, () => passwordLogin('burst@example.com')));
    for (const r of all) {
      if (r.status === 200) expect(read(r).SecondStep!.Kind).toBe('verify');
      else expect(r.error).toMatchObject({ ErrorCode: 984 });
    }
    const { Ticket } = await ticketOf('burst@example.com');
    expect((await secondStep({ Ticket, Method: 'totp', Code: codeAt(secret) })).status).toBe(200);
    expect(await failedLogins('burst@example.com')).toBe(0);
  });

  it('lets a ticket expire after five minutes', async () => {
    const { secret } = await withTotp('expire@example.com');
    const { Ticket, ExpiresAt } = await ticketOf('expire@example.com');
    expect(new Date(ExpiresAt).getTime() - t.clock.now().getTime()).toBe(300_000);
    t.clock.advance(300_000);
    const r = await secondStep({ Ticket, Method: 'totp', Code: codeAt(secret) });
    expect(r.status).toBe(401);
    expect(r.error.Description).toBe(
      'This sign-in has expired or was already completed. Please sign in again with your password.',
    );
  });

  it('is not a session: a ticket opens no signed-in call', async () => {
    await withTotp('notsession@example.com');
    const { Ticket } = await ticketOf('notsession@example.com');
    const r = await t.call('session', {
      session: { xtoken: Ticket, xsign: Ticket },
    });
    expect(r.status).toBe(401);
  });
});

describe('recovery codes', () => {
  it('each works once, in any case and without dashes', async () => {
    const { codes } = await withTotp('recover@example.com');
    const first = codes[0]!;
    const r = await secondStep({
      Ticket: (await ticketOf('recover@example.com')).Ticket,
      Method: 'recovery',
      Code: first.replace(/-/g, '').toUpperCase(),
    });
    expect(r.status, r.raw.body).toBe(200);
    const again = await secondStep({
      Ticket: (await ticketOf('recover@example.com')).Ticket,
      Method: 'recovery',
      Code: first,
    });
    expect(again.status).toBe(401);
    expect(again.error.Description).toBe('That recovery code is not correct, or it was already used.');
    expect(await activity('recovery.used', 'recover@example.com')).toEqual([{ left: 9 }]);
    const stored = await t.db.query<{ code_hash: Buffer }>('SELECT code_hash FROM staff_recovery_codes');
    expect(JSON.stringify(stored.rows)).not.toContain(first);
  });

  it('are renewed with the password; the old ones stop working', async () => {
    const { codes, session } = await withTotp('renew@example.com');
    const r = await post('recoveryCodesRenew', { password: PASSWORD }, session);
    expect(r.status).toBe(200);
    expect(r.body.RecoveryCodes).toHaveLength(10);
    const old = await secondStep({
      Ticket: (await ticketOf('renew@example.com')).Ticket,
      Method: 'recovery',
      Code: codes[1]!,
    });
    expect(old.status).toBe(401);
  });
});

describe('passkeys', () => {
  async function withPasskey(email: string, key: SoftPasskey, name = 'Laptop') {
    await t.addStaff(email, ['Support']);
    const session: Pair = pairOf(await passwordLogin(email));
    const options = await post('passkeyOptions', { password: PASSWORD }, session);
    expect(options.status, options.raw.body).toBe(200);
    const opts = options.body.Options;
    expect(opts).toMatchObject({ rp: { id: 'console.test' } });
    const added = await post(
      'passkeyAdd',
      { Name: name, Response: key.register(opts as RegisterOptions, CONSOLE_ORIGIN) },
      session,
    );
    expect(added.status, added.raw.body).toBe(200);
    return { session, codes: added.body.RecoveryCodes as string[] };
  }

  async function passkeySignIn(email: string, key: SoftPasskey, origin = CONSOLE_ORIGIN) {
    const { Ticket, Methods } = await ticketOf(email);
    expect(Methods).toContain('passkey');
    const o = await post('loginPasskeyOptions', { Ticket });
    expect(o.status, o.raw.body).toBe(200);
    const Response = key.assert(o.body.Options, origin);
    return { r: await secondStep({ Ticket, Method: 'passkey', Response }), Ticket, Response };
  }

  it('registers a passkey and signs in with it; lists it with its name and when it was last used', async () => {
    const key = softPasskey();
    const { session, codes } = await withPasskey('pk@example.com', key);
    expect(codes).toHaveLength(10);
    const { r } = await passkeySignIn('pk@example.com', key);
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Email).toBe('pk@example.com');
    const list = await t.call('myFactors', { session });
    expect(list.body).toMatchObject({
      Required: false,
      Totp: null,
      RecoveryCodesLeft: 10,
      Passkeys: [{ Name: 'Laptop', CreatedAt: expect.any(String), LastUsedAt: t.clock.now().toISOString() }],
    });
  });

  it('refuses a replayed assertion, another key, and an assertion for another origin', async () => {
    const key = softPasskey();
    await withPasskey('pk2@example.com', key);
    const { Response } = await passkeySignIn('pk2@example.com', key);
    const { Ticket } = await ticketOf('pk2@example.com');
    await post('loginPasskeyOptions', { Ticket });
    expect((await secondStep({ Ticket, Method: 'passkey', Response })).status).toBe(401);
    const stranger = await passkeySignIn('pk2@example.com', softPasskey());
    expect(stranger.r.status).toBe(401);
    expect(stranger.r.error.Description).toBe(
      'That passkey was not accepted for this account. Try another passkey or a code.',
    );
    expect((await passkeySignIn('pk2@example.com', key, 'https://evil.example')).r.status).toBe(401);
  });

  it('bounds what it reads: a long name and an oversized response are refused before any work', async () => {
    const key = softPasskey();
    const { session } = await withPasskey('pk3@example.com', key);
    const list = await t.call('myFactors', { session });
    const id = list.body.Passkeys[0]!.Id;
    const long = await post('passkeyRename', { Id: id, Name: 'x'.repeat(65) }, session);
    expect(long.status).toBe(400);
    expect(long.error.FieldErrors![0]!.Message).toBe('A passkey name is at most 64 characters.');
    const huge = key.register({ challenge: 'x', rp: { id: 'console.test' } }, CONSOLE_ORIGIN) as {
      response: { attestationObject: string };
    };
    huge.response.attestationObject = 'A'.repeat(20_000);
    expect((await post('passkeyAdd', { Name: 'Big', Response: huge }, session)).status).toBe(400);
  });

  it('renames and removes (with the password) a passkey; the last one takes the recovery codes with it', async () => {
    const key = softPasskey();
    const { session } = await withPasskey('pk4@example.com', key);
    const id = (await t.call('myFactors', { session })).body.Passkeys[0]!.Id;
    expect((await post('passkeyRename', { Id: id, Name: 'Office key' }, session)).status).toBe(200);
    const wrong = await post('passkeyRemove', { Id: id, password: 'Wrong#123' }, session);
    expect(wrong.status).toBe(400);
    const removed = await post('passkeyRemove', { Id: id, password: PASSWORD }, session);
    expect(removed.status, removed.raw.body).toBe(200);
    expect((await t.call('myFactors', { session })).body).toMatchObject({
      Passkeys: [],
      RecoveryCodesLeft: 0,
    });
    expect(read(await passwordLogin('pk4@example.com')).xtoken).toBeDefined();
    expect((await activity('mfa.remove', 'pk4@example.com'))[0]).toMatchObject({ name: 'Office key' });
  });
});

describe('a SuperAdmin resets a colleague', () => {
  it("removes the colleague's factors, ends their sessions, logs it and mails them", async () => {
    await t.addStaff('boss@example.com', ['SuperAdmin']);
    const boss: Pair = pairOf(await passwordLogin('boss@example.com'));
    const { session } = await withTotp('lost@example.com');
    const uid = (await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'lost@example.com'"))
      .rows[0]!.uid;
    const r = await post('staffFactorsReset', { uid }, boss);
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Message).toContain('lost@example.com');
    expect((await t.call('session', { session })).status).toBe(401);
    expect(read(await passwordLogin('lost@example.com')).xtoken).toBeDefined();
    expect(await activity('mfa.reset', 'boss@example.com')).toEqual([
      { of: 'lost@example.com', totp: true, passkeys: 0, sessionsEnded: 1 },
    ]);
    const mail = await t.smtp.waitFor((m) => m.to.includes('lost@example.com'));
    expect(mail.subject).toBe('Your Super Admin Console second factors were removed');
    expect(mail.text).toContain('boss@example.com removed the passkeys');
  });

  it('is for SuperAdmins only, and not for their own account', async () => {
    await t.addStaff('adm@example.com', ['Admin']);
    const adm: Pair = pairOf(await passwordLogin('adm@example.com'));
    const uid = (await t.db.query<{ uid: string }>("SELECT uid FROM staff WHERE email = 'boss@example.com'"))
      .rows[0]!.uid;
    expect((await post('staffFactorsReset', { uid }, adm)).status).toBe(403);
    const boss: Pair = pairOf(await passwordLogin('boss@example.com'));
    expect((await post('staffFactorsReset', { uid }, boss)).status).toBe(403);
  });
});

describe('STAFF_MFA=required', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ staffMfa: 'required' });
  });
  afterAll(() => r.close());

  const call = <I extends EndpointId>(id: I, body: Record<string, unknown>) =>
    r.callLoose(id, { body, headers: { origin: CONSOLE_ORIGIN } });

  it('makes a staff member without a factor set one up before any session, then asks for it', async () => {
    await r.addStaff('new@example.com', ['Admin']);
    const first = await call('login', { email: 'new@example.com', password: PASSWORD });
    expect(read(first).xtoken).toBeUndefined();
    const { Ticket, Kind, Methods } = read(first).SecondStep!;
    expect({ Kind, Methods }).toEqual({ Kind: 'enrol', Methods: [] });
    // the enrolment ticket is good for the set-up only: not for the second step, not as a session
    expect((await call('loginSecondStep', { Ticket, Method: 'totp', Code: '123456' })).status).toBe(401);
    expect((await r.call('teamList', { session: { xtoken: Ticket, xsign: Ticket } })).status).toBe(401);
    const { Secret } = (await call('loginEnrolTotp', { Ticket })).body;
    const code = totpCodeAt(base32Decode(Secret), totpStepOf(r.clock.now()));
    const wrong = await call('loginEnrolTotpConfirm', {
      Ticket,
      Code: code === '111111' ? '222222' : '111111',
    });
    expect(wrong.status).toBe(400);
    const done = await call('loginEnrolTotpConfirm', { Ticket, Code: code });
    expect(done.status, done.raw.body).toBe(200);
    expect(done.body).toMatchObject({ Email: 'new@example.com', Role: ['Admin'] });
    expect(done.body.RecoveryCodes).toHaveLength(10);
    expect((await r.call('teamList', { session: done.body })).status).toBe(200);
    // spent
    expect((await call('loginEnrolTotpConfirm', { Ticket, Code: code })).status).toBe(401);
    const next = await call('login', { email: 'new@example.com', password: PASSWORD });
    expect(read(next).SecondStep).toMatchObject({ Kind: 'verify', Methods: ['totp', 'recovery'] });
    // the last factor stays while factors are required
    const removal = await r.call('totpRemove', { body: { password: PASSWORD }, session: done.body });
    expect(removal.status).toBe(409);
    expect(removal.error.ErrorCode).toBe(988);
  });

  it('sets up a passkey at sign-in too', async () => {
    await r.addStaff('newpk@example.com', ['Support']);
    const key = softPasskey();
    const { Ticket } = read(await call('login', { email: 'newpk@example.com', password: PASSWORD }))
      .SecondStep!;
    const o = await call('loginEnrolPasskeyOptions', { Ticket });
    expect(o.status, o.raw.body).toBe(200);
    const done = await call('loginEnrolPasskey', {
      Ticket,
      Name: 'Phone',
      Response: key.register(o.body.Options as RegisterOptions, CONSOLE_ORIGIN),
    });
    expect(done.status, done.raw.body).toBe(200);
    expect(done.body.xtoken).toBeDefined();
    const next = await call('login', { email: 'newpk@example.com', password: PASSWORD });
    expect(read(next).SecondStep!.Methods).toEqual(['passkey', 'recovery']);
  });
});

describe('the STAFF_MFA setting', () => {
  it('is required by default, optional by default only with demo data, and refuses other values', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).staffMfa).toBe('required');
    expect(loadConfig({ DEMO_DATA: '0' }).staffMfa).toBe('required');
    expect(loadConfig({}).staffMfa).toBe('optional'); // the embedded database's demo
    expect(loadConfig({ STAFF_MFA: 'required' }).staffMfa).toBe('required');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x', STAFF_MFA: 'optional' }).staffMfa).toBe('optional');
    expect(() => loadConfig({ STAFF_MFA: 'yes' })).toThrow(
      "STAFF_MFA must be 'required' or 'optional', got 'yes'",
    );
  });
});
