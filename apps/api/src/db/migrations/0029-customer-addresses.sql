-- Every address a customer is known by (the email and the authentication email), lower-cased, once
-- across all customers: no two customers share an email or an authentication email, whichever
-- column each is in. Kept by a trigger, so every writer (services, seeds, a DBA's UPDATE) obeys it.
-- Email search walks this table's pattern index, so it finds a customer by either address.
CREATE TABLE customer_addresses (
  address text PRIMARY KEY,
  uid     uuid NOT NULL REFERENCES customers (uid) ON DELETE CASCADE
);
CREATE INDEX customer_addresses_uid_idx ON customer_addresses (uid);
CREATE INDEX customer_addresses_prefix_idx ON customer_addresses (address text_pattern_ops);

-- Emails are unique already (customers_email_key). An authentication email that another customer's
-- email (or an earlier customer's authentication email) now uses was left behind by an email
-- change: it becomes the customer's own email again.
INSERT INTO customer_addresses (address, uid) SELECT lower(email), uid FROM customers;
UPDATE customers c SET auth_email = c.email
  WHERE c.auth_email <> '' AND EXISTS (
    SELECT 1 FROM customer_addresses a WHERE a.address = lower(c.auth_email) AND a.uid <> c.uid);
UPDATE customers c SET auth_email = c.email
  WHERE c.auth_email <> '' AND lower(c.auth_email) <> lower(c.email) AND EXISTS (
    SELECT 1 FROM customers o
    WHERE o.uid < c.uid AND lower(o.auth_email) = lower(c.auth_email));
INSERT INTO customer_addresses (address, uid)
  SELECT lower(auth_email), uid FROM customers
  WHERE auth_email <> '' AND lower(auth_email) <> lower(email);

-- Another customer's address answers unique_violation on customer_addresses_pkey.
CREATE FUNCTION sac_customer_addresses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM customer_addresses WHERE uid = NEW.uid;
  END IF;
  INSERT INTO customer_addresses (address, uid)
    SELECT DISTINCT lower(a), NEW.uid FROM unnest(ARRAY[NEW.email, NEW.auth_email]) AS a WHERE a <> '';
  RETURN NEW;
END $$;

CREATE TRIGGER customers_addresses AFTER INSERT OR UPDATE OF email, auth_email ON customers
  FOR EACH ROW EXECUTE FUNCTION sac_customer_addresses();
