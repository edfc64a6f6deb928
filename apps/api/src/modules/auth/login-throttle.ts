import type { AddressFailureStore, AppContext } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  addAccountFailure,
  addAddressFailure,
  addressFailuresOn,
  admitAccountAttempt,
  clearAccountFailures,
  clearPasswordFailures,
  releaseAccountAttempt,
  takeBackAddressFailure,
} from './login-throttle.repo.ts';
import { admitSignInAttempt } from './sign-in.repo.ts';
import type { StaffRow } from './staff.repo.ts';

/** Account lockout: after this many consecutive failures the account is locked. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_BASE_MS = 60_000;
const LOCKOUT_MAX_MS = 15 * 60_000;
/**
 * An attempt admitted this long ago and never answered (its process died) no longer counts as
 * in flight: a check takes milliseconds, so only a dead one is this old.
 */
const IN_FLIGHT_STALE_MS = 60_000;
/** What a sign-in told to wait for the attempts in flight waits (Retry-After). */
const BUSY_RETRY_SECONDS = 1;
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
 * Takes back the address's count of an attempt that turned out right: in `tx`, the sign-in's one
 * transaction after its check, when the count is kept in the database.
 */
export async function forgiveAddress(
  store: AddressFailureStore,
  tx: Queryable,
  address: string,
  at: Date,
): Promise<void> {
  if (store.kind === 'database') await takeBackAddressFailure(tx, address, utcDay(at));
  else await store.forgive(address, at);
}

type Admission =
  | { kind: 'admitted' }
  | { kind: 'locked'; until: Date | null }
  /** Too many attempts of this account in flight: try again in a moment (signInBusy). */
  | { kind: 'busy' };

/**
 * Admits one attempt at an account (a password or a second step) before it is checked,
 * atomically. The attempts in flight count against the lockout as if each were wrong: only while
 * the failures so far plus those in flight stay under LOCKOUT_THRESHOLD is one more checked, so
 * attempts sent together never check more guesses than the same attempts sent one by one, and
 * the failure that reaches the threshold (with none in flight) locks. An admitted attempt ends
 * with exactly one of attemptFailed, passwordRight, a signed-in session's change or its release (checkAdmitted).
 */
async function admitAttempt(db: Queryable, uid: string, at: Date): Promise<Admission> {
  const r = await admitAccountAttempt(db, uid, at, LOCKOUT_THRESHOLD, IN_FLIGHT_STALE_MS);
  if (r?.admitted) return { kind: 'admitted' };
  if (!r || (r.lockedUntil && r.lockedUntil > at)) return { kind: 'locked', until: r?.lockedUntil ?? null };
  return { kind: 'busy' };
}

/** A sign-in attempt (a password, a current password) as counted before its check. */
export type SignInAttempt =
  /** Over the address's daily budget: nothing else was read or counted. */
  | { throttled: true }
  | {
      throttled: false;
      /** The account, read under its row's lock; undefined when unknown. */
      staff: StaffRow | undefined;
      admission: Admission | undefined;
      factors: { totp: boolean; passkeys: number; recoveryLeft: number };
    };

/**
 * Counts a sign-in attempt before its check, in one statement (sign-in.repo.ts): the address's
 * failure of the day (in that statement when the counts are in the database, else in the store
 * first), and within the address's budget the account read and one attempt admitted at it
 * (admitAttempt's rule), with its second factors. It commits on its own, before the check, so
 * attempts sent together count each other. An attempt told to wait (busy) has its address's
 * count taken back at once.
 */
export async function admitSignIn(
  db: Queryable,
  store: AddressFailureStore,
  addressBudget: number,
  account: { email: string } | { uid: string },
  address: string,
  at: Date,
): Promise<SignInAttempt> {
  const counted = store.kind === 'database' ? null : await store.recordFailure(address, at);
  if (counted !== null && counted > addressBudget) return { throttled: true };
  const r = await admitSignInAttempt(db, account, {
    at,
    threshold: LOCKOUT_THRESHOLD,
    staleMs: IN_FLIGHT_STALE_MS,
    address,
    day: utcDay(at),
    counted,
    addressBudget,
  }).catch(async (err: unknown) => {
    // Never admitted, so no verdict and no cost: the database's count went with its statement,
    // another store's is taken back here.
    if (counted !== null) await store.forgive(address, at).catch(() => undefined);
    throw err;
  });
  if (r.addressFailures > addressBudget) return { throttled: true };
  const lockedUntil = r.staff?.locked_until ?? null;
  const admission: Admission | undefined = !r.staff
    ? undefined
    : r.admitted
      ? { kind: 'admitted' }
      : lockedUntil && lockedUntil > at
        ? { kind: 'locked', until: lockedUntil }
        : { kind: 'busy' };
  // Told to wait, its password is never checked: not a failure of the address. Counted, it spent
  // the budget of everyone behind that address while an account's attempts were in flight (a
  // client retrying after Retry-After; a process killed mid-check leaves them for a minute).
  if (admission?.kind === 'busy') await forgiveAddress(store, db, address, at);
  return { throttled: false, staff: r.staff, admission, factors: r.factors };
}

