-- Bulk actions on the customer search (issue 35): deactivate or activate the owned sites of the
-- customers selected. A job of this list has no one customer (each item names its site's owner as
-- its key), so it keeps customer_uid null, as bulk_jobs_customer_of_sites already requires.
ALTER TABLE bulk_jobs DROP CONSTRAINT bulk_jobs_list_check;
ALTER TABLE bulk_jobs ADD CONSTRAINT bulk_jobs_list_check
  CHECK (list IN ('customer-sites', 'impersonation-requests', 'staff-sessions', 'team-invitations', 'customers'));
