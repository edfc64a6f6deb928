import type { EndpointId } from '@sac/contract/endpoints';
import { ERRORS } from '@sac/contract/errors';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totpCodeAt, totpStepOf } from '../src/lib/totp.ts';
import { LOCKOUT_THRESHOLD } from '../src/modules/auth/login-throttle.ts';
import { type Answer, CONSOLE_ORIGIN, createTestApp, PASSWORD, type TestApp } from './harness.ts';

// Random interleavings of right and wrong passwords (and, with a second factor, wrong codes),
// sent in batches of real concurrent requests through the app, the clock moved between batches.
// What every interleaving must keep (docs/decisions.md, "Lockouts that always end"):
//  - a right password is answered 903 only while the account is locked by a lock that ends
//    within 15 minutes; otherwise 200 or 429 busy (984), never called wrong;
//  - the account's counts never reach the threshold without a lock;
//  - after the lock's end, the right password works;
//  - no more than LOCKOUT_THRESHOLD wrong passwords (or wrong codes) are checked between two
//    events that clear their count (the trail, in commit order).

const WRONG = 'Wrong#123';
const MAX_LOCK_MS = 15 * 60_000;
type Op = 'right' | 'wrong' | 'wrongCode';
const outcome = (r: Pick<Answer<EndpointId>, 'status' | 'error'>) =>
  r.status === 200 ? '200' : `${r.status}/${r.error.ErrorCode}`;
const BUSY = `429/${ERRORS.signInBusy.code}`;
const INVALID = `401/${ERRORS.invalidCredentials.code}`;
const RUNS = 15;

let t: TestApp;
let n = 0;
beforeAll(async () => {
  // the per-address budget has tests of its own; here every attempt comes from one address
  t = await createTestApp({ loginAddressDailyFailures: 1_000_000 });
});
afterAll(() => t.close());

const signIn = (email: string, password: string) =>
  t.call('login', {
    body: { email, password },
    remoteAddress: '192.0.2.90',
  });
const secondStep = (Ticket: string, Code: string) =>
  t.call('loginSecondStep', {
    headers: { origin: CONSOLE_ORIGIN },
    body: { Ticket, Method: 'totp', Code },
    remoteAddress: '192.0.2.90',
  });

async function accountRow(email: string) {
  const r = await t.db.query<{ failed_logins: number; factor_failures: number; locked_until: Date | null }>(
    'SELECT failed_logins, factor_failures, locked_until FROM staff WHERE email = $1',
    [email],
  );
  return r.rows[0]!;
}

/** A staff member, with an authenticator app set up through the account menu when `withFactor`. */
async function newAccount(withFactor: boolean): Promise<{ email: string; secret?: string }> {
  const email = `prop-${++n}@example.com`;
  await t.addStaff(email, ['Support']);
  if (!withFactor) return { email };
  const session = await t.login(email);
  const headers = { origin: CONSOLE_ORIGIN };
  const start = await t.call('totpEnrolStart', {
    body: { password: PASSWORD },
    session,
    headers,
  });
  const secret = start.body.Secret;
  const code = totpCodeAt(base32Decode(secret), totpStepOf(t.clock.now()));
  const done = await t.call('totpEnrolConfirm', {
    body: { Code: code },
    session,
    headers,
  });
  expect(done.status, done.raw.body).toBe(200);
  t.clock.advance(30_000);
  return { email, secret };
}

/** The wrong checks between two clears of their count, in the order the trail recorded them. */
async function mostWrongBetweenClears(email: string) {
  const r = await t.db.query<{ action: string; reason: string | null }>(
    `SELECT action, details->>'reason' AS reason FROM activity_log WHERE actor_email = $1 ORDER BY id`,
    [email],
  );
  let passwords = 0;
  let codes = 0;
  let most = 0;
  for (const { action, reason } of r.rows) {
    if (action === 'login.failed' && reason === 'wrong-password') passwords++;
    else if (action === 'mfa.failed' && reason === 'wrong-factor') codes++;
    else if (action === 'login.second-step') passwords = 0;
    else if (action === 'login.success' || action === 'login.lockout') passwords = codes = 0;
    most = Math.max(most, passwords, codes);
  }
  return most;
}

const batch = (ops: Op[]) => fc.array(fc.constantFrom(...ops), { minLength: 1, maxLength: 9 });
const program = (ops: Op[]) =>
  fc.array(
    fc.record({
      batch: batch(ops),
      // what passes before the next batch: nothing, a while, past a first lock, past the longest
      wait: fc.constantFrom(0, 0, 30_000, 61_000, 5 * 60_000, MAX_LOCK_MS + 1_000),
    }),
    { minLength: 1, maxLength: 4 },
  );

describe.each([
  ['without a second factor', false, ['right', 'wrong'] as Op[]],
  ['with an authenticator app', true, ['right', 'wrong', 'wrongCode'] as Op[]],
])('random interleavings %s', (_, withFactor, ops) => {
  it('keep every lock ending, never call a right password wrong, never check past the budget', async () => {
    await fc.assert(
      fc.asyncProperty(program(ops), async (steps) => {
        const { email, secret } = await newAccount(withFactor);
        let ticket = 'A'.repeat(43); // no ticket yet: one of the right shape that no sign-in issued
        for (const { batch: ops, wait } of steps) {
          const answers = await Promise.all(
            ops.map(async (op) => {
              if (op === 'wrongCode') {
                const code = totpCodeAt(base32Decode(secret!), totpStepOf(t.clock.now()));
                return { op, r: await secondStep(ticket, code === '000000' ? '000001' : '000000') };
              }
              return { op, r: await signIn(email, op === 'right' ? PASSWORD : WRONG) };
            }),
          );
          const now = t.clock.now().getTime();
          const row = await accountRow(email);
          const lockEnd = row.locked_until ? new Date(row.locked_until).getTime() : 0;
          for (const { op, r } of answers) {
            const seen = outcome(r);
            if (op === 'right') {
              if (seen === INVALID) {
                expect(lockEnd).toBeGreaterThan(now);
                expect(lockEnd).toBeLessThanOrEqual(now + MAX_LOCK_MS);
              } else expect(['200', BUSY]).toContain(seen);
              if (seen === '200' && withFactor) {
                const answer = r.body;
                if (!('SecondStep' in answer)) throw new Error('sign-in asked for no second step');
                ticket = answer.SecondStep.Ticket;
              }
            } else if (op === 'wrong') expect([INVALID, BUSY]).toContain(seen);
            else
              expect([
                `401/${ERRORS.wrongSecondFactor.code}`,
                `401/${ERRORS.secondStepInvalid.code}`,
                `429/${ERRORS.accountLocked.code}`,
                BUSY,
              ]).toContain(seen);
          }
          // over the threshold means locked: the counts never stand at it
          expect(row.failed_logins).toBeLessThan(LOCKOUT_THRESHOLD);
          expect(row.factor_failures).toBeLessThan(LOCKOUT_THRESHOLD);
          if (lockEnd > now) expect(lockEnd - now).toBeLessThanOrEqual(MAX_LOCK_MS);
          t.clock.advance(wait);
        }
        expect(await mostWrongBetweenClears(email)).toBeLessThanOrEqual(LOCKOUT_THRESHOLD);
        // after the lock's end (if any), the right password works
        const { locked_until } = await accountRow(email);
        const left = locked_until ? new Date(locked_until).getTime() - t.clock.now().getTime() : 0;
        if (left > 0) t.clock.advance(left);
        expect(outcome(await signIn(email, PASSWORD))).toBe('200');
      }),
      { numRuns: RUNS },
    );
  });
});
