-- A scoped viewer's dashboard (role scopes, 0062) counts the sites created on each of the last
-- days from the sites themselves: the day counters (0042) cannot say whose sites they count. This
-- index keeps that read to the window's sites.
CREATE INDEX sites_created_idx ON sites (created_at);
