-- A rotated site API secret: the previous one's hash stays accepted until previous_secret_until
-- (the grace the staff member chose, none to 24 hours), then it is refused.
ALTER TABLE sites ADD COLUMN previous_secret_hash bytea;
ALTER TABLE sites ADD COLUMN previous_secret_until timestamptz;
