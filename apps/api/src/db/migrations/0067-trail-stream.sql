-- The staff trail streamed to a SIEM (syslog, HTTP collector) from a stored cursor per sink.
-- Rows are read in the order of the transaction that wrote them (txid, then id) and only from
-- transactions older than every one still running (pg_snapshot_xmin), so a row whose id was taken
-- before a later row's but committed after it is never passed over: ids alone can commit out of
-- order. Existing rows take the migration's own id (stable default: no rewrite of the table).
ALTER TABLE activity_log ADD COLUMN txid bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX activity_log_txid_idx ON activity_log (txid, id);

CREATE TABLE trail_stream_cursors (
  sink          text PRIMARY KEY,
  -- the last row sent: (txid, id); (0, 0) before any
  txid          bigint NOT NULL DEFAULT 0,
  last_id       bigint NOT NULL DEFAULT 0,
  sent_rows     bigint NOT NULL DEFAULT 0,
  last_sent_at  timestamptz,
  last_error    text,
  last_error_at timestamptz,
  updated_at    timestamptz NOT NULL DEFAULT now()
);
