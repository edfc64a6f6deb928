import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCKOUT_BASE_MS, LOCKOUT_THRESHOLD } from '../src/modules/auth/login-throttle.ts';
import { createTestApp, PASSWORD, type TestApp } from './harness.ts';
import { redisScope, redisTestsRun, TEST_REDIS_URL } from './redis-helper.ts';

// Limits counted before the password is checked: attempts sent at once are counted one by one, so
// they lock and throttle exactly as the same attempts sent in turn. Real concurrent requests
// through the HTTP app; on PostgreSQL (a pool of 4) they truly overlap in the database.

const withRedis = await redisTestsRun();
const WRONG = 'Wrong#1234';

const signIn = async (t: TestApp, email: string, password: string, remoteAddress = '203.0.113.7') =>
  (await t.call('login', { body: { email, password }, remoteAddress })).raw;

/** How many times a password of this account was checked and found wrong. */
async function wrongChecks(t: TestApp, email: string): Promise<number> {
  const r = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM activity_log WHERE actor_email = $1 AND action = 'login.failed' AND details->>'reason' = 'wrong-password'`,
    [email],
  );
  return r.rows[0]!.n;
}

describe('account lockout under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('25 wrong passwords at once: five are checked, the account locks once, the right one then fails', async () => {
    await t.addStaff('ada@example.com', ['Admin']);
    const all = await Promise.all(Array.from({ length: 25 }, () => signIn(t, 'ada@example.com', WRONG)));
    // refused as wrong (or locked), or, while five are being checked, told to try again
    for (const r of all)
      expect([`401/${ERRORS.invalidCredentials.code}`, `429/${ERRORS.signInBusy.code}`]).toContain(
        `${r.statusCode}/${r.json().ErrorCode}`,
      );
    expect(await wrongChecks(t, 'ada@example.com')).toBe(LOCKOUT_THRESHOLD);
    const lockouts = await t.db.query(
      `SELECT 1 FROM activity_log WHERE actor_email = 'ada@example.com' AND action = 'login.lockout'`,
    );
    expect(lockouts.rows).toHaveLength(1);
    expect((await signIn(t, 'ada@example.com', PASSWORD)).statusCode).toBe(401);
    t.clock.advance(LOCKOUT_BASE_MS + 1);
    expect((await signIn(t, 'ada@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('24 wrong and the right one sent together: the right one is checked only if counted among the first five', async () => {
    await t.addStaff('bea@example.com', ['Admin']);
    const wrong = Array.from({ length: 24 }, () => signIn(t, 'bea@example.com', WRONG));
    const right = signIn(t, 'bea@example.com', PASSWORD);
    const [rightAnswer] = await Promise.all([right, ...wrong]);
    const checked = await wrongChecks(t, 'bea@example.com');
    if (rightAnswer.statusCode === 200) {
      // counted among the first five: at most four wrong ones before it, at most five after it
      expect(checked).toBeLessThanOrEqual(2 * LOCKOUT_THRESHOLD - 1);
    } else if (rightAnswer.statusCode === 429) {
      // not counted: five others were being checked; it was told to try again, not that it is wrong
      expect(rightAnswer.json().ErrorCode).toBe(ERRORS.signInBusy.code);
    } else {
      // locked by five wrong ones checked before it
      expect(rightAnswer.statusCode).toBe(401);
      expect(checked).toBe(LOCKOUT_THRESHOLD);
    }
    // never did all 24 wrong passwords get checked
    expect(checked).toBeLessThan(24);
  });
});

describe('per-address limit under concurrency', () => {
  const limit = 10;
  async function burst(t: TestApp, address: string) {
    const all = await Promise.all(
      Array.from({ length: 3 * limit }, (_, i) => signIn(t, `nobody${i}@example.com`, WRONG, address)),
    );
    return all.map((r) => r.statusCode);
  }
  const expectExactly = (codes: number[]) => {
    expect(codes.filter((c) => c === 401)).toHaveLength(limit);
    expect(codes.filter((c) => c === 429)).toHaveLength(2 * limit);
  };

  it('in the database: 30 failures at once from one address, exactly 10 are answered 401', async () => {
    const t = await createTestApp({ loginAddressDailyFailures: limit });
    try {
      expectExactly(await burst(t, '198.51.100.40'));
      // a right password from another address is not affected
      await t.addStaff('cy@example.com', ['Support']);
      expect((await signIn(t, 'cy@example.com', PASSWORD, '198.51.100.41')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it.runIf(withRedis)('in Redis: the same', async () => {
    const scope = redisScope();
    const t = await createTestApp({
      loginAddressDailyFailures: limit,
      redisUrl: TEST_REDIS_URL,
      redisKeyPrefix: scope.prefix,
    });
    try {
      expectExactly(await burst(t, '198.51.100.42'));
    } finally {
      await t.close();
      await scope.cleanup();
    }
  });

  it('a right password takes its count back, so signing in often never throttles an address', async () => {
    const t = await createTestApp({ loginAddressDailyFailures: 3 });
    try {
      await t.addStaff('dot@example.com', ['Support']);
      for (let i = 0; i < 6; i++)
        expect((await signIn(t, 'dot@example.com', PASSWORD, '198.51.100.43')).statusCode).toBe(200);
      expect(await t.ctx.addressFailures.failuresToday('198.51.100.43', t.clock.now())).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('change password under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('8 wrong old passwords at once from a held session: five are checked, then the account is locked', async () => {
    await t.addStaff('eli@example.com', ['Support']);
    const session = await t.login('eli@example.com');
    const change = async (oldpassword: string) =>
      (await t.call('changePassword', { session, body: { oldpassword, newpassword: 'Newer#456' } })).raw;
    const all = await Promise.all(Array.from({ length: 8 }, () => change(WRONG)));
    const codes = all.map((r) => r.json().ErrorCode);
    expect(codes.filter((c) => c === ERRORS.wrongOldPassword.code)).toHaveLength(LOCKOUT_THRESHOLD);
    // the rest came while five were being checked (try again) or after the lock
    expect(codes.filter((c) => c === ERRORS.accountLocked.code || c === ERRORS.signInBusy.code)).toHaveLength(
      8 - LOCKOUT_THRESHOLD,
    );
    // the right old password waits for the lock to pass, as a sign-in does
    const locked = await change(PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().Description).toBe(ERRORS.accountLocked.text);
    expect(locked.headers['retry-after']).toBe(String(LOCKOUT_BASE_MS / 1000));
    expect((await signIn(t, 'eli@example.com', PASSWORD)).statusCode).toBe(401);
    t.clock.advance(LOCKOUT_BASE_MS + 1);
    expect((await change(PASSWORD)).statusCode).toBe(200);
  });
});
