-- A super user created by a colleague has a generated password nobody knows until they follow
-- the invitation link and set their own.
ALTER TABLE staff ADD COLUMN invitation_pending boolean NOT NULL DEFAULT false;
CREATE INDEX staff_created_idx ON staff (created_at, email);
