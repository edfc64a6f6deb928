-- Periodic access review (docs/decisions.md, "Periodic access review"): when a staff member's
-- roles were last confirmed, and by whom (the confirming SuperAdmin's email, kept as the trail
-- keeps actors, so it outlives their account). NULL: never confirmed; the review's clock then runs
-- from when the account was created.
ALTER TABLE staff ADD COLUMN roles_confirmed_at timestamptz;
ALTER TABLE staff ADD COLUMN roles_confirmed_by text;
