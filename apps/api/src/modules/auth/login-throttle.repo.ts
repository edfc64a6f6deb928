import type { Queryable } from '../../db/db.ts';

/** The SQL of sign-in throttling: failures per client address and day, and per account (login-throttle.ts). */

/** Reads how many failed sign-ins an address made on a UTC day (`day` as YYYY-MM-DD); 0 when none. */
export async function addressFailuresOn(db: Queryable, address: string, day: string): Promise<number> {
  const r = await db.query<{ failures: number }>(
    'SELECT failures FROM login_failures_by_address WHERE address = $1 AND day = $2',
    [address, day],
  );
  return r.rows[0]?.failures ?? 0;
}

/** Adds one failed sign-in to an address's count of a UTC day, atomically; answers the new count. */
export async function addAddressFailure(db: Queryable, address: string, day: string): Promise<number> {
  const r = await db.query<{ failures: number }>(
    `INSERT INTO login_failures_by_address (address, day, failures) VALUES ($1, $2, 1)
     ON CONFLICT (address, day) DO UPDATE SET failures = login_failures_by_address.failures + 1
     RETURNING failures`,
    [address, day],
  );
  return r.rows[0]?.failures ?? 1;
}

/** Takes one failure back from an address's count of a UTC day, never below 0. */
export async function takeBackAddressFailure(db: Queryable, address: string, day: string): Promise<void> {
  await db.query(
    'UPDATE login_failures_by_address SET failures = failures - 1 WHERE address = $1 AND day = $2 AND failures > 0',
    [address, day],
  );
}

/** Adds one to an unlocked account's staff.failed_logins, atomically; answers the new count, undefined while locked. */
export async function addAccountAttempt(db: Queryable, uid: string, at: Date): Promise<number | undefined> {
  const r = await db.query<{ failed_logins: number }>(
    `UPDATE staff SET failed_logins = failed_logins + 1
      WHERE uid = $1 AND (locked_until IS NULL OR locked_until <= $2)
      RETURNING failed_logins`,
    [uid, at],
  );
  return r.rows[0]?.failed_logins;
}

/**
 * Locks an unlocked account: staff.failed_logins to 0, lockouts + 1, locked_until `at` plus
 * baseMs doubled per earlier lockout in a row, at most maxMs. Answers locked_until, undefined
 * when the account was already locked (another failure locked it first).
 */
export async function lockAccount(
  db: Queryable,
  uid: string,
  at: Date,
  baseMs: number,
  maxMs: number,
): Promise<Date | undefined> {
  const r = await db.query<{ locked_until: Date }>(
    `UPDATE staff SET failed_logins = 0, lockouts = lockouts + 1,
        locked_until = $2::timestamptz + make_interval(secs => LEAST($3::float8 * power(2, lockouts), $4::float8) / 1000)
      WHERE uid = $1 AND (locked_until IS NULL OR locked_until <= $2)
      RETURNING locked_until`,
    [uid, at, baseMs, maxMs],
  );
  const until = r.rows[0]?.locked_until;
  return until ? new Date(until) : undefined;
}

/** After a right password: clears the account's failures, lockouts and lock, and writes last_login_at. */
export async function clearAccountFailures(db: Queryable, uid: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE staff SET failed_logins = 0, lockouts = 0, locked_until = NULL, last_login_at = $2 WHERE uid = $1`,
    [uid, at],
  );
}

/**
 * Takes one attempt back from an account's count, never below 0: a right password that leads to a
 * second step is no failure, but the count is not cleared until the second step succeeds.
 */
export async function takeBackAccountAttempt(db: Queryable, uid: string): Promise<void> {
  await db.query('UPDATE staff SET failed_logins = GREATEST(failed_logins - 1, 0) WHERE uid = $1', [uid]);
}
