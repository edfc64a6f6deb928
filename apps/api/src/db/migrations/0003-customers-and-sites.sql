-- Customers, their sites (apps), shared sites, the feature and data-center catalogues, customer
-- sign-in history. Indexes are chosen for search at a million customers: one index per criterion.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE customers (
  uid            uuid PRIMARY KEY,
  first_name     text NOT NULL,
  last_name      text NOT NULL,
  email          text NOT NULL,
  organization   text NOT NULL DEFAULT '',
  phone          text NOT NULL DEFAULT '',
  auth_email     text NOT NULL DEFAULT '',
  contact_email  text NOT NULL DEFAULT '',
  time_zone      text NOT NULL DEFAULT 'UTC',
  status         text NOT NULL DEFAULT 'Active' CHECK (status IN ('Active', 'Blocked', 'Deleted')),
  role           text NOT NULL DEFAULT 'Owner',
  email_verified boolean NOT NULL DEFAULT false,
  password_hash  text,
  created_at     timestamptz NOT NULL,
  modified_at    timestamptz NOT NULL
);
-- name: substring (trigram GIN) and prefix (btree, pattern ops) on the lower-cased full name
CREATE INDEX customers_name_trgm ON customers USING gin ((lower(first_name || ' ' || last_name)) gin_trgm_ops);
CREATE INDEX customers_name_prefix ON customers ((lower(first_name || ' ' || last_name)) text_pattern_ops);
-- email: exact and prefix, case-insensitive, unique
CREATE UNIQUE INDEX customers_email_key ON customers ((lower(email)) text_pattern_ops);
-- keyset listing by creation
CREATE INDEX customers_created_idx ON customers (created_at DESC, uid DESC);

CREATE TABLE data_centers (
  code   text PRIMARY KEY,
  name   text NOT NULL,
  region text NOT NULL
);

CREATE TABLE global_servers (
  code        text PRIMARY KEY,
  data_center text NOT NULL REFERENCES data_centers (code),
  name        text NOT NULL
);

CREATE TABLE features (
  key         text PRIMARY KEY,
  name        text NOT NULL,
  description text NOT NULL DEFAULT ''
);

CREATE TABLE feature_sets (
  name     text PRIMARY KEY,
  features text[] NOT NULL
);

CREATE TABLE sites (
  app_id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  app_name        text NOT NULL,
  api_key         uuid NOT NULL,
  -- the API secret is shown once at creation; only its SHA-256 is kept (exact search hashes the input)
  secret_hash     bytea NOT NULL,
  owner_uid       uuid NOT NULL REFERENCES customers (uid) ON DELETE CASCADE,
  plan            text NOT NULL DEFAULT 'Free' CHECK (plan IN ('Free', 'Developer', 'Developer Premium')),
  plan_status     text NOT NULL DEFAULT 'Subscribed' CHECK (plan_status IN ('Trial', 'Subscribed')),
  trial_ends_at   timestamptz,
  billing         text NOT NULL DEFAULT 'Monthly',
  data_center     text REFERENCES data_centers (code),
  global_server   text REFERENCES global_servers (code),
  db_name         text NOT NULL DEFAULT '',
  -- AES-256-GCM ciphertext of a custom database's connection string; never sent back whole
  custom_db_conn  bytea,
  features        text[] NOT NULL DEFAULT '{}',
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  production_url  text NOT NULL DEFAULT '',
  staging_url     text NOT NULL DEFAULT '',
  created_at      timestamptz NOT NULL,
  modified_at     timestamptz NOT NULL
);
CREATE UNIQUE INDEX sites_name_key ON sites ((lower(app_name)));
CREATE INDEX sites_name_trgm ON sites USING gin ((lower(app_name)) gin_trgm_ops);
CREATE INDEX sites_name_prefix ON sites ((lower(app_name)) text_pattern_ops);
CREATE UNIQUE INDEX sites_api_key_key ON sites (api_key);
CREATE UNIQUE INDEX sites_secret_key ON sites (secret_hash);
CREATE INDEX sites_owner_idx ON sites (owner_uid, app_id);

-- Roles a customer can hold on a site, with their permissions.
CREATE TABLE customer_roles (
  name        text PRIMARY KEY,
  permissions jsonb NOT NULL DEFAULT '{}'
);

-- Shared sites: a customer holding a customer role on someone else's site.
CREATE TABLE site_members (
  app_id       bigint NOT NULL REFERENCES sites (app_id) ON DELETE CASCADE,
  customer_uid uuid NOT NULL REFERENCES customers (uid) ON DELETE CASCADE,
  role         text NOT NULL REFERENCES customer_roles (name),
  added_at     timestamptz NOT NULL,
  PRIMARY KEY (app_id, customer_uid)
);
CREATE INDEX site_members_customer_idx ON site_members (customer_uid, app_id);

