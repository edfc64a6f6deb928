-- A site's registration fields (default ones as configured, and custom ones) and data sources.
CREATE TABLE registration_fields (
  app_id      bigint NOT NULL REFERENCES sites (app_id) ON DELETE CASCADE,
  name        text NOT NULL,
  display     text NOT NULL,
  type        text NOT NULL,
  rules       text NOT NULL DEFAULT '',
  data_source text NOT NULL DEFAULT '',
  custom      boolean NOT NULL,
  enabled     boolean NOT NULL DEFAULT true,
  modified_at timestamptz NOT NULL,
  PRIMARY KEY (app_id, name)
);

CREATE TABLE data_sources (
  app_id      bigint NOT NULL REFERENCES sites (app_id) ON DELETE CASCADE,
  name        text NOT NULL,
  parent_name text NOT NULL DEFAULT '',
  rules       text NOT NULL DEFAULT '',
  items       jsonb NOT NULL,
  modified_at timestamptz NOT NULL,
  PRIMARY KEY (app_id, name)
);
