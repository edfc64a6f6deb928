-- Issue 17: the request list and the impersonation log are filtered, ordered and paged in SQL.

-- A request's newest log entry, which reads Expired once its grant has expired. Kept by a trigger,
-- so every writer of the log keeps it; the Expired filter of the log walks it instead of the log.
ALTER TABLE impersonation_requests ADD COLUMN last_log_id bigint;
UPDATE impersonation_requests r SET last_log_id = m.id
  FROM (SELECT request_id, max(id) AS id FROM impersonation_log GROUP BY request_id) m
 WHERE m.request_id = r.id;

-- Once per statement, so a batch of steps costs one update per request, not one per step.
CREATE FUNCTION impersonation_log_keep_latest() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE impersonation_requests r SET last_log_id = GREATEST(r.last_log_id, a.id)
    FROM (SELECT request_id, max(id) AS id FROM added GROUP BY request_id) a
   WHERE r.id = a.request_id AND r.last_log_id IS DISTINCT FROM GREATEST(r.last_log_id, a.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER impersonation_log_latest AFTER INSERT ON impersonation_log
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION impersonation_log_keep_latest();

-- The log by status, newest first (every status filter but Expired).
CREATE INDEX impersonation_log_status_idx ON impersonation_log (status, id DESC);
-- Approved requests by their newest entry: the Expired filter of the log.
CREATE INDEX impersonation_requests_last_log_idx ON impersonation_requests (last_log_id DESC)
  WHERE status = 'Approved';

-- An approval has its expiry (the state machine sets it); stated, so the list's Approved and
-- Expired filters are plain ranges on expires_at that the planner can estimate.
ALTER TABLE impersonation_requests ADD CONSTRAINT impersonation_requests_approval_expires
  CHECK (status <> 'Approved' OR expires_at IS NOT NULL);

-- The request list's order within a stored status: the newest action or change, then Id.
CREATE INDEX impersonation_requests_list_idx
  ON impersonation_requests (status, (COALESCE(action_taken_at, modified_at)) DESC, id DESC)
  WHERE deleted_at IS NULL;
-- Live grants (few) found by their expiry rather than among every approval ever made.
CREATE INDEX impersonation_requests_approved_expiry_idx ON impersonation_requests (expires_at)
  WHERE status = 'Approved' AND deleted_at IS NULL;
-- Customers' own requests, newest change first.
CREATE INDEX impersonation_requests_customer_idx ON impersonation_requests (modified_at DESC, id DESC)
  WHERE is_customer_request AND deleted_at IS NULL;
-- What a requester sees: what they asked for, in the list's order, or are assigned. The GIN index
-- without a pending list: PGlite runs no autovacuum, and every lookup would read that list.
CREATE INDEX impersonation_requests_initiator_idx
  ON impersonation_requests (lower(initiator_email), status, (COALESCE(action_taken_at, modified_at)) DESC, id DESC)
  WHERE deleted_at IS NULL;
CREATE INDEX impersonation_requests_assignees_idx ON impersonation_requests USING gin (assignees)
  WITH (fastupdate = off) WHERE deleted_at IS NULL;

ANALYZE impersonation_requests;
ANALYZE impersonation_log;
