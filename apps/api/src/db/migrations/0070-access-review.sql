-- Periodic access review (docs/decisions.md, "Periodic access review"): when a staff member's
-- roles were last confirmed, and by whom (the confirming SuperAdmin's email, kept as the trail
-- keeps actors, so it outlives their account). NULL: never confirmed; the review's clock then runs
-- from when the account was created.
ALTER TABLE staff ADD COLUMN roles_confirmed_at timestamptz;
ALTER TABLE staff ADD COLUMN roles_confirmed_by text;
-- Members there when the review begins have their clock start now (confirmed by no one): an
-- install's older accounts fall due in ACCESS_REVIEW_DAYS, shown as due first, instead of being
-- overdue at once and, with ACCESS_REVIEW_AUTO_REVOKE on, stripped at its first run.
UPDATE staff SET roles_confirmed_at = now() WHERE roles_confirmed_at IS NULL;
