-- Site names are [a-z0-9-], and pg_trgm splits words at '-': a term such as 'k-clo' gave the index
-- only 'clo' to go on (17,000 candidate sites to read and recheck at 1M sites; 250 ms on PGlite).
-- Indexed with '-' read as a letter ('q'), and searched with the term translated the same way,
-- the trigrams span the dash ('kqc', 'qcl'). The LIKE on lower(app_name) still decides a match.
CREATE INDEX sites_name_trgm_joined ON sites USING gin ((translate(lower(app_name), '-', 'q')) gin_trgm_ops);
DROP INDEX sites_name_trgm;
ALTER INDEX sites_name_trgm_joined RENAME TO sites_name_trgm;
ALTER INDEX sites_name_trgm ALTER COLUMN 1 SET STATISTICS 1000;
ANALYZE sites;
