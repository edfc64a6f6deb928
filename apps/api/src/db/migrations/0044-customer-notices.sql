-- Issue 18 item 3: notices to site owners (Manage Notfications). A notice names its audience;
-- when it is due, the sending job (ops/periodic.ts, under the job lease) resolves the audience
-- into one row per owner address, then queues the rows a batch at a time into the mail outbox,
-- each batch in one transaction that claims its rows (FOR UPDATE SKIP LOCKED), so no address is
-- queued twice even by two runs at once. The outbox sends, retries with backoff and gives up;
-- the delivery log reads each recipient's outbox row.

-- The built-in roles' permissions come from the contract (migrate.ts syncs them after the
-- migrations); this grants notices.send to SuperAdmin and Admin now, for a reader of this file.
UPDATE roles SET permissions = array_append(permissions, 'notices.send')
 WHERE built_in AND name IN ('SuperAdmin', 'Admin') AND NOT ('notices.send' = ANY (permissions));

CREATE TABLE customer_notices (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind               text NOT NULL CHECK (kind IN ('maintenance', 'incident', 'announcement')),
  subject            text NOT NULL CHECK (length(subject) <= 150),
  body_text          text NOT NULL CHECK (length(body_text) <= 5000),
  -- {Type, Plans?, DataCenters?, AppIds?} as the contract's noticeAudience.
  audience           jsonb NOT NULL,
  status             text NOT NULL DEFAULT 'scheduled'
                     CHECK (status IN ('scheduled', 'sending', 'sent', 'cancelled', 'failed')),
  send_at            timestamptz NOT NULL,
  created_at         timestamptz NOT NULL,
  created_by_uid     uuid,
  created_by_email   text NOT NULL,
  started_at         timestamptz,
  -- Every recipient queued (status stays 'sending' until the outbox has an end for each).
  queued_at          timestamptz,
  finished_at        timestamptz,
  cancelled_at       timestamptz,
  cancelled_by_email text,
  failure_reason     text,
  -- Recipients resolved at the start.
  total              integer NOT NULL DEFAULT 0
);
CREATE INDEX customer_notices_list_idx ON customer_notices (id DESC);
CREATE INDEX customer_notices_due_idx ON customer_notices (send_at, id) WHERE status IN ('scheduled', 'sending');

CREATE TABLE customer_notice_recipients (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  notice_id      bigint NOT NULL REFERENCES customer_notices (id) ON DELETE CASCADE,
  -- Lower case: one row per address, however many sites it owns.
  email          text NOT NULL,
  first_name     text NOT NULL DEFAULT '',
  -- Set in the transaction that queues the mail.
  outbox_id      bigint REFERENCES mail_outbox (id) ON DELETE SET NULL,
  queued_at      timestamptz,
  -- Set instead of queuing: the address unsubscribed from announcements.
  skipped_reason text,
  UNIQUE (notice_id, email)
);
CREATE INDEX customer_notice_recipients_unqueued_idx ON customer_notice_recipients (notice_id, id)
  WHERE queued_at IS NULL AND skipped_reason IS NULL;
CREATE INDEX customer_notice_recipients_log_idx ON customer_notice_recipients (notice_id, id);

-- Addresses that unsubscribed from announcements, by their signed link.
CREATE TABLE notice_unsubscribes (
  email           text PRIMARY KEY,
  unsubscribed_at timestamptz NOT NULL
);

-- Extra mail headers (List-Unsubscribe and List-Unsubscribe-Post of RFC 8058).
ALTER TABLE mail_outbox ADD COLUMN headers jsonb;

-- The audience by plan or data center reads sites through these.
CREATE INDEX sites_plan_owner_idx ON sites (plan, owner_uid);
CREATE INDEX sites_data_center_owner_idx ON sites (data_center, owner_uid);
