-- Staff notifications are kept STAFF_NOTIFICATION_RETENTION_DAYS (90 by default), read or not: a
-- periodic job deletes older ones a batch at a time, oldest first, through this index.
CREATE INDEX staff_notifications_created ON staff_notifications (created_at);
