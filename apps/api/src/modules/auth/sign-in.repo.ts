import { prepared, type Queryable } from '../../db/db.ts';
import { hashSecret, randomSecret } from '../../lib/secrets.ts';
import { newSessionRow } from './sessions.repo.ts';
import type { StaffRow } from './staff.repo.ts';

/**
 * The SQL of a sign-in that spans tables (login-throttle.ts, auth.service.ts): the one statement
 * before the hash (the address's count, the account, its admission and its factors) and the one
 * change after it (the account's counts, the session or the ticket, the address's count taken back).
 */

/** Attempts still in flight on row `r`: its count, or 0 when the latest was admitted staleMs ($4) or more before $2. */
const inFlight = (
  r: string,
) => `(CASE WHEN ${r}.in_flight_since > $2::timestamptz - make_interval(secs => $4::float8 / 1000)
  THEN ${r}.sign_ins_in_flight ELSE 0 END)`;

/**
 * $1 the email or uid, $2 now, $3 the lockout threshold, $4 staleMs, $5 the address, $6 its UTC
 * day, $7 the address's count when another store (Redis) counted it (NULL: count it here), $8 the
 * address's daily budget. The address's row is counted before the account's row is locked (the
 * account's lookup depends on the count), in the order the change after the hash takes them: two
 * sign-ins never each hold one of the two rows while waiting for the other.
 */
const admitSql = (by: 'email' | 'uid') =>
  prepared(`WITH counted AS (
  INSERT INTO login_failures_by_address (address, day, failures)
  SELECT $5::text, $6::date, 1 WHERE $7::int IS NULL
  ON CONFLICT (address, day) DO UPDATE SET failures = login_failures_by_address.failures + 1
  RETURNING failures
), address AS (
  SELECT COALESCE((SELECT failures FROM counted), $7::int) AS failures
), found AS (
  SELECT s.uid, s.email, s.full_name, s.password_hash, s.created_at, s.last_login_at, s.password_changed_at,
         s.invitation_pending, s.failed_logins, s.factor_failures, s.lockouts, s.locked_until,
         s.sign_ins_in_flight, s.in_flight_since
    FROM staff s
   WHERE ${by === 'email' ? 'lower(s.email) = lower($1::text)' : 's.uid = $1::uuid'}
     AND (SELECT failures FROM address) <= $8::int
     FOR UPDATE
), admitted AS (
  UPDATE staff t SET sign_ins_in_flight = ${inFlight('f')} + 1, in_flight_since = $2
    FROM found f
   WHERE t.uid = f.uid AND (f.locked_until IS NULL OR f.locked_until <= $2)
     AND GREATEST(f.failed_logins, f.factor_failures) + ${inFlight('f')} < $3::int
  RETURNING t.uid
)
SELECT a.failures AS address_failures, f.uid, f.email, f.full_name, f.password_hash, f.created_at, f.last_login_at,
       f.password_changed_at, f.invitation_pending, f.failed_logins, f.lockouts, f.locked_until,
       COALESCE((SELECT array_agg(r.role ORDER BY r.role) FROM staff_roles r WHERE r.uid = f.uid), '{}') AS roles,
       EXISTS (SELECT 1 FROM admitted) AS admitted,
       EXISTS (SELECT 1 FROM staff_totp WHERE uid = f.uid AND confirmed_at IS NOT NULL) AS totp,
       (SELECT count(*)::int FROM staff_passkeys WHERE uid = f.uid) AS passkeys,
       (SELECT count(*)::int FROM staff_recovery_codes WHERE uid = f.uid AND used_at IS NULL) AS recovery_left
  FROM address a LEFT JOIN found f ON true`);
