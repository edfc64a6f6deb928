-- A notice written by a scoped sender (role-scopes.ts) reaches only the owners of sites in the
-- sender's scope as it stood when the notice was written: the scope is kept with the notice, so
-- the job that resolves its recipients later keeps to it. NULL: an unscoped sender's, every site.
ALTER TABLE customer_notices ADD COLUMN scope jsonb;
