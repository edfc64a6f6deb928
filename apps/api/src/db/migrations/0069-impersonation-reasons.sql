-- Reasons with a case (issue 35): a request's reason code (from the operator's list,
-- IMPERSONATION_REASON_CODES) and its case or ticket reference. Requests made before have
-- neither (NULL) and are shown as they were. The code's list lives in the settings, not here:
-- a code later taken off the list still reads as itself.
ALTER TABLE impersonation_requests
  ADD COLUMN reason_code text CHECK (reason_code IS NULL OR char_length(reason_code) BETWEEN 1 AND 40),
  ADD COLUMN case_reference text CHECK (case_reference IS NULL OR char_length(case_reference) BETWEEN 1 AND 100);
