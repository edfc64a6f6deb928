-- Issue 31: a bulk insert of customers or sites (seed:scale, 50,000 rows a statement) called the
-- row triggers of migrations 0029, 0048 and 0051 once a row, each planning and running its own
-- INSERT (and, for a site, a SELECT of its owner): about a third of seeding 1M. Inserts now write
-- the derived rows once a statement, from the statement's new rows (a transition table, as the
-- dashboard's counters of migration 0042), with the very values the row triggers wrote: the same
-- address rows, name keys and site owner keys, and the same unique_violation on
-- customer_addresses_pkey for a taken address. Updates keep their row triggers (a transition table
-- cannot go with UPDATE OF columns). The inserts need no ON CONFLICT: a new customer's uid and a
-- new site's app_id have no derived row yet (their keys reference them, and cascade on delete).
-- Re-runnable (IF EXISTS, OR REPLACE): tests that rewind an earlier migration run this one again.

DROP TRIGGER IF EXISTS customers_addresses ON customers;
CREATE TRIGGER customers_addresses AFTER UPDATE OF email, auth_email ON customers
  FOR EACH ROW EXECUTE FUNCTION sac_customer_addresses();
DROP TRIGGER IF EXISTS customers_name_keys ON customers;
CREATE TRIGGER customers_name_keys AFTER UPDATE OF first_name, last_name, created_at, modified_at
  ON customers FOR EACH ROW EXECUTE FUNCTION sac_customer_name_keys();
DROP TRIGGER IF EXISTS sites_owner_keys ON sites;
CREATE TRIGGER sites_owner_keys AFTER UPDATE OF app_name, owner_uid
  ON sites FOR EACH ROW EXECUTE FUNCTION sac_site_owner_keys();

CREATE OR REPLACE FUNCTION sac_customers_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_addresses (address, uid)
    SELECT DISTINCT lower(a), n.uid FROM added n, unnest(ARRAY[n.email, n.auth_email]) AS a WHERE a <> '';
  INSERT INTO customer_name_keys (uid, k, created_at, modified_at)
    SELECT uid, lower(first_name) || ' ' || lower(last_name), created_at, modified_at FROM added;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS customers_added ON customers;
CREATE TRIGGER customers_added AFTER INSERT ON customers
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION sac_customers_added();

-- The owners are read FOR SHARE, as sac_site_owner_keys reads one (migration 0051 says why), in
-- key order, so two writers never wait on each other crosswise.
CREATE OR REPLACE FUNCTION sac_sites_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO site_owner_keys (app_id, n, uid, k, created_at, modified_at)
    SELECT s.app_id, lower(s.app_name), c.uid, lower(c.first_name) || ' ' || lower(c.last_name), c.created_at,
      c.modified_at
    FROM added s JOIN customers c ON c.uid = s.owner_uid
    ORDER BY c.uid
    FOR SHARE OF c;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS sites_added ON sites;
CREATE TRIGGER sites_added AFTER INSERT ON sites
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION sac_sites_added();
