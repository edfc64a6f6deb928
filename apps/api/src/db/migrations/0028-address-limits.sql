-- Calls per client address and fixed window on the public doors (password reset, the owner's
-- consent and site-access links, customer requests), when REDIS_URL is unset (address-limits.ts).
CREATE TABLE address_limit_counters (
  bucket       text NOT NULL,
  address      text NOT NULL,
  window_start timestamptz NOT NULL,
  calls        integer NOT NULL,
  PRIMARY KEY (bucket, address, window_start)
);
CREATE INDEX address_limit_counters_window_idx ON address_limit_counters (window_start);
