import type { AddressFailureStore } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import {
  addAccountAttempt,
  addAddressFailure,
  addressFailuresOn,
  clearAccountFailures,
  lockAccount,
  takeBackAccountAttempt,
  takeBackAddressFailure,
} from './login-throttle.repo.ts';

/** Account lockout: after this many consecutive failures the account is locked. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_BASE_MS = 60_000;
const LOCKOUT_MAX_MS = 15 * 60_000;
/** Failed sign-ins one client address may make per UTC day before it gets HTTP 429 (the default of LOGIN_ADDRESS_DAILY_FAILURES). */
export const ADDRESS_DAILY_FAILURES = 100;

/** 1 minute for the first lockout in a row, doubling each time, never above 15 minutes. */
export const lockoutDurationMs = (lockoutsInARow: number): number =>
  Math.min(LOCKOUT_BASE_MS * 2 ** Math.max(0, lockoutsInARow - 1), LOCKOUT_MAX_MS);

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export function databaseAddressStore(db: Queryable): AddressFailureStore {
  return {
    kind: 'database',
    failuresToday: (address, at) => addressFailuresOn(db, address, utcDay(at)),
    recordFailure: (address, at) => addAddressFailure(db, address, utcDay(at)),
    forgive: (address, at) => takeBackAddressFailure(db, address, utcDay(at)),
  };
}

/** The few Redis commands the store needs (ioredis provides them). */
export interface RedisCounter {
  get(key: string): Promise<string | null>;
  eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
  multi(): {
    incr(key: string): unknown;
    pexpire(key: string, ms: number): unknown;
    exec(): Promise<Array<[Error | null, unknown]> | null>;
  };
}

/**
 * One key per address and UTC day, `<prefix>login-fail:<day>:<address>`; INCR and the expiry
 * (the end of that day plus a day, so a clock a little off never cuts a count short) run in one
 * MULTI, so a counter never lives without its expiry.
 */
export function redisAddressStore(redis: RedisCounter, prefix: string): AddressFailureStore {
  const key = (address: string, at: Date) => `${prefix}login-fail:${utcDay(at)}:${address}`;
  return {
    kind: 'redis',
    async failuresToday(address, at) {
      return Number((await redis.get(key(address, at))) ?? 0);
    },
    async recordFailure(address, at) {
      const k = key(address, at);
      const endOfDay = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
      const tx = redis.multi();
      tx.incr(k);
      // Relative, so the key's life follows the API's clock (tests move it) and not Redis's.
      tx.pexpire(k, endOfDay - at.getTime() + 86_400_000);
      const out = await tx.exec();
      const [err, n] = out?.[0] ?? [new Error('Redis MULTI was discarded'), 0];
      if (err) throw err;
      return Number(n);
    },
    async forgive(address, at) {
      // Only a counter that exists and is above 0: never one without its expiry, never below 0.
      await redis.eval(
        "if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then return redis.call('DECR', KEYS[1]) end return 0",
        1,
        key(address, at),
      );
    },
  };
}

/**
 * Counts one attempt at an account's password before the password is checked, atomically, so
 * that attempts arriving together are numbered one by one as if they came in turn. Answers the
 * attempt's number since the last success or lockout, or undefined while the account is locked.
 * Only attempts numbered up to LOCKOUT_THRESHOLD may have their password checked.
 */
export function countAccountAttempt(db: Queryable, uid: string, at: Date): Promise<number | undefined> {
  return addAccountAttempt(db, uid, at);
}

/**
 * After a wrong password: the attempt numbered LOCKOUT_THRESHOLD locks the account (once, however
 * many attempts end together). Returns the lock's end when this failure locked the account.
 */
export async function lockAfterFailure(
  db: Queryable,
  uid: string,
  attempt: number,
  at: Date,
): Promise<Date | undefined> {
  if (attempt !== LOCKOUT_THRESHOLD) return undefined;
  return lockAccount(db, uid, at, LOCKOUT_BASE_MS, LOCKOUT_MAX_MS);
}

/**
 * Counts one failed password for an account, atomically; locks it when the count reaches the
 * threshold. Returns the new lock's end when this failure locked the account. (For callers that
 * count after the check; sign-in and password change count before it with countAccountAttempt.)
 */
export async function recordAccountFailure(db: Queryable, uid: string, at: Date): Promise<Date | undefined> {
  const attempt = await countAccountAttempt(db, uid, at);
  return attempt === undefined ? undefined : lockAfterFailure(db, uid, attempt, at);
}

export function recordAccountSuccess(db: Queryable, uid: string, at: Date): Promise<void> {
  return clearAccountFailures(db, uid, at);
}

/**
 * A right password whose sign-in goes on to a second step: its attempt is taken back, and the
 * failures before it stay counted, so wrong second steps lock the account as wrong passwords do
 * (a right password does not buy a fresh set of guesses at the second factor).
 */
export function takeBackAttempt(db: Queryable, uid: string): Promise<void> {
  return takeBackAccountAttempt(db, uid);
}
