-- Two-step sign-in of staff (docs/decisions.md, "Two-step sign-in").

-- One authenticator app (TOTP, RFC 6238) per staff member. The secret is sealed with the field
-- key (AES-256-GCM, lib/field-crypto.ts). confirmed_at NULL: set-up started, no code seen yet.
-- last_used_step: the 30 s step of the last code accepted; a code of that step or an earlier one
-- is refused (replay).
CREATE TABLE staff_totp (
  uid            uuid PRIMARY KEY REFERENCES staff (uid) ON DELETE CASCADE,
  secret_sealed  bytea NOT NULL,
  created_at     timestamptz NOT NULL,
  confirmed_at   timestamptz,
  last_used_step bigint NOT NULL DEFAULT 0,
  last_used_at   timestamptz
);

-- Passkeys (WebAuthn credentials): the public key as COSE bytes, the signature counter.
CREATE TABLE staff_passkeys (
  id            bigserial PRIMARY KEY,
  uid           uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key    bytea NOT NULL,
  sign_count    bigint NOT NULL DEFAULT 0,
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 64),
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz
);
CREATE INDEX staff_passkeys_uid ON staff_passkeys (uid);

-- Ten single-use recovery codes per staff member, as SHA-256 hashes (the codes carry 60 random bits).
CREATE TABLE staff_recovery_codes (
  uid        uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  code_hash  bytea NOT NULL,
  created_at timestamptz NOT NULL,
  used_at    timestamptz,
  PRIMARY KEY (uid, code_hash)
);

-- The ticket from a right password to the second step (or to the set-up of a first factor):
-- single-use, short-lived, bound to the account and to the password hash it was checked against.
CREATE TABLE staff_sign_in_tickets (
  ticket_hash   bytea PRIMARY KEY,
  uid           uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind IN ('verify', 'enrol')),
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz
);
CREATE INDEX staff_sign_in_tickets_uid ON staff_sign_in_tickets (uid);

-- The pending WebAuthn challenge of a staff member, per ceremony; taken (deleted) when answered.
CREATE TABLE staff_webauthn_challenges (
  uid        uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  ceremony   text NOT NULL CHECK (ceremony IN ('register', 'authenticate')),
  challenge  text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (uid, ceremony)
);
