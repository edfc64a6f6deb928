-- Once a minute the 'site-secret-retire' job looks for replaced site secrets whose grace ended
-- (previous_secret_until <= now). Without an index that is a scan of every site: at 1.1M sites,
-- 440-830 ms on PGlite, where it runs on the thread that answers requests, and a full read of the
-- table a minute on PostgreSQL. Few sites are ever in a grace at once, so the index holds only
-- those.
CREATE INDEX sites_previous_secret_until ON sites (previous_secret_until)
  WHERE previous_secret_until IS NOT NULL;
