-- Grants stay with whom they were granted.

-- The holder of an impersonation grant: recorded once, at approval, and never changed by later
-- actions (a revoke, in part or whole, only narrows or ends it). On a staff member's request it is
-- the requester; on a customer's own request, the SuperAdmin who approved it. action_taken_by
-- stays "the last one who acted", which every action overwrites.
ALTER TABLE impersonation_requests
  ADD COLUMN holder_uid uuid REFERENCES staff (uid) ON DELETE SET NULL,
  ADD COLUMN holder_email text;

-- Existing grants (approved, and revoked for the record). Staff requests: the requester, by uid only
-- (an initiator deleted since holds nothing, and a newcomer with the same email must not inherit it).
UPDATE impersonation_requests
SET holder_uid = initiator_uid, holder_email = initiator_email
WHERE NOT is_customer_request AND status IN ('Approved', 'Revoked') AND initiator_uid IS NOT NULL;

-- Customer requests: the approver as the append-only log recorded it (action_taken_by may already
-- name a later revoker), matched to the staff member who has that email now.
UPDATE impersonation_requests r
SET holder_email = a.actor, holder_uid = s.uid
FROM (
  SELECT DISTINCT ON (request_id) request_id, actor
  FROM impersonation_log WHERE event = 'approve' ORDER BY request_id, id
) a
LEFT JOIN staff s ON lower(s.email) = lower(a.actor)
WHERE r.id = a.request_id AND r.is_customer_request AND r.status IN ('Approved', 'Revoked');

-- When each staff member got each role. NULL: held since before this was recorded, or given at the
-- first start (demo staff): such a holder is not in the new-approver cool-down.
ALTER TABLE staff_roles ADD COLUMN granted_at timestamptz;

-- Backfill from the activity log: the latest creation or role change that gave the role.
UPDATE staff_roles sr
SET granted_at = (
  SELECT a.at FROM activity_log a
  WHERE a.target_type = 'staff' AND a.target_id = sr.uid::text
    AND ((a.action = 'team.roles' AND a.details -> 'to' ? sr.role AND NOT (a.details -> 'from' ? sr.role))
      OR (a.action = 'team.create' AND a.details -> 'roles' ? sr.role))
  ORDER BY a.id DESC LIMIT 1
);
