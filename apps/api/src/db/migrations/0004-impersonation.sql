-- Impersonation requests, their append-only log, and the customer's consent links.
CREATE TABLE impersonation_requests (
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  app_id                 bigint NOT NULL REFERENCES sites (app_id) ON DELETE CASCADE,
  initiator_uid          uuid REFERENCES staff (uid) ON DELETE SET NULL,
  initiator_email        text NOT NULL,
  is_customer_request    boolean NOT NULL DEFAULT false,
  consent                text NOT NULL DEFAULT 'pending' CHECK (consent IN ('pending', 'granted', 'denied')),
  consent_at             timestamptz,
  consent_address        text,
  priority               text NOT NULL CHECK (priority IN ('Low', 'Moderate', 'High', 'Critical')),
  description            text NOT NULL,
  assignees              text[] NOT NULL,
  proxy_roles            text[] NOT NULL,
  additional_permissions text[] NOT NULL DEFAULT '{}',
  duration_minutes       integer NOT NULL,
  status                 text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Approved', 'Rejected', 'Revoked')),
  action_taken_by        text,
  action_taken_at        timestamptz,
  expires_at             timestamptz,
  approved_roles         text[] NOT NULL DEFAULT '{}',
  approved_permissions   text[] NOT NULL DEFAULT '{}',
  reason                 text NOT NULL DEFAULT '',
  deleted_at             timestamptz,
  created_at             timestamptz NOT NULL,
  modified_at            timestamptz NOT NULL
);
CREATE INDEX impersonation_requests_app_idx ON impersonation_requests (app_id) WHERE deleted_at IS NULL;
CREATE INDEX impersonation_requests_modified_idx ON impersonation_requests (modified_at DESC, id DESC);

-- Append-only: every step of every request.
CREATE TABLE impersonation_log (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_id bigint NOT NULL,
  at         timestamptz NOT NULL,
  actor      text,
  event      text NOT NULL,
  status     text NOT NULL,
  client_address text,
  details    jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX impersonation_log_request_idx ON impersonation_log (request_id, id);
CREATE INDEX impersonation_log_at_idx ON impersonation_log (id DESC);

-- The owner's consent link: single-use, stored hashed.
CREATE TABLE impersonation_consent_tokens (
  token_hash bytea PRIMARY KEY,
  request_id bigint NOT NULL REFERENCES impersonation_requests (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
