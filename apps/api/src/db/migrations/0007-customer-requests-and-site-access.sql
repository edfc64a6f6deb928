-- The owner's page of every access to their site, reached from the consent email: a long-lived
-- link per email, stored hashed.
CREATE TABLE site_access_tokens (
  token_hash bytea PRIMARY KEY,
  app_id     bigint NOT NULL REFERENCES sites (app_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX impersonation_log_request_at_idx ON impersonation_log (request_id, at);
