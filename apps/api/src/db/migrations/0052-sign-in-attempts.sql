-- Sign-in attempts of an account (modules/auth/login-throttle.ts, docs/decisions.md "Lockouts
-- that always end"). failed_logins now holds only wrong passwords since the last right one or
-- lock; factor_failures the wrong second steps since the last completed sign-in or lock; and the
-- attempts admitted and not yet answered are counted apart, with the time of the latest, so that
-- attempts of a process that died stop counting a minute later. An attempt is admitted only
-- while the larger count plus those in flight stays under the threshold.
ALTER TABLE staff
  ADD COLUMN factor_failures    integer NOT NULL DEFAULT 0,
  ADD COLUMN sign_ins_in_flight integer NOT NULL DEFAULT 0,
  ADD COLUMN in_flight_since    timestamptz;

-- The old count mixed failures with attempts that were never answered or were taken back; an
-- account left above the threshold without a lock (refused for ever) starts one failure short of
-- the threshold, so it is open to its owner and locks at the next wrong password.
UPDATE staff SET failed_logins = 4 WHERE failed_logins > 4;
