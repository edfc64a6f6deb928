import { describe, expect, inject, it } from 'vitest';
import { freshDb } from '../../test/harness.ts';
import type { Db } from '../db/db.ts';
import { SEARCHED_TABLES } from '../db/searched-tables.ts';
import { seedScale } from './seed-scale-cli.ts';

/** The indexes of the tables a scale chunk fills, as the catalogue defines them, and whether each is usable. */
async function indexes(db: Db): Promise<Array<{ name: string; def: string; valid: boolean }>> {
  return (
    await db.query<{ name: string; def: string; valid: boolean }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def, i.indisvalid AND i.indisready AS valid
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
        WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1::text[])
        ORDER BY c.relname`,
      [[...SEARCHED_TABLES]],
    )
  ).rows;
}

const count = async (db: Db, table: string) =>
  Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

/**
 * A new scale database on PostgreSQL is filled in one transaction with its secondary indexes built
 * after the rows: it ends with every index as migrated, and a fill that fails part way leaves the
 * database as it was, indexes included.
 */
describe.skipIf(inject('testDb') === 'pglite')('seed:scale on a new PostgreSQL database', () => {
  it('ends with the same indexes, each valid, and every row', async () => {
    const { db, drop } = await freshDb();
    try {
      const before = await indexes(db);
      expect(before.length).toBeGreaterThan(10);
      await seedScale(db, { customers: 300, chunk: 100, quiet: true, at: '2026-06-01T12:00:00.000Z' });
      expect(await indexes(db)).toEqual(before);
      expect((await indexes(db)).every((x) => x.valid)).toBe(true);
      expect(await count(db, 'customers')).toBe(300);
      expect(await count(db, 'customer_name_keys')).toBe(300);
    } finally {
      await drop();
    }
  }, 120_000);

  it('a fill that fails part way leaves no rows and every index in place', async () => {
    const { db, drop } = await freshDb();
    try {
      const before = await indexes(db);
      // the second chunk's customers are refused
      await db.exec(`
        CREATE FUNCTION sac_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF (SELECT count(*) FROM customers) > 150 THEN RAISE EXCEPTION 'refused for the test'; END IF;
          RETURN NULL;
        END $$;
        CREATE TRIGGER sac_test_refuse AFTER INSERT ON customers FOR EACH STATEMENT EXECUTE FUNCTION sac_test_refuse();`);
      await expect(
        seedScale(db, { customers: 300, chunk: 100, quiet: true, at: '2026-06-01T12:00:00.000Z' }),
      ).rejects.toThrow('refused for the test');
      expect(await indexes(db)).toEqual(before);
      expect(await count(db, 'customers')).toBe(0);
      expect(await count(db, 'sites')).toBe(0);
    } finally {
      await drop();
    }
  }, 120_000);
});
