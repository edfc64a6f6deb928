import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { freshDb } from '../../../test/harness.ts';
import { type Db, openPostgres, type Queryable } from '../../db/db.ts';
import { migrate } from '../../db/migrate.ts';
import { searchCounted } from './customer-search.repo.ts';

/**
 * Migration 0048: the name-key table a name substring search finds and sorts its matches in holds
 * every customer's name key and list times, from the migration on and after every write.
 */
describe('migration 0048 (customer name keys)', () => {
  it('fills the table from existing customers and keeps it with every insert, rename, touch and delete', async () => {
    const { db, drop } = await freshDb();
    try {
      // migration 0055's insert trigger writes the table too: it is run again after 0048
      await db.exec(`DROP TRIGGER customers_name_keys ON customers;
        DROP TRIGGER customers_added ON customers;
        DROP FUNCTION sac_customer_name_keys();
        DROP TABLE customer_name_keys;
        CREATE INDEX customers_name_trgm ON customers
          USING gin ((translate(lower(first_name || ' ' || last_name), ' -''.', '0000')) gin_trgm_ops);
        DELETE FROM schema_migrations WHERE version IN (48, 55);`);
      const at = new Date('2026-01-10T09:00:00Z');
      const add = async (first: string, last: string) => {
        const uid = randomUUID();
        await db.query(
          `INSERT INTO customers (uid, first_name, last_name, email, auth_email, created_at, modified_at)
           VALUES ($1, $2, $3, $4, $4, $5, $5)`,
          [uid, first, last, `${uid}@x.example`, at],
        );
        return uid;
      };
      const before = await add('Gloria', "O'Neil-Smith");

      await migrate(db);

      const keys = async () =>
        Object.fromEntries(
          (
            await db.query<{ uid: string; k: string; created_at: Date; modified_at: Date }>(
              'SELECT uid::text AS uid, k, created_at, modified_at FROM customer_name_keys',
            )
          ).rows.map((r) => [r.uid, r]),
        );
      expect((await keys())[before]).toMatchObject({
        k: "gloria o'neil-smith",
        created_at: at,
        modified_at: at,
      });

      const after = await add('Adriana', 'Ruiz');
      expect((await keys())[after]?.k).toBe('adriana ruiz');
      const later = new Date('2026-02-01T10:00:00Z');
      await db.query('UPDATE customers SET last_name = $2, modified_at = $3 WHERE uid = $1', [
        after,
        'Vega',
        later,
      ]);
      expect((await keys())[after]).toMatchObject({ k: 'adriana vega', modified_at: later, created_at: at });
      await db.query('UPDATE customers SET modified_at = $2 WHERE uid = $1', [before, later]);
      expect((await keys())[before]?.modified_at).toEqual(later);
      await db.query('DELETE FROM customers WHERE uid = $1', [before]);
      expect((await keys())[before]).toBeUndefined();

      // a name substring search reads the keys: the new name is found, the old one is not
      const uids = async (term: string) =>
        (await searchCounted(db, 'customerName', term)).rows.map((r) => r.uid);
      expect(await uids('drian')).toEqual([after]);
      expect(await uids('vega')).toEqual([after]);
      expect(await uids('ruiz')).toEqual([]);
      expect(await uids('loria')).toEqual([]);
    } finally {
      await drop();
    }
  });
});

/**
 * Migration 0051: the table a site-name search finds and orders its owners in holds every site's
 * name beside its owner's keys, from the migration on.
 */
