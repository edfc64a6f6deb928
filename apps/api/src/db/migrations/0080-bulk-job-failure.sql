-- A queued job runs on its requester's rights as they are when it runs (issue 35): one whose
-- requester is gone, deactivated or no longer holds the permission of its list fails, with the
-- sentence why; its items not yet run are refused with it.
ALTER TABLE bulk_jobs DROP CONSTRAINT bulk_jobs_state_check;
ALTER TABLE bulk_jobs ADD CONSTRAINT bulk_jobs_state_check
  CHECK (state IN ('planned', 'awaiting-approval', 'queued', 'running', 'done', 'cancelled', 'failed'));
ALTER TABLE bulk_jobs ADD COLUMN failure text;
