-- Bulk actions on more lists than a customer's sites (issue 35): a job names its list (its kind of
-- item), and a job of a list that is not a customer's has no customer. Every job written before
-- is of a customer's sites, which the default says; its rows stay valid.
ALTER TABLE bulk_jobs ADD COLUMN list text NOT NULL DEFAULT 'customer-sites'
  CHECK (list IN ('customer-sites', 'impersonation-requests', 'staff-sessions'));
ALTER TABLE bulk_jobs ALTER COLUMN customer_uid DROP NOT NULL;
ALTER TABLE bulk_jobs ADD CONSTRAINT bulk_jobs_customer_of_sites
  CHECK ((list = 'customer-sites') = (customer_uid IS NOT NULL));
-- What each item's single action is given beyond its target (a revocation's comment, the staff
-- member whose sessions a staff-sessions job ends).
ALTER TABLE bulk_jobs ADD COLUMN params jsonb NOT NULL DEFAULT '{}';
