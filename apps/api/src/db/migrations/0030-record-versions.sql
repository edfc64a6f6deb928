-- A version per edited record, raised by every write of its editable fields: reads answer it as an
-- ETag and writes may name it in If-Match, so a write from a stale form is refused (412, 930)
-- instead of silently restoring what another editor changed.
ALTER TABLE customers ADD COLUMN version bigint NOT NULL DEFAULT 1;
