-- A bulk job is a record of what was done to customers' data (issue 35): like the trail, it
-- outlives its actor. Deleting a staff member no longer deletes the jobs they asked for (and, by
-- their cascade, the jobs' items): the job keeps their uid and email, as activity_log keeps its
-- actor's (and approved_by_uid the approver's), with no reference to a row that may go. A queued
-- job whose requester was deleted then fails when it runs (bulk-runner.ts: their account was
-- deleted), instead of vanishing.
ALTER TABLE bulk_jobs DROP CONSTRAINT bulk_jobs_actor_uid_fkey;
