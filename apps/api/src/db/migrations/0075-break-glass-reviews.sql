-- The break-glass reviews page (issue 35): besides the open reviews (their own index, 0072), those
-- closed recently and both, newest opening first. Break-glass rows are few beside the requests, so
-- one partial index on the opening walks them all without reading the requests.
CREATE INDEX impersonation_requests_break_glass_idx ON impersonation_requests (created_at, id)
  WHERE break_glass;
