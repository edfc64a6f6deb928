-- A site-name search lists every owner of the matching sites, paged in the owners' name or time
-- order. Read from sites and customers, a frequent term ('rta': 109,834 of 1.1M sites) cost a
-- probe of the owner's sites for each walked customer (20 µs each), or a hash of every matching
-- site (960 ms). This narrow table holds, per site, its lowercased name beside its owner's sort
-- keys (the name key as customer_name_keys spells it, and the owner's list times), so a walk of
-- an owner-ordered btree tests the site name in the entry itself, and the matches of a rarer
-- term are found by its trigram index and sorted without reading sites or customers. Kept by
-- triggers on both tables, so every writer (services, seeds, a DBA's UPDATE) keeps it.
CREATE TABLE site_owner_keys (
  app_id      bigint PRIMARY KEY REFERENCES sites (app_id) ON DELETE CASCADE,
  n           text NOT NULL,
  uid         uuid NOT NULL,
  k           text NOT NULL,
  created_at  timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);

INSERT INTO site_owner_keys (app_id, n, uid, k, created_at, modified_at)
  SELECT s.app_id, lower(s.app_name), c.uid, lower(c.first_name) || ' ' || lower(c.last_name), c.created_at,
    c.modified_at
  FROM sites s JOIN customers c ON c.uid = s.owner_uid;

-- '-' read as a letter, so a term's trigrams span dashes (as migration 0022's index on sites, which
-- this one replaces); a LIKE on n decides.
CREATE INDEX site_owner_keys_trgm ON site_owner_keys USING gin ((translate(n, '-', 'q')) gin_trgm_ops);
ALTER INDEX site_owner_keys_trgm ALTER COLUMN 1 SET STATISTICS 1000;
-- The owners' orders (name in byte order, created, modified; ties by uid), each with the site name
-- the walk tests.
CREATE INDEX site_owner_keys_name ON site_owner_keys (k text_pattern_ops, uid) INCLUDE (n);
CREATE INDEX site_owner_keys_created ON site_owner_keys (created_at, uid) INCLUDE (n);
CREATE INDEX site_owner_keys_modified ON site_owner_keys (modified_at, uid) INCLUDE (n);
CREATE INDEX site_owner_keys_owner ON site_owner_keys (uid);
DROP INDEX sites_name_trgm;

-- The owner's row is read FOR SHARE: a rename or touch of the owner that is under way (its row
-- locked, its sites' keys being rewritten) is waited for and its outcome copied. Without the lock
-- a site added or moved meanwhile copied the old keys, which the rename's rewrite, not seeing the
-- new row, never corrected.
CREATE FUNCTION sac_site_owner_keys() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  o record;
BEGIN
  SELECT c.uid, lower(c.first_name) || ' ' || lower(c.last_name) AS k, c.created_at, c.modified_at INTO o
    FROM customers c WHERE c.uid = NEW.owner_uid FOR SHARE;
  INSERT INTO site_owner_keys (app_id, n, uid, k, created_at, modified_at)
    VALUES (NEW.app_id, lower(NEW.app_name), o.uid, o.k, o.created_at, o.modified_at)
    ON CONFLICT (app_id) DO UPDATE SET n = EXCLUDED.n, uid = EXCLUDED.uid, k = EXCLUDED.k,
      created_at = EXCLUDED.created_at, modified_at = EXCLUDED.modified_at;
  RETURN NEW;
END $$;

CREATE TRIGGER sites_owner_keys AFTER INSERT OR UPDATE OF app_name, owner_uid
  ON sites FOR EACH ROW EXECUTE FUNCTION sac_site_owner_keys();

-- A site-name search answers a term with any other character than a site name's (letters, digits
-- and dashes, at most 63: the contract's appName) without a query, as it could match nothing; this
-- keeps every later writer to that alphabet too. NOT VALID: the names already stored came through
-- the API's pattern, and a start-up should not fail on checking them.
ALTER TABLE sites ADD CONSTRAINT sites_name_alphabet
  CHECK (lower(app_name) ~ '^[a-z0-9-]*$' AND length(app_name) <= 63) NOT VALID;

CREATE FUNCTION sac_site_owner_keys_of_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE site_owner_keys SET k = lower(NEW.first_name) || ' ' || lower(NEW.last_name),
      created_at = NEW.created_at, modified_at = NEW.modified_at
    WHERE uid = NEW.uid;
  RETURN NEW;
END $$;

CREATE TRIGGER customers_site_owner_keys AFTER UPDATE OF first_name, last_name, created_at, modified_at
  ON customers FOR EACH ROW
  WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name
    OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.modified_at IS DISTINCT FROM NEW.modified_at)
  EXECUTE FUNCTION sac_site_owner_keys_of_owner();

ANALYZE site_owner_keys;
