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

/** Attempts still in flight: the count, or 0 when the latest was admitted staleMs or more before $2. */
const IN_FLIGHT = `(CASE WHEN in_flight_since > $2::timestamptz - make_interval(secs => $4::float8 / 1000)
  THEN sign_ins_in_flight ELSE 0 END)`;

/**
 * Admits one attempt at an account (a password or a second step) before it is checked, in one
 * statement: while the account is unlocked and the larger of its two failure counts plus the
 * attempts in flight stays under `threshold`, one more is in flight. Answers whether it was
 * admitted and, when not, the lock's end as it stands; undefined when the account is gone.
 */
export async function admitAccountAttempt(
  db: Queryable,
  uid: string,
  at: Date,
  threshold: number,
  staleMs: number,
): Promise<{ admitted: boolean; lockedUntil: Date | null } | undefined> {
  const r = await db.query(
    `UPDATE staff SET sign_ins_in_flight = ${IN_FLIGHT} + 1, in_flight_since = $2
      WHERE uid = $1 AND (locked_until IS NULL OR locked_until <= $2)
        AND GREATEST(failed_logins, factor_failures) + ${IN_FLIGHT} < $3
      RETURNING uid`,
    [uid, at, threshold, staleMs],
  );
  if (r.rows.length > 0) return { admitted: true, lockedUntil: null };
  // A statement of its own: it sees what refused the attempt (a lock, others in flight, or the
  // account deleted meanwhile), which the snapshot of the one above may not.
  const now = await db.query<{ locked_until: Date | null }>('SELECT locked_until FROM staff WHERE uid = $1', [
    uid,
  ]);
  const row = now.rows[0];
  return row && { admitted: false, lockedUntil: row.locked_until && new Date(row.locked_until) };
}

/**
 * After a wrong password (`failed_logins`) or a wrong second step (`factor_failures`) of an
 * admitted attempt: one fewer in flight and one more failure of that kind; the failure that
 * brings an unlocked account to `threshold` locks it instead (both counts to 0, lockouts + 1,
 * locked_until `at` plus baseMs doubled per earlier lockout in a row, at most maxMs). Answers
 * the lock's end when this failure locked the account.
 */
export async function addAccountFailure(
  db: Queryable,
  uid: string,
  kind: 'failed_logins' | 'factor_failures',
  lock: { at: Date; threshold: number; baseMs: number; maxMs: number },
): Promise<Date | undefined> {
  const r = await db.query<{ locks: boolean; locked_until: Date | null }>(
    `WITH before AS (
       SELECT uid, ${kind} + 1 >= $3 AND (locked_until IS NULL OR locked_until <= $2) AS locks
         FROM staff WHERE uid = $1 FOR UPDATE)
     UPDATE staff s SET
       sign_ins_in_flight = GREATEST(s.sign_ins_in_flight - 1, 0),
       ${kind} = CASE WHEN b.locks THEN 0 ELSE s.${kind} + 1 END,
       ${kind === 'failed_logins' ? 'factor_failures' : 'failed_logins'} =
         CASE WHEN b.locks THEN 0 ELSE s.${kind === 'failed_logins' ? 'factor_failures' : 'failed_logins'} END,
       lockouts = s.lockouts + CASE WHEN b.locks THEN 1 ELSE 0 END,
       locked_until = CASE WHEN b.locks
         THEN $2::timestamptz + make_interval(secs => LEAST($4::float8 * power(2, s.lockouts), $5::float8) / 1000)
         ELSE s.locked_until END
     FROM before b WHERE s.uid = b.uid
     RETURNING b.locks, s.locked_until`,
    [uid, lock.at, lock.threshold, lock.baseMs, lock.maxMs],
  );
  const row = r.rows[0];
  return row?.locks && row.locked_until ? new Date(row.locked_until) : undefined;
}

/**
 * After a right password that leads to a second step: one fewer in flight and the wrong passwords
 * forgotten; wrong second steps, lockouts in a row and the lock stay.
 */
export async function clearPasswordFailures(db: Queryable, uid: string): Promise<void> {
  await db.query(
    'UPDATE staff SET sign_ins_in_flight = GREATEST(sign_ins_in_flight - 1, 0), failed_logins = 0 WHERE uid = $1',
    [uid],
  );
}

/**
 * After a completed sign-in: both failure counts, lockouts and the lock cleared, last_login_at
 * written, and one fewer in flight when the sign-in's last step was an admitted attempt.
 */
export async function clearAccountFailures(
  db: Queryable,
  uid: string,
  at: Date,
  admitted: boolean,
): Promise<void> {
  await db.query(
    `UPDATE staff SET failed_logins = 0, factor_failures = 0, lockouts = 0, locked_until = NULL, last_login_at = $2,
       sign_ins_in_flight = GREATEST(sign_ins_in_flight - $3, 0)
     WHERE uid = $1`,
    [uid, at, admitted ? 1 : 0],
  );
}

/** An admitted attempt that ended with no answer on the account (an error, a password changed under it). */
export async function releaseAccountAttempt(db: Queryable, uid: string): Promise<void> {
  await db.query('UPDATE staff SET sign_ins_in_flight = GREATEST(sign_ins_in_flight - 1, 0) WHERE uid = $1', [
    uid,
  ]);
}
