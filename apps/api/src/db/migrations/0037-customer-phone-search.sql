-- Customer search by phone number (issue 17). The search key is the phone in one normal form:
-- its digits, with a '+' in front when the number was written with a leading '+'
-- ("+1 (202) 555-0143" -> "+12025550143"). The index is built on that expression, so the database
-- normalises on every write, by any writer, and this CREATE INDEX is the backfill of the rows there
-- are: no new column, so no rewrite of the customers table (its visibility map, which the name
-- searches' index-only scans rely on, stays set). Queries use the same expression verbatim
-- (PHONE_KEY_EXPR in customers.repo.ts) and a key normalised the same way (phoneSearchKey).
-- (key, uid) pages an exact or prefix match in answer order straight off the index.
CREATE INDEX customers_phone_key ON customers (
  (CASE WHEN ltrim(phone) LIKE '+%' THEN '+' ELSE '' END || regexp_replace(phone, '[^0-9]', '', 'g')) text_pattern_ops,
  uid
) WHERE phone <> '';
ANALYZE customers;
