-- How each site hashes passwords, previous passwords and security answers. The HMAC key is
-- kept encrypted (AES-256-GCM under the field key) and never answered.
CREATE TABLE encryption_settings (
  app_id      bigint NOT NULL REFERENCES sites (app_id) ON DELETE CASCADE,
  set_name    text NOT NULL CHECK (set_name IN ('password', 'previous-password', 'security-answer')),
  settings    jsonb NOT NULL,
  key_sealed  bytea,
  modified_at timestamptz NOT NULL,
  PRIMARY KEY (app_id, set_name)
);
