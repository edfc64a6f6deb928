-- A step-up (staff_sessions.verified_at) changes a session other instances keep: they must read it
-- again, or the retried call that lands on another instance is asked to step up once more.
DROP TRIGGER staff_sessions_ended ON staff_sessions;
CREATE TRIGGER staff_sessions_ended AFTER UPDATE OF revoked_at, verified_at OR DELETE ON staff_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();
