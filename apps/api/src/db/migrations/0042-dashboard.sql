-- Issue 18: the dashboard's figures (GET /admin/dashboard) without counting a million rows.
-- Counts by creation day and by plan and data center are kept by statement-level triggers, so
-- every writer (the API, the seeds, a bulk import) keeps them, in the same transaction as the
-- write; a counter row is changed by an atomic upsert (n = n + k), so concurrent creates never
-- lose a count. The rest of the dashboard reads through indexes.

-- Customers and sites created per UTC day: totals are the sum (one row a day), the chart the last 30.
CREATE TABLE dashboard_days (
  day       date PRIMARY KEY,
  customers bigint NOT NULL DEFAULT 0,
  sites     bigint NOT NULL DEFAULT 0
);

-- Sites by plan and data center ('' when none is set yet).
CREATE TABLE dashboard_site_counts (
  plan        text NOT NULL,
  data_center text NOT NULL,
  sites       bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (plan, data_center)
);

INSERT INTO dashboard_days (day, customers)
SELECT (created_at AT TIME ZONE 'UTC')::date, count(*) FROM customers GROUP BY 1;
INSERT INTO dashboard_days AS d (day, sites)
SELECT (created_at AT TIME ZONE 'UTC')::date, count(*) FROM sites GROUP BY 1
ON CONFLICT (day) DO UPDATE SET sites = d.sites + EXCLUDED.sites;
INSERT INTO dashboard_site_counts (plan, data_center, sites)
SELECT plan, coalesce(data_center, ''), count(*) FROM sites GROUP BY 1, 2;

-- Rows are changed in key order, so two writers never wait on each other crosswise.
CREATE FUNCTION dashboard_count_customers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_days AS d (day, customers)
    SELECT (created_at AT TIME ZONE 'UTC')::date, count(*) FROM added GROUP BY 1 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET customers = d.customers + EXCLUDED.customers;
  ELSE
    UPDATE dashboard_days d SET customers = d.customers - r.n
      FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM removed GROUP BY 1) r
     WHERE d.day = r.day;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER customers_dashboard_insert AFTER INSERT ON customers
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_customers();
CREATE TRIGGER customers_dashboard_delete AFTER DELETE ON customers
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_customers();

-- Sites: a change of plan or data center moves the site between counters; other updates write nothing.
CREATE FUNCTION dashboard_count_sites() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO dashboard_days AS d (day, sites)
    SELECT (created_at AT TIME ZONE 'UTC')::date, count(*) FROM added GROUP BY 1 ORDER BY 1
    ON CONFLICT (day) DO UPDATE SET sites = d.sites + EXCLUDED.sites;
    INSERT INTO dashboard_site_counts AS c (plan, data_center, sites)
    SELECT plan, coalesce(data_center, ''), count(*) FROM added GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (plan, data_center) DO UPDATE SET sites = c.sites + EXCLUDED.sites;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO dashboard_site_counts AS c (plan, data_center, sites)
    SELECT plan, dc, sum(n) FROM (
      SELECT plan, coalesce(data_center, '') AS dc, 1 AS n FROM added
      UNION ALL
      SELECT plan, coalesce(data_center, ''), -1 FROM removed
    ) m GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
    ON CONFLICT (plan, data_center) DO UPDATE SET sites = c.sites + EXCLUDED.sites;
  ELSE
    UPDATE dashboard_days d SET sites = d.sites - r.n
      FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM removed GROUP BY 1) r
     WHERE d.day = r.day;
    UPDATE dashboard_site_counts c SET sites = c.sites - r.n
      FROM (SELECT plan, coalesce(data_center, '') AS dc, count(*) AS n FROM removed GROUP BY 1, 2) r
     WHERE c.plan = r.plan AND c.data_center = r.dc;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER sites_dashboard_insert AFTER INSERT ON sites
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_sites();
CREATE TRIGGER sites_dashboard_update AFTER UPDATE ON sites
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_sites();
CREATE TRIGGER sites_dashboard_delete AFTER DELETE ON sites
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION dashboard_count_sites();

-- Trials ending soon, by their end.
CREATE INDEX sites_trial_ends_idx ON sites (trial_ends_at, app_id) WHERE plan_status = 'Trial';

-- Pending requests awaiting a decision, most urgent and oldest first: the first five without a sort.
CREATE INDEX impersonation_requests_pending_priority_idx ON impersonation_requests
  ((CASE priority WHEN 'Critical' THEN 4 WHEN 'High' THEN 3 WHEN 'Moderate' THEN 2 ELSE 1 END) DESC, created_at, id)
  WHERE status = 'Pending' AND deleted_at IS NULL;

-- Sign-in failures and lockouts of the last day walk activity_log_action_idx (action, at).

-- The customers each staff member opened last (ten are kept per staff member).
CREATE TABLE staff_recent_customers (
  staff_uid    uuid NOT NULL REFERENCES staff (uid) ON DELETE CASCADE,
  customer_uid uuid NOT NULL REFERENCES customers (uid) ON DELETE CASCADE,
  viewed_at    timestamptz NOT NULL,
  PRIMARY KEY (staff_uid, customer_uid)
);
CREATE INDEX staff_recent_customers_order_idx ON staff_recent_customers (staff_uid, viewed_at DESC);
