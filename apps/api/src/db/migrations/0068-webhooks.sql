-- Webhooks: subscriptions, the deliveries of each event to each, and every attempt made.
-- The events are the staff trail's rows (activity_log): each change writes its trail row in its own
-- transaction, so the trail is the outbox. A fan-out reads it in commit order (txid, id), below
-- every running transaction, from its own cursor, and queues one delivery per subscription.
CREATE TABLE webhook_subscriptions (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url                   text NOT NULL,
  description           text NOT NULL DEFAULT '',
  event_types           text[] NOT NULL,
  -- the signing keys, sealed with the field key (lib/field-crypto.ts)
  secret                bytea NOT NULL,
  previous_secret       bytea,
  previous_secret_until timestamptz,
  secret_rotated_at     timestamptz,
  state                 text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'paused')),
  paused_reason         text CHECK (paused_reason IN ('manual', 'failing')),
  paused_at             timestamptz,
  paused_by             text,
  -- the first failed attempt since the last delivered one (null: not failing)
  failing_since         timestamptz,
  last_delivered_at     timestamptz,
  created_by_uid        uuid REFERENCES staff (uid) ON DELETE SET NULL,
  created_by            text,
  created_at            timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id  bigint NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  -- webhook-id: evt_<trail row id>, or evt_test_… for a test; a redelivery keeps its event's
  event_id         text NOT NULL,
  event_type       text NOT NULL,
  -- the body, exactly as signed and sent
  payload          text NOT NULL,
  -- the event's own time (the trail row's), from which the day of retries counts
  occurred_at      timestamptz NOT NULL,
  created_at       timestamptz NOT NULL,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempt_count    integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  delivered_at     timestamptz,
  redelivery_of    bigint
);
-- what is due, soonest first; only pending rows are in it
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (subscription_id, id DESC);
CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at);

CREATE TABLE webhook_attempts (
  delivery_id  bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  at           timestamptz NOT NULL,
  code         integer,
  error        text,
  duration_ms  integer NOT NULL
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, at);

-- Where the fan-out stands in the trail: the last row it read, as (transaction, id).
CREATE TABLE webhook_fanout (
  only_row  boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  txid      bigint NOT NULL,
  last_id   bigint NOT NULL
);
-- Starts at the end of the trail as it stands: a first subscription is not sent the past.
INSERT INTO webhook_fanout (txid, last_id)
  SELECT coalesce(max(txid), 0), coalesce(max(id), 0) FROM activity_log;

-- The subscriptions are the SuperAdmin's (as single sign-on is); a custom role may be given it.
UPDATE roles SET permissions = array_append(permissions, 'webhooks.manage')
 WHERE built_in AND name = 'SuperAdmin' AND NOT ('webhooks.manage' = ANY (permissions));

-- "Your webhook was paused": its maker is told when the console pauses a subscription that failed too long.
ALTER TABLE staff_notifications DROP CONSTRAINT staff_notifications_kind_check;
ALTER TABLE staff_notifications ADD CONSTRAINT staff_notifications_kind_check
  CHECK (kind IN ('assigned', 'consent', 'decided', 'revoked', 'expiring', 'sessions-ended', 'webhook-paused'));
ALTER TABLE staff_notification_preferences DROP CONSTRAINT staff_notification_preferences_kind_check;
ALTER TABLE staff_notification_preferences ADD CONSTRAINT staff_notification_preferences_kind_check
  CHECK (kind IN ('assigned', 'consent', 'decided', 'revoked', 'expiring', 'sessions-ended', 'webhook-paused'));
