-- An impersonation session is a staff session bound to one approved request (and so one site).
ALTER TABLE staff_sessions
  ADD COLUMN impersonation_request_id bigint REFERENCES impersonation_requests (id) ON DELETE CASCADE;
