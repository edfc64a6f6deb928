-- Custom roles with a scope: a role a SuperAdmin defines may hold its permissions only over the
-- sites of some data centers and/or plans (NULL on an axis: any). A customer is in a scope when
-- they own or are a member of a site in it. Built-in roles stay unscoped and unchangeable.
-- A change of a role already tells every instance to read its sessions again (0020's roles_changed).
ALTER TABLE roles ADD COLUMN scope_data_centers text[];
ALTER TABLE roles ADD COLUMN scope_plans text[];
ALTER TABLE roles ADD COLUMN modified_at timestamptz;
ALTER TABLE roles ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE roles ADD CONSTRAINT roles_built_in_unscoped
  CHECK (NOT built_in OR (scope_data_centers IS NULL AND scope_plans IS NULL));
ALTER TABLE roles ADD CONSTRAINT roles_scope_not_empty
  CHECK (cardinality(scope_data_centers) > 0 AND cardinality(scope_plans) > 0);
