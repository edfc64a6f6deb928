import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, preparedStatement, qb, rows } from '../../db/sql.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { newSessionRow } from './sessions.repo.ts';
import { rolesOf, type StaffRow } from './staff.repo.ts';

/**
 * The SQL of a sign-in that spans tables (login-throttle.ts, auth.service.ts): the one statement
 * before the hash (the address's count, the account, its admission and its factors) and the one
 * change after it (the account's counts, the session or the ticket, the address's count taken back).
 */

type AdmitInput = {
  at: Date;
  threshold: number;
  staleMs: number;
  address: string;
  day: string;
  counted: number | null;
  addressBudget: number;
};

/** The address's count of the day, this attempt counted (here, unless another store counted it). */
const countAddress = (a: AdmitInput) =>
  qb
    .with('counted', (w) =>
      w
        .insertInto('login_failures_by_address')
        .columns(['address', 'day', 'failures'])
        .expression(
          w
            .selectNoFrom([
              sql`${a.address}::text`.as('address'),
              sql`${a.day}::date`.as('day'),
              sql.lit(1).as('failures'),
            ])
            .where(sql<boolean>`${a.counted}::int IS NULL`),
        )
        .onConflict((oc) =>
          oc
            .columns(['address', 'day'])
            .doUpdateSet({ failures: sql`login_failures_by_address.failures + 1` }),
        )
        .returning('failures'),
    )
    .with('address', (w) =>
      w.selectNoFrom(sql<number>`COALESCE((SELECT failures FROM counted), ${a.counted}::int)`.as('failures')),
    );

/**
 * The statement before the hash. The address's row is counted before the account's row is locked
 * (the account's lookup depends on the count), in the order the change after the hash takes them:
 * two sign-ins never each hold one of the two rows while waiting for the other. `counted` is the
 * address's count when another store (Redis) counted it (null: count it here).
 */
function admitStatement(account: { email: string } | { uid: string }, a: AdmitInput) {
  /** Attempts still in flight on the found row: its count, or 0 when the latest was admitted staleMs or more before now. */
  const inFlight = sql<number>`(CASE WHEN f.in_flight_since > ${a.at}::timestamptz - make_interval(secs => ${a.staleMs}::float8 / 1000)
  THEN f.sign_ins_in_flight ELSE 0 END)`;
  return countAddress(a)
    .with('found', (w) =>
      w
        .selectFrom('staff as s')
        .select([
          's.uid',
          's.email',
          's.full_name',
          's.password_hash',
          's.created_at',
          's.last_login_at',
          's.password_changed_at',
          's.invitation_pending',
          's.failed_logins',
          's.factor_failures',
          's.lockouts',
          's.locked_until',
          's.sign_ins_in_flight',
          's.in_flight_since',
        ])
        .where(
          'email' in account
            ? sql<boolean>`lower(s.email) = lower(${account.email}::text)`
            : sql<boolean>`s.uid = ${account.uid}::uuid`,
        )
        // a deactivated member signs in no way (migration 0060): as an unknown account
        .where('s.deactivated_at', 'is', null)
        .where(sql<boolean>`(SELECT failures FROM address) <= ${a.addressBudget}::int`)
        .forUpdate(),
    )
    .with('admitted', (w) =>
      w
        .updateTable('staff as t')
        .from('found as f')
        .set({ sign_ins_in_flight: sql<number>`${inFlight} + 1`, in_flight_since: a.at })
        .whereRef('t.uid', '=', 'f.uid')
        .where((eb) => eb.or([eb('f.locked_until', 'is', null), eb('f.locked_until', '<=', a.at)]))
        .where(sql<boolean>`GREATEST(f.failed_logins, f.factor_failures) + ${inFlight} < ${a.threshold}::int`)
        .returning('t.uid'),
    )
    .selectFrom('address as a')
    .leftJoin('found as f', (j) => j.onTrue())
    .select((eb) => [
      'a.failures as address_failures',
      'f.uid',
      'f.email',
      'f.full_name',
      'f.password_hash',
      'f.created_at',
      'f.last_login_at',
      'f.password_changed_at',
      'f.invitation_pending',
      'f.failed_logins',
      'f.lockouts',
      'f.locked_until',
      rolesOf(eb.ref('f.uid').$notNull()).as('roles'),
      eb.exists(eb.selectFrom('admitted').select(sql.lit(1).as('one'))).as('admitted'),
      eb
        .exists(
          eb
            .selectFrom('staff_totp')
            .select(sql.lit(1).as('one'))
            .whereRef('staff_totp.uid', '=', 'f.uid')
            .where('staff_totp.confirmed_at', 'is not', null),
        )
        .as('totp'),
      eb
        .selectFrom('staff_passkeys')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('staff_passkeys.uid', '=', 'f.uid')
        .as('passkeys'),
      eb
        .selectFrom('staff_recovery_codes')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('staff_recovery_codes.uid', '=', 'f.uid')
        .where('staff_recovery_codes.used_at', 'is', null)
        .as('recovery_left'),
    ]);
}

