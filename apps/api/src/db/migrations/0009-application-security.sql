-- A site's application level security settings (absent until first saved: the API answers 927).
CREATE TABLE application_security (
  app_id      bigint PRIMARY KEY REFERENCES sites (app_id) ON DELETE CASCADE,
  settings    jsonb NOT NULL,
  modified_at timestamptz NOT NULL
);
