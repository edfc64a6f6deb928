-- Two indexes that were their table's primary key again, read the other way (a btree is read both
-- ways): the log's by Id newest first (0004) and the notices' list (0044). Each cost every insert
-- of its table and answered nothing the key does not. schema-indexes.test.ts keeps out any other.
DROP INDEX impersonation_log_at_idx;
DROP INDEX customer_notices_list_idx;
