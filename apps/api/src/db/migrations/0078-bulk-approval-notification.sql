-- SuperAdmins are told in the bell (and by mail, by default) when another staff member's bulk job
-- waits for a second SuperAdmin's approval.
ALTER TABLE staff_notifications DROP CONSTRAINT staff_notifications_kind_check;
ALTER TABLE staff_notifications ADD CONSTRAINT staff_notifications_kind_check
  CHECK (kind IN ('assigned', 'consent', 'decided', 'revoked', 'expiring', 'sessions-ended', 'webhook-paused',
                  'break-glass', 'break-glass-reviewed', 'bulk-approval'));
ALTER TABLE staff_notification_preferences DROP CONSTRAINT staff_notification_preferences_kind_check;
ALTER TABLE staff_notification_preferences ADD CONSTRAINT staff_notification_preferences_kind_check
  CHECK (kind IN ('assigned', 'consent', 'decided', 'revoked', 'expiring', 'sessions-ended', 'webhook-paused',
                  'break-glass', 'break-glass-reviewed', 'bulk-approval'));
