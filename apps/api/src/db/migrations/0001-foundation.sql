-- Staff, their roles, sessions, one-time tokens, sign-in throttling and the activity log.

CREATE TABLE roles (
  name        text PRIMARY KEY,
  description text NOT NULL DEFAULT '',
  permissions text[] NOT NULL DEFAULT '{}',
  built_in    boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE staff (
  uid                 uuid PRIMARY KEY,
  email               text NOT NULL,
  full_name           text NOT NULL DEFAULT '',
  password_hash       text NOT NULL,
  created_at          timestamptz NOT NULL,
  last_login_at       timestamptz,
  password_changed_at timestamptz,
  -- consecutive failures since the last success or lockout, lockouts in a row, and the lock's end
  failed_logins       integer NOT NULL DEFAULT 0,
  lockouts            integer NOT NULL DEFAULT 0,
  locked_until        timestamptz
);
CREATE UNIQUE INDEX staff_email_lower_key ON staff (lower(email));

CREATE TABLE staff_roles (
  uid  uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  role text NOT NULL REFERENCES roles (name) ON UPDATE CASCADE,
  PRIMARY KEY (uid, role)
);

-- xtoken and xsign are kept only as SHA-256 hashes.
CREATE TABLE staff_sessions (
  id             bigserial PRIMARY KEY,
  uid            uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  token_hash     bytea NOT NULL UNIQUE,
  sign_hash      bytea NOT NULL,
  created_at     timestamptz NOT NULL,
  last_used_at   timestamptz NOT NULL,
  revoked_at     timestamptz,
  revoked_reason text,
  client_address text,
  user_agent     text
);
CREATE INDEX staff_sessions_uid_idx ON staff_sessions (uid) WHERE revoked_at IS NULL;

-- Reset-password and invitation tokens: single-use, short-lived, stored hashed.
CREATE TABLE staff_tokens (
  token_hash bytea PRIMARY KEY,
  uid        uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('reset', 'invite')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);
CREATE INDEX staff_tokens_uid_idx ON staff_tokens (uid) WHERE used_at IS NULL;

-- Failed sign-ins per client address and UTC day.
CREATE TABLE login_failures_by_address (
  address  text NOT NULL,
  day      date NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  PRIMARY KEY (address, day)
);

-- Append-only: rows are inserted, never updated or deleted by the application.
CREATE TABLE activity_log (
  id             bigserial PRIMARY KEY,
  at             timestamptz NOT NULL,
  actor_uid      uuid,
  actor_email    text,
  action         text NOT NULL,
  target_type    text,
  target_id      text,
  client_address text,
  details        jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX activity_log_actor_idx ON activity_log (actor_uid, id DESC);
CREATE INDEX activity_log_target_idx ON activity_log (target_type, target_id, id DESC);

CREATE TABLE app_meta (
  key   text PRIMARY KEY,
  value text NOT NULL
);
