-- A customer list sorted by time and filtered by an email prefix walks the (created_at, uid) or
-- (modified_at, uid) index in order and tests each entry. The test asked the address table, which
-- the planner answered by hashing every matching address first: 61,784 for 'ma' at 1M customers,
-- 25 ms before the first entry. A customer's addresses are their email and sign-in email,
-- lowercased (migration 0029's trigger), so the walk tests the entry itself once the index holds
-- the sign-in email too.
CREATE INDEX customers_created_sort_addresses ON customers (created_at, uid)
  INCLUDE (first_name, last_name, email, auth_email, status, role, modified_at);
DROP INDEX customers_created_sort;
ALTER INDEX customers_created_sort_addresses RENAME TO customers_created_sort;
CREATE INDEX customers_modified_sort_addresses ON customers (modified_at, uid)
  INCLUDE (first_name, last_name, email, auth_email, status, role, created_at);
DROP INDEX customers_modified_sort;
ALTER INDEX customers_modified_sort_addresses RENAME TO customers_modified_sort;
ANALYZE customers;
