-- Issue 17: the customer search sorts by Created Date and Modified Date. A search matching many
-- customers walks the sort key's btree in order and tests each entry's name (as a name search's
-- substring tier walks the name btree), so these carry what a page shows and the name: the walk
-- reads the index only. (created_at DESC, uid DESC) of 0003 is the same index read backwards.
CREATE INDEX customers_created_sort ON customers (created_at, uid)
  INCLUDE (first_name, last_name, email, status, role, modified_at);
DROP INDEX customers_created_idx;
CREATE INDEX customers_modified_sort ON customers (modified_at, uid)
  INCLUDE (first_name, last_name, email, status, role, created_at);
ANALYZE customers;
