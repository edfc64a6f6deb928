-- Issue 33, item 2: SCIM 2.0 provisioning of staff at /scim/v2 (docs/operations.md, "Provisioning
-- (SCIM)"). A deactivated state for staff (a deactivated member cannot sign in; their sessions and
-- API tokens end at once), the identity provider's id of a member, the provider's bearer tokens
-- (hashed, revocable, last use), and the groups it pushes, whose members get the roles that
-- staff_group_roles maps the group's displayName to (the table SSO maps its groups claim through).

ALTER TABLE staff ADD COLUMN deactivated_at timestamptz;
ALTER TABLE staff ADD COLUMN external_id text;
-- made or last written by SCIM: its roles follow its SCIM groups
ALTER TABLE staff ADD COLUMN scim_managed boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX staff_external_id_key ON staff (external_id) WHERE external_id IS NOT NULL;

CREATE TABLE scim_tokens (
  id                bigserial PRIMARY KEY,
  name              text NOT NULL,
  token_hash        bytea NOT NULL UNIQUE,
  created_by_uid    uuid REFERENCES staff (uid) ON DELETE SET NULL,
  created_at        timestamptz NOT NULL,
  last_used_at      timestamptz,
  last_used_address text,
  revoked_at        timestamptz,
  revoked_by_uid    uuid REFERENCES staff (uid) ON DELETE SET NULL
);
-- a revocation on one instance ends what every instance keeps (migration 0020)
CREATE TRIGGER scim_tokens_ended AFTER UPDATE OF revoked_at OR DELETE ON scim_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();

CREATE TABLE scim_groups (
  id           uuid PRIMARY KEY,
  display_name text NOT NULL,
  external_id  text,
  created_at   timestamptz NOT NULL,
  updated_at   timestamptz NOT NULL,
  version      integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX scim_groups_display_name_key ON scim_groups (lower(display_name));

CREATE TABLE scim_group_members (
  group_id uuid NOT NULL REFERENCES scim_groups (id) ON DELETE CASCADE,
  uid      uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  PRIMARY KEY (group_id, uid)
);
CREATE INDEX scim_group_members_uid ON scim_group_members (uid);
