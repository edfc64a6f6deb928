-- An impersonation request's version, raised by every change of its state (edit, approval,
-- rejection, revocation, deletion): answered as each request's Version and checked against
-- If-Match when the requester edits it, so an edit from a stale list is refused (412, 930).
ALTER TABLE impersonation_requests ADD COLUMN version bigint NOT NULL DEFAULT 1;