/** The statement before the hash, built once for each way of naming the account (sql.ts, preparedStatement). */
type AdmitValues = [Date, number, number, string, string, number | null, number];
const admitInput = (...[at, threshold, staleMs, address, day, counted, addressBudget]: AdmitValues) => ({
  at,
  threshold,
  staleMs,
  address,
  day,
  counted,
  addressBudget,
});
const admitByEmail = preparedStatement((email: string, ...values: AdmitValues) =>
  admitStatement({ email }, admitInput(...values)),
);
const admitByUid = preparedStatement((uid: string, ...values: AdmitValues) =>
  admitStatement({ uid }, admitInput(...values)),
);

export interface AdmittedSignIn {
  /** The address's failures today, this attempt counted. */
  addressFailures: number;
  /** The account, as it stood under its row's lock; undefined when unknown (or over the address's budget: not looked up). */
  staff: StaffRow | undefined;
  /** Whether the attempt was admitted (put in flight). */
  admitted: boolean;
  factors: { totp: boolean; passkeys: number; recoveryLeft: number };
}

/**
 * One statement before a password is checked: the address's count of the day (unless `counted`
 * by another store), and within the address's budget the account (by email or uid) read under
 * its row's lock, one attempt admitted at it when the account is unlocked and the larger failure
 * count plus the attempts in flight stays under `threshold` (login-throttle.ts, admitAttempt),
 * and its second factors. Committed on its own, so attempts sent together see each other.
 */
export async function admitSignInAttempt(
  db: Queryable,
  account: { email: string } | { uid: string },
  a: AdmitInput,
): Promise<AdmittedSignIn> {
  const values = [a.at, a.threshold, a.staleMs, a.address, a.day, a.counted, a.addressBudget] as const;
  // one row always: the address's count, the account's columns null when it was not found
  const row = (await firstRow(
    db,
    'email' in account ? admitByEmail(account.email, ...values) : admitByUid(account.uid, ...values),
  ))!;
  const { address_failures, admitted, totp, passkeys, recovery_left, ...f } = row;
  return {
    addressFailures: Number(address_failures),
    staff:
      f.uid === null
        ? undefined
        : {
            uid: f.uid,
            email: f.email!,
            full_name: f.full_name!,
            password_hash: f.password_hash!,
            created_at: f.created_at!,
            last_login_at: f.last_login_at,
            password_changed_at: f.password_changed_at,
            invitation_pending: f.invitation_pending!,
            failed_logins: f.failed_logins!,
            lockouts: f.lockouts!,
            locked_until: f.locked_until && new Date(f.locked_until),
            roles: f.roles,
          },
    admitted: Boolean(admitted),
    factors: { totp: Boolean(totp), passkeys: passkeys ?? 0, recoveryLeft: recovery_left ?? 0 },
  };
}

/**
 * The address's count of the day taken back (none when `address` and `day` are null: counted in
 * another store), as the first step of the change after the hash.
 */
const forgiven = (address: string | null, day: string | null) =>
  qb
    .updateTable('login_failures_by_address')
    .set((eb) => ({ failures: eb('failures', '-', sql.lit(1)) }))
    .where(sql<boolean>`address = ${address}::text`)
    .where(sql<boolean>`day = ${day}::date`)
    .where('failures', '>', sql.lit(0))
    .returning(sql.lit(1).as('one'));

/** The statement of openPasswordSession, built once (sql.ts, preparedStatement). */
const openSessionStatement = preparedStatement(
  (
    uid: string,
    passwordHash: string,
    tokenHash: Buffer,
    signHash: Buffer,
    at: Date,
    clientAddress: string | null,
    userAgent: string | null,
    forgiveAddress: string | null,
    forgiveDay: string | null,
  ) =>
    qb
      .with('forgiven', () => forgiven(forgiveAddress, forgiveDay))
      .with('signed', (w) =>
        w
          .updateTable('staff')
          .set({
            failed_logins: sql.lit(0),
            factor_failures: sql.lit(0),
            lockouts: sql.lit(0),
            locked_until: sql<null>`NULL`,
            last_login_at: at,
            sign_ins_in_flight: sql<number>`GREATEST(sign_ins_in_flight - 1, 0)`,
          })
          .where('uid', '=', uid)
          .where('password_hash', '=', passwordHash)
          // after the address's row: the count is taken back first (see admitSignInAttempt)
          .where(sql<boolean>`(SELECT count(*) FROM forgiven) >= 0`)
          .returning('uid'),
      )
      .with('made', (w) =>
        w
          .insertInto('staff_sessions')
          .columns([
            'uid',
            'token_hash',
            'sign_hash',
            'created_at',
            'last_used_at',
            'client_address',
            'user_agent',
          ])
          .expression(
            w
              .selectFrom('signed')
              .select([
                'uid',
                sql`${tokenHash}`.as('token_hash'),
                sql`${signHash}`.as('sign_hash'),
                sql`${at}`.as('created_at'),
                sql`${at}`.as('last_used_at'),
                sql`${clientAddress}`.as('client_address'),
                sql`${userAgent}`.as('user_agent'),
              ]),
          )
          .returning('id'),
      )
      .selectFrom('made')
      .select('id'),
);