/**
 * The address whose count a right attempt takes back in its own change statement, when the counts
 * are in the database; undefined when another store keeps them (forgiveInStore, after it).
 */
export const addressInDatabase = (
  store: AddressFailureStore,
  address: string,
  at: Date,
): { address: string; day: string } | undefined =>
  store.kind === 'database' ? { address, day: utcDay(at) } : undefined;

/** Takes back a right attempt's address count in a store other than the database (Redis). */
export async function forgiveInStore(store: AddressFailureStore, address: string, at: Date): Promise<void> {
  if (store.kind !== 'database') await store.forgive(address, at);
}

/** 429 (signInBusy) with Retry-After: other attempts of this account are being checked. */
export function busyError(): AppError {
  return Object.assign(new AppError('signInBusy'), { retryAfterSeconds: BUSY_RETRY_SECONDS });
}

/**
 * An admitted attempt was wrong: a wrong password, or a wrong second step. Counted apart (a right
 * password clears only the wrong passwords); either count reaching LOCKOUT_THRESHOLD locks the
 * account (lockoutDurationMs). Returns the lock's end when this failure locked it.
 */
export function attemptFailed(
  db: Queryable,
  uid: string,
  what: 'password' | 'second-step',
  at: Date,
): Promise<Date | undefined> {
  return addAccountFailure(db, uid, what === 'password' ? 'failed_logins' : 'factor_failures', {
    at,
    threshold: LOCKOUT_THRESHOLD,
    baseMs: LOCKOUT_BASE_MS,
    maxMs: LOCKOUT_MAX_MS,
  });
}

/**
 * An admitted password was right and a second step follows: the wrong passwords are cleared, but
 * not the wrong second steps, the lockouts in a row or a lock, so a right password buys no fresh
 * guesses at the second factor (docs/decisions.md, "Lockouts that always end").
 */
export function passwordRight(db: Queryable, uid: string): Promise<void> {
  return clearPasswordFailures(db, uid);
}

/**
 * Runs the check of an admitted attempt and its verdict's write: `run` calls `settled()` once the
 * verdict is written. An attempt that ends otherwise (an error, a password changed under it) has
 * no verdict and spends nothing: it is no longer in flight at its account, and its address's
 * count is taken back, so a failing store does not use up the day's budget of everyone behind
 * that address while a client retries.
 */
export async function checkAdmitted<T>(
  ctx: Pick<AppContext, 'db' | 'addressFailures'>,
  attempt: { uid: string; address: string; at: Date },
  run: (settled: () => void) => Promise<T>,
): Promise<T> {
  let done = false;
  try {
    return await run(() => {
      done = true;
    });
  } finally {
    if (!done) {
      // each on its own: the store that failed the attempt may fail these too
      await releaseAccountAttempt(ctx.db, attempt.uid).catch(() => undefined);
      await forgiveAddress(ctx.addressFailures, ctx.db, attempt.address, attempt.at).catch(() => undefined);
    }
  }
}

/**
 * Counts one failed password for an account as an attempt admitted and found wrong; answers the
 * new lock's end when it locked the account (for callers that count after the check).
 */
export async function recordAccountFailure(db: Queryable, uid: string, at: Date): Promise<Date | undefined> {
  const admission = await admitAttempt(db, uid, at);
  return admission.kind === 'admitted' ? attemptFailed(db, uid, 'password', at) : undefined;
}

/** A completed sign-in that was not an admitted attempt (a factor set up at sign-in). */
export function recordAccountSuccess(db: Queryable, uid: string, at: Date): Promise<void> {
  return clearAccountFailures(db, uid, at, false);
}
