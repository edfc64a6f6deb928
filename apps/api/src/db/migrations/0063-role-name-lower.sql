-- Role names are unique whatever their case ("Support EU" and "support eu" would read as one in
-- the console and in the trail). The custom-role service checks it first for a clear answer; this
-- index decides two creations racing on one name.
CREATE UNIQUE INDEX roles_name_lower_key ON roles (lower(name));
