-- Mail is written here in the same transaction as the change that causes it, and sent afterwards by
-- the outbox (mail/outbox.ts): a crash between the two loses no message, and each row is claimed by
-- one instance at a time, so several instances send it once.
CREATE TABLE mail_outbox (
  id              bigserial PRIMARY KEY,
  created_at      timestamptz NOT NULL,
  to_address      text NOT NULL,
  subject         text NOT NULL,
  body_text       text NOT NULL,
  body_html       text,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  -- While set and in the future, one instance is sending the row.
  claimed_until   timestamptz,
  sent_at         timestamptz,
  -- Given up after MAIL_MAX_ATTEMPTS failures; last_error says why.
  failed_at       timestamptz,
  last_error      text
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE sent_at IS NULL AND failed_at IS NULL;