describe('migration 0051 (site owner keys)', () => {
  it('fills the table from the existing sites and their owners', async () => {
    const { db, drop } = await freshDb();
    try {
      await db.exec(`DROP TRIGGER sites_owner_keys ON sites;
        DROP TRIGGER sites_added ON sites;
        DROP TRIGGER customers_site_owner_keys ON customers;
        DROP FUNCTION sac_site_owner_keys();
        DROP FUNCTION sac_site_owner_keys_of_owner();
        DROP TABLE site_owner_keys;
        ALTER TABLE sites DROP CONSTRAINT sites_name_alphabet;
        CREATE INDEX sites_name_trgm ON sites USING gin ((translate(lower(app_name), '-', 'q')) gin_trgm_ops);
        DELETE FROM schema_migrations WHERE version IN (51, 55);`);
      const created = new Date('2026-01-10T09:00:00Z');
      const modified = new Date('2026-03-02T10:00:00Z');
      const owner = randomUUID();
      await db.query(
        `INSERT INTO customers (uid, first_name, last_name, email, auth_email, created_at, modified_at)
         VALUES ($1, 'Gloria', 'Vega-Ruiz', 'g@x.example', 'g@x.example', $2, $3)`,
        [owner, created, modified],
      );
      const site = await insertSite(db, { owner, name: 'Vega-Shop' });

      await migrate(db);

      const r = await db.query<{ n: string; uid: string; k: string; created_at: Date; modified_at: Date }>(
        'SELECT n, uid::text AS uid, k, created_at, modified_at FROM site_owner_keys WHERE app_id = $1',
        [site.appId],
      );
      expect(r.rows).toEqual([
        { n: 'vega-shop', uid: owner, k: 'gloria vega-ruiz', created_at: created, modified_at: modified },
      ]);
      expect((await searchCounted(db, 'sitename', 'a-sh')).rows.map((c) => c.uid)).toEqual([owner]);
      // A name with a character the search takes for no site name's is refused, by any writer.
      for (const name of ['vega shop', 'vega_shop', 'x'.repeat(64)])
        await expect(insertSite(db, { owner, name }), name).rejects.toMatchObject({ code: '23514' });
    } finally {
      await drop();
    }
  });

  // Two connections: PostgreSQL only (PGlite has one).
  it.skipIf(inject('testDb') !== 'postgres')(
    'copies the keys an owner is being renamed to onto a site added or moved meanwhile',
    async () => {
      const { db, url, drop } = await freshDb();
      const renamer = openPostgres(url!, 1);
      const writer = openPostgres(url!, 1);
      try {
        const owner = await insertCustomer(db, { first: 'Old', last: 'Name', email: 'old@race.example' });
        const other = await insertCustomer(db, {
          first: 'Other',
          last: 'Owner',
          email: 'other@race.example',
        });
        await insertSite(db, { owner, name: 'race-first' });
        const moved = await insertSite(db, { owner: other, name: 'race-moved' });
        const keys = async () =>
          (await db.query<{ n: string; k: string }>('SELECT n, k FROM site_owner_keys ORDER BY n')).rows;
        const rename = (q: Queryable, first: string) =>
          q.query('UPDATE customers SET first_name = $2, modified_at = now() WHERE uid = $1', [owner, first]);
        const meanwhile = () => new Promise((r) => setTimeout(r, 200));

        // The rename first, open while a site is added and another moved to the owner.
        let open = await heldOpen(renamer, (tx) => rename(tx, 'New'));
        const added = insertSite(writer, { owner, name: 'race-added' });
        await meanwhile();
        await open.commit();
        await added;
        open = await heldOpen(renamer, (tx) => rename(tx, 'Newer'));
        const moving = writer.query('UPDATE sites SET owner_uid = $2 WHERE app_id = $1', [
          moved.appId,
          owner,
        ]);
        await meanwhile();
        await open.commit();
        await moving;
        expect(await keys()).toEqual([
          { n: 'race-added', k: 'newer name' },
          { n: 'race-first', k: 'newer name' },
          { n: 'race-moved', k: 'newer name' },
        ]);

        // The site's write first, open while the owner is renamed.
        open = await heldOpen(writer, (tx) => insertSite(tx, { owner, name: 'race-last' }));
        const renaming = rename(renamer, 'Last');
        await meanwhile();
        await open.commit();
        await renaming;
        expect(new Set((await keys()).map((r) => r.k))).toEqual(new Set(['last name']));
      } finally {
        await renamer.close();
        await writer.close();
        await drop();
      }
    },
  );
});

/** A transaction on a connection of its own that runs `work`, then stays open until commit(). */
async function heldOpen(
  db: Db,
  work: (tx: Queryable) => Promise<unknown>,
): Promise<{ commit(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  let worked!: () => void;
  const ready = new Promise<void>((r) => {
    worked = r;
  });
  const done = db.transaction(async (tx) => {
    await work(tx);
    worked();
    await released;
  });
  await Promise.race([ready, done]);
  return {
    commit: async () => {
      release();
      await done;
    },
  };
}
