-- Issue 18: verified custom domains are re-checked too, and one whose records broke is "failing"
-- (the dashboard's card and the cross-site list of custom domains, GET /admin/customdomains).
-- A failing re-check does not unverify the domain (a DNS blip must not unbind a live domain):
-- it stamps failing_since, which the next passing check clears.
ALTER TABLE custom_domains ADD COLUMN failing_since timestamptz;

-- The periodic re-check of verified domains, the longest unchecked first.
CREATE INDEX custom_domains_verified_check_idx ON custom_domains (last_checked_at) WHERE status = 'Verified';
-- The dashboard's count of failing domains, and the list filtered to them, by name.
CREATE INDEX custom_domains_failing_idx ON custom_domains (domain) WHERE failing_since IS NOT NULL;
-- The list filtered by status, by name (keyset paging on the domain, its primary key).
CREATE INDEX custom_domains_status_domain_idx ON custom_domains (status, domain);
