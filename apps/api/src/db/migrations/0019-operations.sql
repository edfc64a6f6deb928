-- Periodic jobs run on one instance: the lease of each job, when REDIS_URL is unset.
CREATE TABLE job_leases (
  name       text PRIMARY KEY,
  holder     text NOT NULL,
  expires_at timestamptz NOT NULL
);

-- The expiry notice of an approved grant is sent once: the job stamps the row as it claims it.
ALTER TABLE impersonation_requests ADD COLUMN expiry_notified_at timestamptz;
-- Grants that had expired before this migration are not announced late.
UPDATE impersonation_requests SET expiry_notified_at = expires_at
  WHERE status = 'Approved' AND expires_at <= now();
CREATE INDEX impersonation_requests_expiry_notice_idx ON impersonation_requests (expires_at)
  WHERE status = 'Approved' AND expiry_notified_at IS NULL;
