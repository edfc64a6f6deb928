-- The staff audit trail is activity_log. Each row gains what an auditor filters on: the request
-- that wrote it, the impersonation request a write went through, and the customer and site it
-- touched. Impersonation steps (kept for the Impersonation Logs screen in impersonation_log) are
-- copied in, and from now on written to both. Neither table accepts UPDATE, DELETE or TRUNCATE.
ALTER TABLE activity_log
  ADD COLUMN request_id text,
  ADD COLUMN impersonation_request_id bigint,
  ADD COLUMN customer_uid uuid,
  ADD COLUMN app_id bigint;

UPDATE activity_log SET customer_uid = target_id::uuid
 WHERE target_type = 'customer' AND target_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
UPDATE activity_log SET app_id = (details->>'appId')::bigint WHERE details->>'appId' ~ '^[0-9]{1,15}$';
UPDATE activity_log SET impersonation_request_id = (details->>'impersonationRequestId')::bigint
 WHERE details->>'impersonationRequestId' ~ '^[0-9]{1,15}$';

INSERT INTO activity_log (at, actor_uid, actor_email, action, target_type, target_id, client_address, details,
                          impersonation_request_id, app_id, customer_uid)
SELECT l.at, s.uid, l.actor, 'impersonation.' || l.event, 'impersonation-request', l.request_id::text,
       l.client_address, l.details || jsonb_build_object('status', l.status), l.request_id, r.app_id, st.owner_uid
  FROM impersonation_log l
  LEFT JOIN impersonation_requests r ON r.id = l.request_id
  LEFT JOIN sites st ON st.app_id = r.app_id
  LEFT JOIN staff s ON lower(s.email) = lower(l.actor)
 ORDER BY l.id;

-- Free text looks in these, through a trigram index (terms of three characters or more).
ALTER TABLE activity_log ADD COLUMN search_text text GENERATED ALWAYS AS (
  lower(coalesce(actor_email, '') || ' ' || action || ' ' || coalesce(target_id, '') || ' ' ||
        coalesce(client_address, '') || ' ' || coalesce(request_id, ''))
) STORED;

-- Newest first, keyset-paged on (at, id), alone or within one filter.
CREATE INDEX activity_log_at_idx ON activity_log (at DESC, id DESC);
CREATE INDEX activity_log_actor_email_idx ON activity_log (lower(actor_email), at DESC, id DESC);
CREATE INDEX activity_log_action_idx ON activity_log (action, at DESC, id DESC);
CREATE INDEX activity_log_customer_uid_idx ON activity_log (customer_uid, at DESC, id DESC) WHERE customer_uid IS NOT NULL;
CREATE INDEX activity_log_app_idx ON activity_log (app_id, at DESC, id DESC) WHERE app_id IS NOT NULL;
CREATE INDEX activity_log_search_trgm ON activity_log USING gin (search_text gin_trgm_ops);

-- Append-only in the database itself, whoever connects: changing or removing a row fails.
CREATE FUNCTION refuse_audit_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The audit trail is append-only: % on % is refused.', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER activity_log_append_only BEFORE UPDATE OR DELETE ON activity_log
  FOR EACH ROW EXECUTE FUNCTION refuse_audit_change();
CREATE TRIGGER activity_log_no_truncate BEFORE TRUNCATE ON activity_log
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change();
CREATE TRIGGER impersonation_log_append_only BEFORE UPDATE OR DELETE ON impersonation_log
  FOR EACH ROW EXECUTE FUNCTION refuse_audit_change();
CREATE TRIGGER impersonation_log_no_truncate BEFORE TRUNCATE ON impersonation_log
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_audit_change();

ANALYZE activity_log;
