-- Bulk actions on the team list (issue 35): resend pending invitations. A team member's id is a
-- uuid, not a number: an item keeps it as its key (its target is then its place in the job).
ALTER TABLE bulk_jobs DROP CONSTRAINT bulk_jobs_list_check;
ALTER TABLE bulk_jobs ADD CONSTRAINT bulk_jobs_list_check
  CHECK (list IN ('customer-sites', 'impersonation-requests', 'staff-sessions', 'team-invitations'));
ALTER TABLE bulk_job_items ADD COLUMN target_key text;
