-- A name search's substring matches come from a trigram index, then each match's row is read to
-- test the name and sort by it. Read in customers (253 MB at 1M customers), a term held by a
-- frequent first name far down the alphabet ('ria': Maria, Gloria) visited 14,824 heap pages for
-- its 19,460 matches. This narrow table holds only what those reads need, the lowercased name (as
-- NAME_PREFIX_EXPR spells it) and the times a list sorts by, about 60 MB at 1M; its trigram index
-- replaces the one on customers. Kept by a trigger, as customer_addresses is, so every writer
-- (services, seeds, a DBA's UPDATE) keeps it.
CREATE TABLE customer_name_keys (
  uid         uuid PRIMARY KEY REFERENCES customers (uid) ON DELETE CASCADE,
  k           text NOT NULL,
  created_at  timestamptz NOT NULL,
  modified_at timestamptz NOT NULL
);

INSERT INTO customer_name_keys (uid, k, created_at, modified_at)
  SELECT uid, lower(first_name) || ' ' || lower(last_name), created_at, modified_at FROM customers;

-- Space, '-', "'" and '.' read as '0', so a term's trigrams span them (migration 0038).
CREATE INDEX customer_name_keys_trgm ON customer_name_keys
  USING gin ((translate(k, ' -''.', '0000')) gin_trgm_ops);
ALTER INDEX customer_name_keys_trgm ALTER COLUMN 1 SET STATISTICS 1000;
DROP INDEX customers_name_trgm;

CREATE FUNCTION sac_customer_name_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_name_keys (uid, k, created_at, modified_at)
    VALUES (NEW.uid, lower(NEW.first_name) || ' ' || lower(NEW.last_name), NEW.created_at, NEW.modified_at)
    ON CONFLICT (uid) DO UPDATE SET k = EXCLUDED.k, created_at = EXCLUDED.created_at,
      modified_at = EXCLUDED.modified_at;
  RETURN NEW;
END $$;

CREATE TRIGGER customers_name_keys AFTER INSERT OR UPDATE OF first_name, last_name, created_at, modified_at
  ON customers FOR EACH ROW EXECUTE FUNCTION sac_customer_name_keys();

ANALYZE customer_name_keys;
