-- Issue 33, item 1: staff sign in through an OpenID Connect provider (docs/operations.md,
-- "Single sign-on"). One row of settings, the table of provider groups to built-in roles (named for
-- SSO and SCIM alike: SCIM's groups map through the same table), and the pending sign-ins.

CREATE TABLE sso_settings (
  id                   smallint PRIMARY KEY CHECK (id = 1),
  enabled              boolean NOT NULL DEFAULT false,
  display_name         text NOT NULL DEFAULT '',
  issuer               text NOT NULL DEFAULT '',
  client_id            text NOT NULL DEFAULT '',
  -- sealed with the field key (lib/field-crypto.ts); never answered, only replaced
  client_secret_sealed bytea,
  groups_claim         text NOT NULL DEFAULT 'groups',
  create_on_first      boolean NOT NULL DEFAULT false,
  -- amr or acr values of the provider that count as the second factor; empty: the local one applies
  second_factor_values text NOT NULL DEFAULT '',
  password_sign_in     boolean NOT NULL DEFAULT true,
  -- the one local account that may still sign in with a password when password sign-in is off
  break_glass_uid      uuid REFERENCES staff (uid) ON DELETE SET NULL,
  updated_at           timestamptz
);

-- A provider's group value (from the groups claim, or a SCIM group) granting a built-in role.
CREATE TABLE staff_group_roles (
  group_value text NOT NULL,
  role        text NOT NULL REFERENCES roles (name) ON UPDATE CASCADE,
  PRIMARY KEY (group_value, role)
);

-- A sign-in sent to the provider: single-use (deleted when it comes back), short-lived, bound to
-- the browser that started it by the hash of an HttpOnly cookie, with its nonce and PKCE verifier.
CREATE TABLE sso_sign_in_states (
  state_hash    bytea PRIMARY KEY,
  binder_hash   bytea NOT NULL,
  nonce         text NOT NULL,
  code_verifier text NOT NULL,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX sso_sign_in_states_expires ON sso_sign_in_states (expires_at);

-- The settings are the SuperAdmin's alone (as approving impersonation is).
UPDATE roles SET permissions = array_append(permissions, 'sso.manage')
 WHERE built_in AND name = 'SuperAdmin' AND NOT ('sso.manage' = ANY (permissions));
