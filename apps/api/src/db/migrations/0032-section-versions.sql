-- The version of each edited record that has no version column of its own: a site's settings
-- sections (security, each hashing set, the default registration fields, each custom object's
-- schema), a super user's roles and an impersonation request. Keyed by a record name
-- ('site:7:security', 'staff:<uid>:roles', 'impersonation:12'); a record without a row is at
-- version 0. Reads answer the version (ETag or a row's Version); writes that name one (If-Match)
-- raise it in their transaction only while it is still that version.
CREATE TABLE record_versions (
  record text PRIMARY KEY,
  version bigint NOT NULL
);