const ADMIT_BY_EMAIL = admitSql('email');
const ADMIT_BY_UID = admitSql('uid');

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
  a: {
    at: Date;
    threshold: number;
    staleMs: number;
    address: string;
    day: string;
    counted: number | null;
    addressBudget: number;
  },
): Promise<AdmittedSignIn> {
  const r = await db.query<
    StaffRow & {
      address_failures: number;
      admitted: boolean;
      totp: boolean | null;
      passkeys: number | null;
      recovery_left: number | null;
    }
  >('email' in account ? ADMIT_BY_EMAIL : ADMIT_BY_UID, [
    'email' in account ? account.email : account.uid,
    a.at,
    a.threshold,
    a.staleMs,
    a.address,
    a.day,
    a.counted,
    a.addressBudget,
  ]);
  const row = r.rows[0]!;
  const { address_failures, admitted, totp, passkeys, recovery_left, ...staff } = row;
  return {
    addressFailures: Number(address_failures),
    staff: staff.uid
      ? { ...staff, locked_until: staff.locked_until && new Date(staff.locked_until) }
      : undefined,
    admitted: Boolean(admitted),
    factors: { totp: Boolean(totp), passkeys: passkeys ?? 0, recoveryLeft: recovery_left ?? 0 },
  };
}

/**
 * $1 uid, $4 now, $7 the password hash the attempt was checked against; $8 and $9 the address and
 * its UTC day whose count is taken back (NULL: counted in another store).
 */
const OPEN_SESSION = prepared(`WITH forgiven AS (
  UPDATE login_failures_by_address SET failures = failures - 1
   WHERE address = $8::text AND day = $9::date AND failures > 0 RETURNING 1
), signed AS (
  UPDATE staff SET failed_logins = 0, factor_failures = 0, lockouts = 0, locked_until = NULL, last_login_at = $4,
         sign_ins_in_flight = GREATEST(sign_ins_in_flight - 1, 0)
   WHERE uid = $1 AND password_hash = $7 AND (SELECT count(*) FROM forgiven) >= 0 RETURNING uid
), made AS (
  INSERT INTO staff_sessions (uid, token_hash, sign_hash, created_at, last_used_at, client_address, user_agent)
  SELECT uid, $2, $3, $4, $4, $5, $6 FROM signed RETURNING id
)
SELECT id FROM made`);

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
  const r = await db.query<{ id: number }>(OPEN_SESSION, [
    session.uid,
    session.token_hash,
    session.sign_hash,
    session.created_at,
    session.client_address,
    session.user_agent,
    verifiedPasswordHash,
    forgive?.address ?? null,
    forgive?.day ?? null,
  ]);
  const row = r.rows[0];
  return row ? { xtoken, xsign, id: row.id } : undefined;
}

/**
 * $1 uid, $2 the ticket's hash, $3 its kind, $4 the password hash checked, $5 now, $6 its end;
 * $7 and $8 the address and day whose count is taken back (NULL: another store).
 */
const ISSUE_TICKET = prepared(`WITH forgiven AS (
  UPDATE login_failures_by_address SET failures = failures - 1
   WHERE address = $7::text AND day = $8::date AND failures > 0 RETURNING 1
), passed AS (
  UPDATE staff SET sign_ins_in_flight = GREATEST(sign_ins_in_flight - 1, 0), failed_logins = 0
   WHERE uid = $1 AND (SELECT count(*) FROM forgiven) >= 0 RETURNING uid
), cleared AS (
  DELETE FROM staff_sign_in_tickets WHERE uid = $1 OR expires_at <= $5
), issued AS (
  INSERT INTO staff_sign_in_tickets (ticket_hash, uid, kind, password_hash, created_at, expires_at)
  SELECT $2, uid, $3, $4, $5, $6 FROM passed RETURNING uid
)
SELECT uid FROM issued`);

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
  const r = await db.query(ISSUE_TICKET, [
    t.uid,
    hashSecret(ticket),
    t.kind,
    t.passwordHash,
    t.at,
    expiresAt,
    forgive?.address ?? null,
    forgive?.day ?? null,
  ]);
  return r.rows.length > 0 ? { ticket, expiresAt } : undefined;
}
