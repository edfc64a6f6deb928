import { ERRORS } from '@sac/contract/errors';
import { MESSAGES } from '@sac/contract/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, createTestApp, PASSWORD, type TestApp } from '../../../test/harness.ts';
import { ADDRESS_DAILY_FAILURES, LOCKOUT_THRESHOLD, lockoutDurationMs } from './login-throttle.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('Ada@Example.com', ['Admin']);
  await t.addStaff('lock@example.com', ['Support']);
});
afterAll(() => t.close());

const login = (email: unknown, password: unknown, remoteAddress = '203.0.113.1') =>
  t.callLoose('login', { body: { email, password }, remoteAddress });

async function activity(action: string) {
  const r = await t.db.query<{ actor_email: string; client_address: string; at: Date }>(
    'SELECT actor_email, client_address, at FROM activity_log WHERE action = $1 ORDER BY id',
    [action],
  );
  return r.rows;
}

describe('POST /admin/login', () => {
  it('answers the session pair and the profile for good credentials, email in any case, trimmed', async () => {
    const r = await login('  ada@EXAMPLE.com ', PASSWORD);
    expect(r.status).toBe(200);
    const body = r.body;
    expect(body).toMatchObject({ Email: 'Ada@Example.com', Name: 'Ada', Role: ['Admin'] });
    if (!('xtoken' in body)) throw new Error('the sign-in asked for a second step');
    // 256-bit values, base64url: 43 characters, and not the same twice
    expect(body.xtoken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.xsign).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.xtoken).not.toBe(body.xsign);
    const rows = await t.db.query<{ token_hash: Buffer }>('SELECT token_hash FROM staff_sessions');
    // stored only as hashes
    expect(JSON.stringify(rows.rows)).not.toContain(body.xtoken);
    expect((await activity('login.success')).at(-1)).toMatchObject({
      actor_email: 'Ada@Example.com',
      client_address: '203.0.113.1',
    });
  });

  it.each([
    [{ password: PASSWORD }, 'Email is required'],
    [{ email: '', password: PASSWORD }, 'Email is required'],
    [{ email: 'not-an-email', password: PASSWORD }, MESSAGES.emailInvalidLogin],
    [{ email: 'ada@example.com' }, 'Password is required'],
    [{ email: 'ada@example.com', password: '   ' }, 'Password is required'],
  ])('refuses %j with "%s"', async (payload, message) => {
    const r = await t.callLoose('login', { body: payload, remoteAddress: '203.0.113.9' });
    expect(r.status).toBe(400);
    expect(r.error).toMatchObject({ ErrorCode: 900, Description: message });
    expect(r.error.FieldErrors![0]!.Message).toBe(message);
  });

  it('answers wrong password and unknown email alike, and logs both failures', async () => {
    const wrong = await login('ada@example.com', 'Wrong#123');
    const unknown = await login('nobody@example.com', PASSWORD);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const strip = (b: Record<string, unknown>) => ({ ...b, RequestId: undefined });
    expect(strip(wrong.error)).toEqual(strip(unknown.error));
    expect(wrong.error).toMatchObject({ ErrorCode: 903, Description: MESSAGES.invalidCredentials });
    const failed = (await activity('login.failed')).map((r) => r.actor_email);
    expect(failed).toEqual(expect.arrayContaining(['ada@example.com', 'nobody@example.com']));
  });
});

describe('account lockout', () => {
  it('locks for 1 minute after 5 failures, doubling up to 15 minutes, with the same answer', async () => {
    const ip = '198.51.100.7';
    const failFive = async () => {
      for (let i = 0; i < 5; i++) expect((await login('lock@example.com', 'Wrong#123', ip)).status).toBe(401);
    };
    await failFive();
    // Locked: even the right password gets the same answer as a wrong one.
    const locked = await login('lock@example.com', PASSWORD, ip);
    expect(locked.status).toBe(401);
    expect(locked.error.Description).toBe(MESSAGES.invalidCredentials);
    expect(await activity('login.lockout')).toHaveLength(1);

    t.clock.advance(59_000);
    expect((await login('lock@example.com', PASSWORD, ip)).status).toBe(401);
    t.clock.advance(1_000);
    expect((await login('lock@example.com', 'Wrong#123', ip)).status).toBe(401); // 1 of 5 again

    // Four more failures lock again, now for 2 minutes.
    for (let i = 0; i < 4; i++) await login('lock@example.com', 'Wrong#123', ip);
    t.clock.advance(119_000);
    expect((await login('lock@example.com', PASSWORD, ip)).status).toBe(401);
    t.clock.advance(1_000);
    expect((await login('lock@example.com', PASSWORD, ip)).status).toBe(200);

    // A success resets the doubling: the next lockout is 1 minute again.
    await failFive();
    t.clock.advance(60_000);
    expect((await login('lock@example.com', PASSWORD, ip)).status).toBe(200);
  });

  it('doubles each lockout in a row and never exceeds 15 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((n) => lockoutDurationMs(n) / 60_000)).toEqual([
      1, 2, 4, 8, 15, 15, 15,
    ]);
  });
});

