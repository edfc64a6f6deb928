import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../test/harness.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0029 on rows written before it, when an email change could leave a sign-in email that
 * another customer then took as their email: every address ends up with one customer.
 */
describe('migration 0029 (customer addresses) over existing rows', () => {
  it('keeps each email with its customer and gives a left-behind sign-in email back to its own email', async () => {
    const { db, drop } = await freshDb();
    try {
      // migration 0055's insert trigger writes the table too: it is run again after 0029
      await db.exec(`DROP TRIGGER customers_addresses ON customers;
        DROP TRIGGER customers_added ON customers;
        DROP FUNCTION sac_customer_addresses();
        DROP TABLE customer_addresses;
        DELETE FROM schema_migrations WHERE version IN (29, 55);`);
      const at = new Date('2026-01-10T09:00:00Z');
      const add = async (email: string, authEmail: string) => {
        const uid = randomUUID();
        await db.query(
          `INSERT INTO customers (uid, first_name, last_name, email, auth_email, created_at, modified_at)
           VALUES ($1, 'A', 'B', $2, $3, $4, $4)`,
          [uid, email, authEmail, at],
        );
        return uid;
      };
      const moved = await add('new@x.example', 'old@x.example'); // changed email, sign-in left behind
      const taker = await add('OLD@x.example', 'old@x.example'); // then created with that address
      const plain = await add('plain@x.example', 'plain@x.example');
      const twin = await add('twin2@x.example', 'shared@x.example');
      const twin1 = await add('twin1@x.example', 'SHARED@x.example');

      await migrate(db);

      const addresses = await db.query<{ address: string; uid: string }>(
        'SELECT address, uid::text AS uid FROM customer_addresses ORDER BY address',
      );
      const owner = Object.fromEntries(addresses.rows.map((r) => [r.address, r.uid]));
      expect(owner['old@x.example']).toBe(taker);
      expect(owner['new@x.example']).toBe(moved);
      expect(owner['plain@x.example']).toBe(plain);
      // of two customers sharing a sign-in email, one keeps it and the other gets their own email
      expect([twin, twin1]).toContain(owner['shared@x.example']);
      const auth = await db.query<{ uid: string; auth_email: string }>(
        'SELECT uid::text AS uid, auth_email FROM customers',
      );
      const authOf = Object.fromEntries(auth.rows.map((r) => [r.uid, r.auth_email]));
      expect(authOf[moved]).toBe('new@x.example');
      const sharedKept = owner['shared@x.example'] === twin ? twin1 : twin;
      expect(authOf[sharedKept]).toBe(sharedKept === twin ? 'twin2@x.example' : 'twin1@x.example');
      expect(addresses.rows).toHaveLength(6);
    } finally {
      await drop();
    }
  });
});
