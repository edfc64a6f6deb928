-- Issue 18 item 2: staff notifications. The table is the truth (what a staff member was told,
-- read or not); the live stream only says "something new" and the console reads the rows. A row
-- is written in the same transaction as the change that causes it.
CREATE TABLE staff_notifications (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recipient_uid uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('assigned', 'consent', 'decided', 'revoked', 'expiring', 'sessions-ended')),
  -- the impersonation request it is about (none for sessions ended); kept when the request goes
  request_id    bigint,
  app_name      text,
  -- who did it (never the recipient); null for the periodic job and the customer
  actor_email   text,
  -- kind-specific facts for the text: the decision, the expiry, how many sessions ended
  details       jsonb NOT NULL DEFAULT '{}',
  created_at    timestamptz NOT NULL,
  read_at       timestamptz
);
-- a recipient's list, newest first, and the stream's "after id" reads
CREATE INDEX staff_notifications_recipient ON staff_notifications (recipient_uid, id);
-- the unread count
CREATE INDEX staff_notifications_unread ON staff_notifications (recipient_uid) WHERE read_at IS NULL;

-- Per staff member and kind: in-app only (email = false) or also email. No row: the kind's default.
CREATE TABLE staff_notification_preferences (
  uid   uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  kind  text NOT NULL CHECK (kind IN ('assigned', 'consent', 'decided', 'revoked', 'expiring', 'sessions-ended')),
  email boolean NOT NULL,
  PRIMARY KEY (uid, kind)
);

-- "Grant expiring in 15 minutes" is told once per grant: the periodic job claims and stamps the
-- row in one UPDATE (as expiry_notified_at does for the end).
ALTER TABLE impersonation_requests ADD COLUMN expiring_notified_at timestamptz;
CREATE INDEX impersonation_requests_expiring ON impersonation_requests (expires_at)
  WHERE status = 'Approved' AND expiring_notified_at IS NULL AND deleted_at IS NULL;
