-- A bulk job asked for with an API token (its dry run; a run needs a person's step-up) runs with
-- that token's permissions (issue 35): the job names the token, so that the runner fails it once
-- the token is revoked or has expired, as it fails a job whose requester lost the permission. No
-- reference to staff_api_tokens: the job outlives the token's row (it goes with its owner), as it
-- outlives its actor (migration 0081). Null: asked for from a console session.
ALTER TABLE bulk_jobs ADD COLUMN api_token_id bigint;
