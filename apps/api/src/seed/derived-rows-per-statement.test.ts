import { describe, expect, it } from 'vitest';
import { freshDb } from '../../test/harness.ts';
import type { Db } from '../db/db.ts';
import { seedScale } from './seed-scale-cli.ts';

/** The derived tables an insert of customers or sites writes, each in its key order. */
const DERIVED = {
  customer_addresses: 'address',
  customer_name_keys: 'uid',
  site_owner_keys: 'app_id',
  dashboard_days: 'day',
  dashboard_site_counts: 'plan, data_center',
};

/** The row triggers as migrations 0029, 0048 and 0051 left them, before migration 0055. */
const ROW_TRIGGERS = `
  DROP TRIGGER customers_added ON customers;
  DROP TRIGGER sites_added ON sites;
  DROP TRIGGER customers_addresses ON customers;
  CREATE TRIGGER customers_addresses AFTER INSERT OR UPDATE OF email, auth_email ON customers
    FOR EACH ROW EXECUTE FUNCTION sac_customer_addresses();
  DROP TRIGGER customers_name_keys ON customers;
  CREATE TRIGGER customers_name_keys AFTER INSERT OR UPDATE OF first_name, last_name, created_at, modified_at
    ON customers FOR EACH ROW EXECUTE FUNCTION sac_customer_name_keys();
  DROP TRIGGER sites_owner_keys ON sites;
  CREATE TRIGGER sites_owner_keys AFTER INSERT OR UPDATE OF app_name, owner_uid
    ON sites FOR EACH ROW EXECUTE FUNCTION sac_site_owner_keys();`;

async function derived(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(DERIVED))
    out[table] = (await db.query(`SELECT * FROM ${table} ORDER BY ${key}`)).rows;
  return out;
}

/** A customer whose sign-in email is another's email: refused by either way, with the same constraint. */
async function takenAddress(db: Db): Promise<string> {
  try {
    await db.query(
      `INSERT INTO customers (uid, first_name, last_name, email, auth_email, created_at, modified_at)
       SELECT gen_random_uuid(), 'A', 'B', 'fresh@x.example', upper(email), now(), now() FROM customers LIMIT 1`,
    );
    return 'accepted';
  } catch (e) {
    return `${(e as { code?: string }).code} ${(e as { constraint?: string }).constraint}`;
  }
}

/**
 * Migration 0055: inserts write the derived rows once a statement. A scale seed writes exactly the
 * rows the row triggers wrote before it, and a taken address is refused the same way.
 */
describe('migration 0055 (derived rows once a statement)', () => {
  it('writes the same addresses, name keys, site owner keys and counters as the row triggers did', async () => {
    const now = await freshDb();
    const before = await freshDb();
    try {
      await before.db.exec(ROW_TRIGGERS);
      const at = '2026-06-01T12:00:00.000Z';
      for (const { db } of [now, before])
        await seedScale(db, { customers: 400, chunk: 150, quiet: true, at });
      const rows = await derived(now.db);
      expect(rows.customer_addresses).toHaveLength(400);
      expect(rows.site_owner_keys!.length).toBeGreaterThan(400);
      expect(rows).toEqual(await derived(before.db));
      expect(await takenAddress(now.db)).toBe('23505 customer_addresses_pkey');
      expect(await takenAddress(before.db)).toBe('23505 customer_addresses_pkey');
    } finally {
      await now.drop();
      await before.drop();
    }
  }, 120_000);
});
