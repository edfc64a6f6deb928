-- A site's version, raised by each write of its web apps and plan (basic settings, app settings):
-- answered as the ETag of those reads and checked against If-Match on their writes.
ALTER TABLE sites ADD COLUMN version bigint NOT NULL DEFAULT 1;
