-- A subscription's tests and redeliveries of the last hour are counted under its lock before another
-- is queued (WEBHOOK_MANUAL_PER_HOUR): this index holds those rows only, so the count reads a few
-- entries whatever the subscription's own traffic.
CREATE INDEX webhook_deliveries_manual_idx ON webhook_deliveries (subscription_id, created_at)
  WHERE event_type = 'webhook.test' OR redelivery_of IS NOT NULL;
