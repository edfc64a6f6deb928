-- Bulk actions (issue 35): one row per bulk job, naming its action, the selection or filter it was
-- asked for, its count and its actor; one row per item, with what the dry run planned for it (and
-- the state it saw, which the run checks again under the item's lock) and what the run did.
CREATE TABLE bulk_jobs (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- site.deactivate, site.activate
  action           text NOT NULL,
  -- the customer whose list the selection is of
  customer_uid     uuid NOT NULL,
  -- the selection as asked: the rows picked, or "all matching" with the filter
  selection        jsonb NOT NULL,
  item_count       integer NOT NULL,
  actor_uid        uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  actor_email      text NOT NULL,
  -- what the actor's call could reach when the job was asked for: roles, scope (the items run under it)
  actor            jsonb NOT NULL,
  client_address   text NOT NULL,
  -- planned (a dry run), awaiting-approval, queued, running, done, cancelled
  state            text NOT NULL CHECK (state IN ('planned', 'awaiting-approval', 'queued', 'running', 'done', 'cancelled')),
  approval_needed  boolean NOT NULL DEFAULT false,
  approved_by_uid  uuid,
  approved_by      text,
  approved_at      timestamptz,
  -- the job this one undoes (its inverse, over the items it changed)
  undo_of          bigint REFERENCES bulk_jobs (id) ON DELETE SET NULL,
  undone_by        bigint,
  created_at       timestamptz NOT NULL,
  started_at       timestamptz,
  finished_at      timestamptz,
  -- a running job's claim: another instance takes it over only after this
  claimed_until    timestamptz
);
CREATE INDEX bulk_jobs_due_idx ON bulk_jobs (id) WHERE state IN ('queued', 'running');
CREATE INDEX bulk_jobs_actor_idx ON bulk_jobs (actor_uid, id DESC);

CREATE TABLE bulk_job_items (
  job_id            bigint NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
  seq               integer NOT NULL,
  -- the site's appId
  target            bigint NOT NULL,
  label             text NOT NULL,
  -- what the dry run saw: the run refuses an item whose site moved on since
  seen_status       text NOT NULL,
  seen_version      bigint NOT NULL,
  -- change, or refuse (with the reason)
  planned           text NOT NULL CHECK (planned IN ('change', 'refuse')),
  planned_reason    text,
  -- null while pending; changed, refused, cancelled
  outcome           text CHECK (outcome IN ('changed', 'refused', 'cancelled')),
  outcome_reason    text,
  done_at           timestamptz,
  PRIMARY KEY (job_id, seq)
);
CREATE INDEX bulk_job_items_pending_idx ON bulk_job_items (job_id, seq) WHERE outcome IS NULL;

-- A job made due (queued: run, approved, an undo) wakes the runner on every instance once it
-- commits. Per row and only for a row now queued: a statement trigger would fire on the runner's
-- own claim too (an UPDATE of state, even of no row) and wake it again, without end.
CREATE FUNCTION sac_bulk_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sac_bulk_due', '');
  RETURN NULL;
END;
$$;
CREATE TRIGGER bulk_jobs_due AFTER INSERT OR UPDATE OF state ON bulk_jobs
  FOR EACH ROW WHEN (NEW.state = 'queued') EXECUTE FUNCTION sac_bulk_due();
