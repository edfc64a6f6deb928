-- The staff trail's stream (and whatever else reads the trail as it grows) is woken when rows of
-- it commit, instead of only by its poll: a statement that appends to the trail notifies
-- 'sac_trail_committed', which PostgreSQL delivers to listeners once the transaction commits
-- (never when it rolls back; the notifications of one transaction fold into one).
CREATE FUNCTION sac_trail_committed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sac_trail_committed', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER activity_log_committed AFTER INSERT ON activity_log
  FOR EACH STATEMENT EXECUTE FUNCTION sac_trail_committed();