/**
 * A right password's change, in one statement: the address's count taken back, the account's
 * counts and lock cleared and its attempt out of flight (its row's write lock), and the session;
 * only while the password checked is still the account's: a reset or deletion racing the sign-in
 * wins (it holds the row, or changed it first), and the answer is undefined, on which the caller
 * rolls the write back (the address's count with it). The address's row is taken before the
 * account's, as the statement before the hash takes them (admitSignInAttempt).
 */
export async function openPasswordSession(
  db: Queryable,
  s: { uid: string; at: Date; clientAddress: string; userAgent: string | null },
  verifiedPasswordHash: string,
  forgive: { address: string; day: string } | undefined,
): Promise<{ xtoken: string; xsign: string; id: number } | undefined> {
  const { xtoken, xsign, row: session } = newSessionRow(s);
  const row = await firstRow(
    db,
    openSessionStatement(
      session.uid,
      verifiedPasswordHash,
      session.token_hash,
      session.sign_hash,
      session.created_at,
      session.client_address,
      session.user_agent,
      forgive?.address ?? null,
      forgive?.day ?? null,
    ),
  );
  return row ? { xtoken, xsign, id: row.id } : undefined;
}

/** The statement of issuePasswordTicket, built once (sql.ts, preparedStatement). */
const issueTicketStatement = preparedStatement(
  (
    uid: string,
    kind: 'verify' | 'enrol',
    passwordHash: string,
    ticketHash: Buffer,
    at: Date,
    expiresAt: Date,
    forgiveAddress: string | null,
    forgiveDay: string | null,
  ) =>
    qb
      .with('forgiven', () => forgiven(forgiveAddress, forgiveDay))
      .with('passed', (w) =>
        w
          .updateTable('staff')
          .set({
            sign_ins_in_flight: sql<number>`GREATEST(sign_ins_in_flight - 1, 0)`,
            failed_logins: sql.lit(0),
          })
          .where('uid', '=', uid)
          .where(sql<boolean>`(SELECT count(*) FROM forgiven) >= 0`)
          .returning('uid'),
      )
      .with('cleared', (w) =>
        w
          .deleteFrom('staff_sign_in_tickets')
          .where((eb) => eb.or([eb('uid', '=', uid), eb('expires_at', '<=', at)])),
      )
      .with('issued', (w) =>
        w
          .insertInto('staff_sign_in_tickets')
          .columns(['ticket_hash', 'uid', 'kind', 'password_hash', 'created_at', 'expires_at'])
          .expression(
            w
              .selectFrom('passed')
              .select([
                sql`${ticketHash}`.as('ticket_hash'),
                'uid',
                sql`${kind}`.as('kind'),
                sql`${passwordHash}`.as('password_hash'),
                sql`${at}`.as('created_at'),
                sql`${expiresAt}`.as('expires_at'),
              ]),
          )
          .returning('uid'),
      )
      .selectFrom('issued')
      .select('uid'),
);

/**
 * A right password with a second step to follow, in one statement: the address's count taken
 * back (its row first, as in openPasswordSession), the wrong passwords cleared and the attempt out
 * of flight (the rest stays, login-throttle.ts passwordRight), the account's earlier tickets (and
 * every expired one) replaced by a new single-use ticket. Undefined when the account is gone (the
 * caller rolls the write back).
 */
export async function issuePasswordTicket(
  db: Queryable,
  t: { uid: string; kind: 'verify' | 'enrol'; passwordHash: string; at: Date; ttlMs: number },
  forgive: { address: string; day: string } | undefined,
): Promise<{ ticket: string; expiresAt: Date } | undefined> {
  const ticket = randomSecret();
  const expiresAt = new Date(t.at.getTime() + t.ttlMs);
  const issued = await rows(
    db,
    issueTicketStatement(
      t.uid,
      t.kind,
      t.passwordHash,
      hashSecret(ticket),
      t.at,
      expiresAt,
      forgive?.address ?? null,
      forgive?.day ?? null,
    ),
  );
  return issued.length > 0 ? { ticket, expiresAt } : undefined;
}
