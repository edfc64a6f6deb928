-- When the session's holder last proved who they are beyond holding it: NULL means at its sign-in
-- (created_at), a step-up sets it. Sensitive actions need it within STEP_UP_MINUTES.
ALTER TABLE staff_sessions ADD COLUMN verified_at timestamptz;
