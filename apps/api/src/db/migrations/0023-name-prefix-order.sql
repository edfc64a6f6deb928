-- Search answers are ordered by name, then uid, and page from a cursor. With uid in the
-- key, a prefix search reads its page straight off the index in that order: no sort of the rows
-- sharing the cursor's name, so a later page costs what the first does.
CREATE INDEX customers_name_prefix_paged ON customers ((lower(first_name || ' ' || last_name)) text_pattern_ops, uid)
  INCLUDE (first_name, last_name, email, status, role, created_at, modified_at);
DROP INDEX customers_name_prefix;
ALTER INDEX customers_name_prefix_paged RENAME TO customers_name_prefix;
ALTER INDEX customers_name_prefix ALTER COLUMN 1 SET STATISTICS 1000;
ANALYZE customers;
