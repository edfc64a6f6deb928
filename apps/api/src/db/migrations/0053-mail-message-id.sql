-- Each outbox row carries the random half of its Message-ID (<outbox-<id>.<message_key>@<sender's
-- domain>>, built by mail/mailer.ts): a row sent again after a crash between the server taking it
-- and sent_at being written is the same message, which receivers and clients drop as a duplicate.
-- The id alone would repeat across databases (a restored backup, a second install at one domain).
ALTER TABLE mail_outbox ADD COLUMN message_key text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');
