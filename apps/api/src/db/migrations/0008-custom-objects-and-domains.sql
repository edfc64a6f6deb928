-- A site's custom objects (schema-defined data kept with profiles) and custom domains.
CREATE TABLE custom_objects (
  app_id      bigint NOT NULL REFERENCES sites (app_id) ON DELETE CASCADE,
  id          text NOT NULL,
  name        text NOT NULL,
  size_mb     integer NOT NULL CHECK (size_mb BETWEEN 1 AND 200),
  schema      text NOT NULL,
  created_at  timestamptz NOT NULL,
  modified_at timestamptz NOT NULL,
  PRIMARY KEY (app_id, id)
);

CREATE TABLE custom_domains (
  domain            text PRIMARY KEY,
  app_id            bigint NOT NULL REFERENCES sites (app_id) ON DELETE CASCADE,
  status            text NOT NULL DEFAULT 'Pending Verification' CHECK (status IN ('Pending Verification', 'Verified')),
  token             text NOT NULL,
  created_at        timestamptz NOT NULL,
  last_checked_at   timestamptz,
  last_check_result text,
  verified_at       timestamptz
);
CREATE INDEX custom_domains_app_idx ON custom_domains (app_id);
CREATE INDEX custom_domains_pending_idx ON custom_domains (last_checked_at) WHERE status = 'Pending Verification';
