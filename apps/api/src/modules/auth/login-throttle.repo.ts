import { type ExpressionBuilder, sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import type { DB } from '../../db/schema.generated.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';

/** The SQL of sign-in throttling: failures per client address and day, and per account (login-throttle.ts). */

/** A UTC day as YYYY-MM-DD, compared as a date. */
const dayOf = (day: string) => sql<Date>`${day}::date`;

/** Reads how many failed sign-ins an address made on a UTC day (`day` as YYYY-MM-DD); 0 when none. */
export async function addressFailuresOn(db: Queryable, address: string, day: string): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('login_failures_by_address')
      .select('failures')
      .where('address', '=', address)
      .where('day', '=', dayOf(day)),
  );
  return r?.failures ?? 0;
}

/** Adds one failed sign-in to an address's count of a UTC day, atomically; answers the new count. */
export async function addAddressFailure(db: Queryable, address: string, day: string): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .insertInto('login_failures_by_address')
      .values({ address, day, failures: 1 })
      .onConflict((oc) =>
        oc
          .columns(['address', 'day'])
          .doUpdateSet((eb) => ({ failures: eb('login_failures_by_address.failures', '+', 1) })),
      )
      .returning('failures'),
  );
  return r?.failures ?? 1;
}

/** Takes one failure back from an address's count of a UTC day, never below 0. */
export async function takeBackAddressFailure(db: Queryable, address: string, day: string): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('login_failures_by_address')
      .set((eb) => ({ failures: eb('failures', '-', 1) }))
      .where('address', '=', address)
      .where('day', '=', dayOf(day))
      .where('failures', '>', 0),
  );
}

/** Attempts still in flight: the count, or 0 when the latest was admitted staleMs or more before `at`. */
const inFlight = (eb: ExpressionBuilder<DB, 'staff'>, at: Date, staleMs: number) =>
  eb
    .case()
    .when('in_flight_since', '>', new Date(at.getTime() - staleMs))
    .then(eb.ref('sign_ins_in_flight'))
    .else(0)
    .end();

/** One fewer attempt in flight, never below 0. */
const oneFewerInFlight = (eb: ExpressionBuilder<DB, 'staff'>, n = 1) =>
  eb.fn<number>('greatest', [eb('sign_ins_in_flight', '-', n), eb.lit(0)]);

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
  const r = await rows(
    db,
    qb
      .updateTable('staff')
      .set((eb) => ({ sign_ins_in_flight: eb(inFlight(eb, at, staleMs), '+', 1), in_flight_since: at }))
      .where('uid', '=', uid)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
      .where((eb) =>
        eb(
          eb(eb.fn<number>('greatest', ['failed_logins', 'factor_failures']), '+', inFlight(eb, at, staleMs)),
          '<',
          threshold,
        ),
      )
      .returning('uid'),
  );
  if (r.length > 0) return { admitted: true, lockedUntil: null };
  // A statement of its own: it sees what refused the attempt (a lock, others in flight, or the
  // account deleted meanwhile), which the snapshot of the one above may not.
  const row = await firstRow(db, qb.selectFrom('staff').select('locked_until').where('uid', '=', uid));
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
  const other = kind === 'failed_logins' ? 'factor_failures' : 'failed_logins';
  const row = await firstRow(
    db,
    qb
      .with('before', (w) =>
        w
          .selectFrom('staff')
          .select((eb) => [
            'uid',
            eb
              .and([
                eb(eb(kind, '+', 1), '>=', lock.threshold),
                eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', lock.at)]),
              ])
              .as('locks'),
          ])
          .where('uid', '=', uid)
          .forUpdate(),
      )
      .updateTable('staff as s')
      .from('before as b')
      .set((eb) => {
        const locks = eb.ref('b.locks');
        return {
          sign_ins_in_flight: eb.fn<number>('greatest', [eb('s.sign_ins_in_flight', '-', 1), eb.lit(0)]),
          [kind]: eb
            .case()
            .when(locks)
            .then(0)
            .else(eb(`s.${kind}`, '+', 1))
            .end(),
          [other]: eb
            .case()
            .when(locks)
            .then(0)
            .else(eb.ref(`s.${other}`))
            .end(),
          lockouts: eb('s.lockouts', '+', eb.case().when(locks).then(1).else(0).end()),
          locked_until: eb
            .case()
            .when(locks)
            .then(
              sql<Date>`${lock.at}::timestamptz + make_interval(secs => LEAST(${lock.baseMs}::float8 * power(2, ${eb.ref('s.lockouts')}), ${lock.maxMs}::float8) / 1000)`,
            )
            .else(eb.ref('s.locked_until'))
            .end(),
        };
      })
      .whereRef('s.uid', '=', 'b.uid')
      .returning(['b.locks', 's.locked_until']),
  );
  return row?.locks && row.locked_until ? new Date(row.locked_until) : undefined;
}

/**
 * After a right password that leads to a second step: one fewer in flight and the wrong passwords
 * forgotten; wrong second steps, lockouts in a row and the lock stay.
 */
export async function clearPasswordFailures(db: Queryable, uid: string): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('staff')
      .set((eb) => ({ sign_ins_in_flight: oneFewerInFlight(eb), failed_logins: 0 }))
      .where('uid', '=', uid),
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
  await execute(
    db,
    qb
      .updateTable('staff')
      .set((eb) => ({
        failed_logins: 0,
        factor_failures: 0,
        lockouts: 0,
        locked_until: null,
        last_login_at: at,
        sign_ins_in_flight: oneFewerInFlight(eb, admitted ? 1 : 0),
      }))
      .where('uid', '=', uid),
  );
}

/** An admitted attempt that ended with no answer on the account (an error, a password changed under it). */
export async function releaseAccountAttempt(db: Queryable, uid: string): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('staff')
      .set((eb) => ({ sign_ins_in_flight: oneFewerInFlight(eb) }))
      .where('uid', '=', uid),
  );
}
