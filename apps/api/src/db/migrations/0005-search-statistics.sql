-- Finer statistics on the name expressions: with the default target the planner misjudged how
-- many names contain a rare trigram and chose a long sequential scan (bench/search.bench.ts).
ALTER INDEX customers_name_trgm ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX customers_name_prefix ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX sites_name_trgm ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX sites_name_prefix ALTER COLUMN 1 SET STATISTICS 1000;
-- An unchosen time zone is the reference list's UTC entry.
ALTER TABLE customers ALTER COLUMN time_zone SET DEFAULT 'Etc/GMT';
