-- Refused staff calls in the trail, folded: the first refusal of (actor, endpoint, what was
-- missing) in a window is an activity_log row; repeats in the window only count here, and become
-- one summary row (with their count) when the next refusal after the window comes or the
-- periodic flush finds the window closed. activity_log stays append-only; this table holds at
-- most one row per actor, endpoint and reason, so a flood of refusals cannot grow either.
CREATE TABLE staff_refusals (
  actor_uid uuid NOT NULL,
  endpoint text NOT NULL,
  missing text NOT NULL,
  actor_email text NOT NULL,
  client_address text,
  status integer NOT NULL,
  error_code integer NOT NULL,
  -- the open window: when its first refusal came (written to the trail), its last, and the
  -- repeats since the first not yet written
  window_start timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  repeats integer NOT NULL DEFAULT 0,
  -- set by the refusal that opened a new window: the unwritten repeats of the window it closed
  closed_repeats integer NOT NULL DEFAULT 0,
  closed_start timestamptz,
  closed_last timestamptz,
  PRIMARY KEY (actor_uid, endpoint, missing)
);
-- No index beyond the key: the table is small (a row per actor, endpoint and reason), the flush
-- reads it whole, and a repeat's update then changes no indexed column, so it is a HOT update in
-- place (an index on repeats or last_at made each repeat add index entries: 3.5 times an insert).
