-- Instances keep live sessions between calls; these tell every instance, at commit, that a
-- session was ended or that staff, their roles or the roles' permissions changed. The idle
-- renewal (an UPDATE of last_used_at only) and new sessions tell nobody: they change no session
-- an instance holds.
CREATE FUNCTION sac_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sac_auth_changed', '');
  RETURN NULL;
END;
$$;

CREATE TRIGGER staff_sessions_ended AFTER UPDATE OF revoked_at OR DELETE ON staff_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();
CREATE TRIGGER staff_changed AFTER UPDATE OR DELETE ON staff
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();
CREATE TRIGGER staff_roles_changed AFTER INSERT OR UPDATE OR DELETE ON staff_roles
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();
CREATE TRIGGER roles_changed AFTER INSERT OR UPDATE OR DELETE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();