describe('per-address limit', () => {
  it('answers 429 after 100 failed sign-ins from one address in a day, and not to other addresses', async () => {
    const ip = '192.0.2.200';
    for (let i = 0; i < ADDRESS_DAILY_FAILURES; i++) {
      expect((await login(`nobody${i}@example.com`, 'Wrong#123', ip)).status).toBe(401);
    }
    const blocked = await login('ada@example.com', PASSWORD, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.error.ErrorCode).toBe(904);
    expect((await login('ada@example.com', PASSWORD, '192.0.2.201')).status).toBe(200);
    t.clock.advance(24 * 3_600_000);
    expect((await login('ada@example.com', PASSWORD, ip)).status).toBe(200);
  }, 120_000);
});

/** What a client sees of a sign-in: its status and error code (0 for a 200). */
const outcome = (r: Answer<'login'>) => (r.status === 200 ? 200 : `${r.status}/${r.error.ErrorCode}`);
const BUSY = `429/${ERRORS.signInBusy.code}`;

async function lockOf(app: TestApp, email: string) {
  const r = await app.db.query<{ failed_logins: number; locked_until: Date | null }>(
    'SELECT failed_logins, locked_until FROM staff WHERE email = $1',
    [email],
  );
  return r.rows[0]!;
}

describe.each([
  ['without a second factor', 'optional'],
  ['with a second factor to set up (STAFF_MFA=required)', 'required'],
] as const)('right passwords at once, %s', (_, staffMfa) => {
  let a: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ staffMfa });
  });
  afterAll(() => a.close());
  const signIn = (email: string, password: string, remoteAddress = '203.0.113.50') =>
    a.call('login', { body: { email, password }, remoteAddress });

  it.each([6, 10, 12])(
    '%i at once: each is let in or told to try again (429, Retry-After), none called wrong',
    async (n) => {
      const email = `burst${n}@example.com`;
      await a.addStaff(email, ['Support']);
      const answers = await Promise.all(Array.from({ length: n }, () => signIn(email, PASSWORD)));
      const seen = answers.map(outcome);
      expect(seen.filter((o) => o !== 200 && o !== BUSY)).toEqual([]);
      expect(seen.filter((o) => o === 200).length).toBeGreaterThanOrEqual(1);
      for (const r of answers.filter((x) => x.status === 429)) {
        expect(r.error.Description).toBe(ERRORS.signInBusy.text);
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // and the account is not left behind: the right password still works, one at a time
      for (let i = 0; i < 3; i++) expect(outcome(await signIn(email, PASSWORD))).toBe(200);
      expect((await lockOf(a, email)).failed_logins).toBe(0);
    },
  );

  it('a stranger interleaving wrong passwords with the owner never locks the owner out for good', async () => {
    const email = 'owner@example.com';
    await a.addStaff(email, ['Support']);
    for (let i = 0; i < LOCKOUT_THRESHOLD - 1; i++)
      expect(outcome(await signIn(email, 'Wrong#123', '198.51.100.66'))).toBe('401/903');
    const [owner, ...stranger] = await Promise.all([
      signIn(email, PASSWORD),
      ...Array.from({ length: 3 }, () => signIn(email, 'Wrong#123', '198.51.100.66')),
    ]);
    // A stranger's attempt admitted first may be the fifth wrong password and lock the account
    // before the owner's is counted (then the owner is refused as locked): what must hold is
    // that the lock ends.
    expect([200, BUSY, '401/903']).toContain(outcome(owner));
    for (const r of stranger) expect(['401/903', BUSY]).toContain(outcome(r));
    // Whatever the order, the account is either open to the owner or locked by a lock that ends.
    const { locked_until } = await lockOf(a, email);
    if (locked_until) {
      expect(new Date(locked_until).getTime() - a.clock.now().getTime()).toBeLessThanOrEqual(15 * 60_000);
      a.clock.advance(new Date(locked_until).getTime() - a.clock.now().getTime());
    }
    expect(outcome(await signIn(email, PASSWORD))).toBe(200);
    a.clock.advance(5 * 60_000);
    expect(outcome(await signIn(email, PASSWORD))).toBe(200);
  });

  it('attempts of a process that died stop counting a minute after the latest', async () => {
    const email = 'crashed@example.com';
    await a.addStaff(email, ['Support']);
    // five attempts admitted and never answered, as a process killed while checking leaves them
    await a.db.query('UPDATE staff SET sign_ins_in_flight = 5, in_flight_since = $2 WHERE email = $1', [
      email,
      a.clock.now(),
    ]);
    const busy = await signIn(email, PASSWORD);
    expect(outcome(busy)).toBe(BUSY);
    a.clock.advance(59_000);
    expect(outcome(await signIn(email, PASSWORD))).toBe(BUSY);
    a.clock.advance(1_000);
    expect(outcome(await signIn(email, PASSWORD))).toBe(200);
  });

  it('a sign-in told to wait spends nothing of the daily budget of its address', async () => {
    const email = 'waits@example.com';
    const address = '203.0.113.77';
    await a.addStaff(email, ['Support']);
    await a.addStaff('colleague@example.com', ['Support']);
    // attempts in flight up to the limit (a process killed while checking them): each sign-in
    // from the office's one address is told to wait, its password never checked
    await a.db.query('UPDATE staff SET sign_ins_in_flight = 5, in_flight_since = $2 WHERE email = $1', [
      email,
      a.clock.now(),
    ]);
    for (let i = 0; i <= ADDRESS_DAILY_FAILURES; i++)
      expect(outcome(await signIn(email, PASSWORD, address)), `attempt ${i + 1}`).toBe(BUSY);
    a.clock.advance(60_000);
    expect(outcome(await signIn(email, PASSWORD, address))).toBe(200);
    expect(outcome(await signIn('colleague@example.com', PASSWORD, address))).toBe(200);
  });

  it('a right password whose sign-in fails in the database spends nothing of its address or account', async () => {
    const email = 'unlucky@example.com';
    const address = '203.0.113.78';
    await a.addStaff(email, ['Support']);
    await a.addStaff('neighbour@example.com', ['Support']);
    // the sign-in's own write fails after its check (its trail row refused by the database), as
    // a store failing mid-sign-in would: the client sees an error, and retries
    await a.db.query(`CREATE FUNCTION refuse_unlucky() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await a.db.query(`CREATE TRIGGER refuse_unlucky BEFORE INSERT ON activity_log FOR EACH ROW
      WHEN (NEW.actor_email = '${email}' AND NEW.action IN ('login.success', 'login.second-step'))
      EXECUTE FUNCTION refuse_unlucky()`);
    try {
      for (let i = 0; i <= ADDRESS_DAILY_FAILURES; i++) {
        const r = await signIn(email, PASSWORD, address);
        expect(r.status, `attempt ${i + 1}`).toBe(500);
      }
    } finally {
      await a.db.query('DROP TRIGGER refuse_unlucky ON activity_log');
      await a.db.query('DROP FUNCTION refuse_unlucky()');
    }
    // nothing was left in flight or counted: the owner and a neighbour behind the address sign in
    expect((await lockOf(a, email)).failed_logins).toBe(0);
    expect(outcome(await signIn(email, PASSWORD, address))).toBe(200);
    expect(outcome(await signIn('neighbour@example.com', PASSWORD, address))).toBe(200);
  }, 120_000);

  it('a right password clears the count of wrong ones before it', async () => {
    const email = 'clears@example.com';
    await a.addStaff(email, ['Support']);
    for (let i = 0; i < LOCKOUT_THRESHOLD - 1; i++) await signIn(email, 'Wrong#123');
    expect(outcome(await signIn(email, PASSWORD))).toBe(200);
    expect((await lockOf(a, email)).failed_logins).toBe(0);
    // four more wrong passwords do not lock: the count started again
    for (let i = 0; i < LOCKOUT_THRESHOLD - 1; i++) await signIn(email, 'Wrong#123');
    expect(outcome(await signIn(email, PASSWORD))).toBe(200);
  });
});
