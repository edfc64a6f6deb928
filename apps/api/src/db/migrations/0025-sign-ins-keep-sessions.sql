-- A sign-in writes staff's failure counters, lock and last sign-in (and a new session, which told
-- nobody already). No live session holds those columns, so they no longer tell every instance to
-- drop the sessions it keeps: during a burst of sign-ins every other call had to read its session
-- again. What a kept session holds of staff is uid, email and full_name; deleting staff ends it.
DROP TRIGGER staff_changed ON staff;
CREATE TRIGGER staff_changed AFTER UPDATE OF uid, email, full_name OR DELETE ON staff
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();
