-- Break-glass access (issue 35, docs/decisions.md "Break-glass access"): a SuperAdmin opens access
-- to a site at once, without the owner's consent or another's approval, for at most 60 minutes.
-- The grant is an impersonation request stored Approved from the start (its consent recorded as
-- given by the break-glass rule: consent_at stays NULL, never asked), so it follows every grant's
-- rule (scope, expiry, every call logged, revoke). Its review: another SuperAdmin closes it with
-- a note within 24 hours of the opening.
ALTER TABLE impersonation_requests
  ADD COLUMN break_glass boolean NOT NULL DEFAULT false,
  ADD COLUMN review_closed_at timestamptz,
  ADD COLUMN review_closed_by text,
  ADD COLUMN review_note text CHECK (review_note IS NULL OR char_length(review_note) BETWEEN 1 AND 1000);
-- The review queue: the open reviews, oldest first.
CREATE INDEX impersonation_requests_open_reviews_idx ON impersonation_requests (created_at, id)
  WHERE break_glass AND review_closed_at IS NULL;

-- Every other SuperAdmin is told of an opening in the bell; the opener of a closed review too.
ALTER TABLE staff_notifications DROP CONSTRAINT staff_notifications_kind_check;
ALTER TABLE staff_notifications ADD CONSTRAINT staff_notifications_kind_check
  CHECK (kind IN ('assigned', 'consent', 'decided', 'revoked', 'expiring', 'sessions-ended', 'webhook-paused',
                  'break-glass', 'break-glass-reviewed'));
ALTER TABLE staff_notification_preferences DROP CONSTRAINT staff_notification_preferences_kind_check;
ALTER TABLE staff_notification_preferences ADD CONSTRAINT staff_notification_preferences_kind_check
  CHECK (kind IN ('assigned', 'consent', 'decided', 'revoked', 'expiring', 'sessions-ended', 'webhook-paused',
                  'break-glass', 'break-glass-reviewed'));
