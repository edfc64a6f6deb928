import type { Queryable } from '../../db/db.ts';

/** Account lockout: after this many consecutive failures the account is locked. */
export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_BASE_MS = 60_000;
export const LOCKOUT_MAX_MS = 15 * 60_000;
/** Failed sign-ins one client address may make per UTC day before it gets HTTP 429. */
export const ADDRESS_DAILY_FAILURES = 100;

/** 1 minute for the first lockout in a row, doubling each time, never above 15 minutes. */
export const lockoutDurationMs = (lockoutsInARow: number): number =>
  Math.min(LOCKOUT_BASE_MS * 2 ** Math.max(0, lockoutsInARow - 1), LOCKOUT_MAX_MS);

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export async function addressFailuresToday(db: Queryable, address: string, at: Date): Promise<number> {
  const r = await db.query<{ failures: number }>(
    'SELECT failures FROM login_failures_by_address WHERE address = $1 AND day = $2',
    [address, utcDay(at)],
  );
  return r.rows[0]?.failures ?? 0;
}

export async function recordAddressFailure(db: Queryable, address: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO login_failures_by_address (address, day, failures) VALUES ($1, $2, 1)
     ON CONFLICT (address, day) DO UPDATE SET failures = login_failures_by_address.failures + 1`,
    [address, utcDay(at)],
  );
}

/**
 * Counts one failed password for an account, atomically; locks it when the count reaches the
 * threshold. Returns the new lock's end when this failure locked the account.
 */
export async function recordAccountFailure(db: Queryable, uid: string, at: Date): Promise<Date | undefined> {
  const r = await db.query<{ failed_logins: number; lockouts: number }>(
    'UPDATE staff SET failed_logins = failed_logins + 1 WHERE uid = $1 RETURNING failed_logins, lockouts',
    [uid],
  );
  const row = r.rows[0];
  if (!row || row.failed_logins < LOCKOUT_THRESHOLD) return undefined;
  const lockouts = row.lockouts + 1;
  const until = new Date(at.getTime() + lockoutDurationMs(lockouts));
  await db.query('UPDATE staff SET failed_logins = 0, lockouts = $2, locked_until = $3 WHERE uid = $1', [
    uid,
    lockouts,
    until,
  ]);
  return until;
}

export async function recordAccountSuccess(db: Queryable, uid: string, at: Date): Promise<void> {
  await db.query(
    'UPDATE staff SET failed_logins = 0, lockouts = 0, locked_until = NULL, last_login_at = $2 WHERE uid = $1',
    [uid, at],
  );
}
