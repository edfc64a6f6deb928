-- Issue 32: every site's custom domains sort by when they were added too (GET /admin/customdomains
-- ?sort=created): a keyset walk of (created_at, domain), either way, as the name sort walks the
-- primary key and the status sort custom_domains_status_domain_idx (0045).
CREATE INDEX custom_domains_created_idx ON custom_domains (created_at, domain);