-- A customer's sign-ins to their own console (last login info).
CREATE TABLE customer_logins (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  customer_uid   uuid NOT NULL REFERENCES customers (uid) ON DELETE CASCADE,
  at             timestamptz NOT NULL,
  access_type    text NOT NULL,
  browser        text NOT NULL,
  client_address text NOT NULL,
  location       text NOT NULL DEFAULT ''
);
CREATE INDEX customer_logins_customer_idx ON customer_logins (customer_uid, at DESC);

-- Activity of and about a customer, read by the console with a keyset cursor.
CREATE INDEX activity_log_customer_idx ON activity_log (target_id, id DESC) WHERE target_type = 'customer';

INSERT INTO data_centers (code, name, region) VALUES
  ('us-east', 'US East (Virginia)', 'North America'),
  ('us-west', 'US West (Oregon)', 'North America'),
  ('eu-central', 'EU Central (Frankfurt)', 'Europe'),
  ('eu-west', 'EU West (Ireland)', 'Europe'),
  ('ap-south', 'Asia Pacific (Mumbai)', 'Asia Pacific'),
  ('ap-southeast', 'Asia Pacific (Sydney)', 'Asia Pacific'),
  ('ca-central', 'Canada (Montreal)', 'North America');

INSERT INTO global_servers (code, data_center, name) VALUES
  ('use-shared-1', 'us-east', 'US East shared cluster 1'),
  ('use-shared-2', 'us-east', 'US East shared cluster 2'),
  ('usw-shared-1', 'us-west', 'US West shared cluster 1'),
  ('euc-shared-1', 'eu-central', 'EU Central shared cluster 1'),
  ('euw-shared-1', 'eu-west', 'EU West shared cluster 1'),
  ('aps-shared-1', 'ap-south', 'Mumbai shared cluster 1'),
  ('apse-shared-1', 'ap-southeast', 'Sydney shared cluster 1'),
  ('cac-shared-1', 'ca-central', 'Montreal shared cluster 1');

INSERT INTO features (key, name, description) VALUES
  ('social-login', 'Social Login', 'Sign-in with social identity providers.'),
  ('passwordless', 'Passwordless Login', 'Magic links and one-time codes by email or SMS.'),
  ('mfa', 'Multi-Factor Authentication', 'TOTP, SMS and email second factors.'),
  ('sso', 'Single Sign-On', 'Web SSO across the customer''s sites.'),
  ('federated-sso', 'Federated SSO', 'SAML, OIDC and JWT federation.'),
  ('custom-objects', 'Custom Objects', 'Schema-defined objects stored with profiles.'),
  ('custom-domain', 'Custom Domain', 'Hosted pages on the customer''s own domain.'),
  ('data-sources', 'Data Sources', 'Dropdown data for registration fields.'),
  ('webhooks', 'Webhooks', 'Event notifications to the customer''s endpoints.'),
  ('consent', 'Consent Management', 'Versioned consent forms and audit.'),
  ('risk-based-auth', 'Risk-Based Authentication', 'Adaptive challenges on unusual sign-ins.'),
  ('b2b', 'B2B Identity', 'Organizations, invitations and delegated administration.'),
  ('analytics', 'Analytics', 'Dashboards of sign-ups, logins and engagement.'),
  ('audit-log', 'Audit Log', 'A record of administrative changes.');

INSERT INTO feature_sets (name, features) VALUES
  ('Free', '{social-login,passwordless}'),
  ('Developer', '{social-login,passwordless,mfa,sso,webhooks,custom-objects}'),
  ('Developer Premium', '{social-login,passwordless,mfa,sso,federated-sso,webhooks,custom-objects,custom-domain,data-sources,consent,risk-based-auth,analytics,audit-log}'),
  ('B2B', '{social-login,mfa,sso,federated-sso,b2b,audit-log}');

INSERT INTO customer_roles (name, permissions) VALUES
  ('Owner', '{"ManageSite": true, "ManageBilling": true, "ManageTeam": true, "ViewData": true, "EditData": true, "ManageSettings": true}'),
  ('Administrator', '{"ManageSite": true, "ManageBilling": false, "ManageTeam": true, "ViewData": true, "EditData": true, "ManageSettings": true}'),
  ('Developer', '{"ManageSite": false, "ManageBilling": false, "ManageTeam": false, "ViewData": true, "EditData": true, "ManageSettings": true}'),
  ('Analyst', '{"ManageSite": false, "ManageBilling": false, "ManageTeam": false, "ViewData": true, "EditData": false, "ManageSettings": false}'),
  ('Support', '{"ManageSite": false, "ManageBilling": false, "ManageTeam": false, "ViewData": true, "EditData": true, "ManageSettings": false}');
