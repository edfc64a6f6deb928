-- A prefix search answers up to 201 rows. With every column it shows in the index, it reads a few
-- index pages instead of one heap page per row (an index-only scan; the visibility map is set by
-- VACUUM, which autovacuum runs on PostgreSQL and seed:scale runs on PGlite). The indexes keep
-- their names: the email one is the unique key that write errors are recognised by.
CREATE INDEX customers_name_prefix_covering ON customers ((lower(first_name || ' ' || last_name)) text_pattern_ops)
  INCLUDE (uid, first_name, last_name, email, status, role, created_at, modified_at);
DROP INDEX customers_name_prefix;
ALTER INDEX customers_name_prefix_covering RENAME TO customers_name_prefix;
ALTER INDEX customers_name_prefix ALTER COLUMN 1 SET STATISTICS 1000;

CREATE UNIQUE INDEX customers_email_key_covering ON customers ((lower(email)) text_pattern_ops)
  INCLUDE (uid, first_name, last_name, email, status, role, created_at, modified_at);
DROP INDEX customers_email_key;
ALTER INDEX customers_email_key_covering RENAME TO customers_email_key;

ANALYZE customers;
