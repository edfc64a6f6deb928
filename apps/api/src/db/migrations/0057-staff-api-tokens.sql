-- Staff API tokens (decisions.md: "Staff API tokens"), service accounts and the staff address
-- allowlist.

-- A service account is a staff member who never signs in (no password, no factor): it only owns
-- tokens a SuperAdmin made for it. password_hash stays NOT NULL: '!' matches no password.
ALTER TABLE staff ADD COLUMN kind text NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'service'));

-- Only the SHA-256 of a token is kept. Its permissions are what it was given; a call gets the part
-- of them its owner still holds. Ended with its owner (ON DELETE CASCADE), by revocation or by
-- expiry. last_used_at/last_used_address are written at most once a minute per token.
CREATE TABLE staff_api_tokens (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  uid               uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  name              text NOT NULL,
  token_hash        bytea NOT NULL UNIQUE,
  permissions       text[] NOT NULL,
  allowed_addresses text[] NOT NULL DEFAULT '{}',
  created_by_uid    uuid,
  created_at        timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  last_used_at      timestamptz,
  last_used_address text,
  revoked_at        timestamptz,
  revoked_by_uid    uuid
);
CREATE INDEX staff_api_tokens_uid_idx ON staff_api_tokens (uid, id DESC);

-- A token revoked or removed ends at once on every instance, as a session does (migration 0020).
CREATE TRIGGER staff_api_tokens_ended AFTER UPDATE OF revoked_at OR DELETE ON staff_api_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();

-- The trail names the token a call was made with (the actor is its owner).
ALTER TABLE activity_log ADD COLUMN api_token_id bigint, ADD COLUMN api_token_name text;

-- The addresses staff may sign in and call the API from: CIDR entries, none = everyone. One row.
CREATE TABLE staff_address_allowlist (
  id         smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  entries    text[] NOT NULL DEFAULT '{}',
  updated_at timestamptz,
  updated_by text
);
INSERT INTO staff_address_allowlist (id) VALUES (1);
CREATE TRIGGER staff_address_allowlist_changed AFTER UPDATE ON staff_address_allowlist
  FOR EACH STATEMENT EXECUTE FUNCTION sac_auth_changed();
