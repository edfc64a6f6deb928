-- Issue 17: the impersonation lists sort by a column (sort=key, -key), keyset-paged in SQL; each
-- sort walks an index in order instead of sorting the whole table.

-- Requests, within one stored status (each display status is a branch on its stored status, as
-- the list's own order is): by Id (sort=id, and within a status for sort=status), by modified
-- date, by priority's severity (Low 1 .. Critical 4, impersonation.repo.ts PRIORITY_RANK).
CREATE INDEX impersonation_requests_status_id_idx ON impersonation_requests (status, id)
  WHERE deleted_at IS NULL;
CREATE INDEX impersonation_requests_status_modified_idx ON impersonation_requests (status, modified_at, id)
  WHERE deleted_at IS NULL;
CREATE INDEX impersonation_requests_status_priority_idx ON impersonation_requests
  (status, (CASE priority WHEN 'Low' THEN 1 WHEN 'Moderate' THEN 2 WHEN 'High' THEN 3 ELSE 4 END), id)
  WHERE deleted_at IS NULL;
-- By site name: the sites in name order, each site's requests by Id, and within a stored status
-- for a status filter.
CREATE INDEX impersonation_requests_app_id_idx ON impersonation_requests (app_id, id) WHERE deleted_at IS NULL;
CREATE INDEX impersonation_requests_app_status_idx ON impersonation_requests (app_id, status, id)
  WHERE deleted_at IS NULL;
DROP INDEX impersonation_requests_app_idx;

-- The log by site name needs each site's entries by Id: the entry carries its request's site,
-- set on insert by a trigger (every writer; a request never changes site). The append-only
-- trigger is lifted for the one backfill and put back.
ALTER TABLE impersonation_log ADD COLUMN app_id bigint;
DROP TRIGGER impersonation_log_append_only ON impersonation_log;
UPDATE impersonation_log l SET app_id = r.app_id FROM impersonation_requests r WHERE r.id = l.request_id;
CREATE TRIGGER impersonation_log_append_only BEFORE UPDATE OR DELETE ON impersonation_log
  FOR EACH ROW EXECUTE FUNCTION refuse_audit_change();
CREATE FUNCTION impersonation_log_set_app() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.app_id IS NULL THEN
    NEW.app_id := (SELECT app_id FROM impersonation_requests WHERE id = NEW.request_id);
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER impersonation_log_app BEFORE INSERT ON impersonation_log
  FOR EACH ROW EXECUTE FUNCTION impersonation_log_set_app();
CREATE INDEX impersonation_log_app_idx ON impersonation_log (app_id, id);
-- The log by request (request_id, id: impersonation_log_request_idx) and by time, each also
-- within a stored status for the status filters.
CREATE INDEX impersonation_log_time_idx ON impersonation_log (at, id);
CREATE INDEX impersonation_log_status_request_idx ON impersonation_log (status, request_id, id);
CREATE INDEX impersonation_log_status_time_idx ON impersonation_log (status, at, id);

ANALYZE impersonation_requests;
ANALYZE impersonation_log;
