import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../test/harness.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0074 on a database as it was before it: a bulk job written by 0073 (a customer's
 * sites, the only list there was) stays valid and reads as of the customer-sites list.
 */
describe('migration 0074 (bulk kinds) keeps the jobs written before it', () => {
  it('names their list customer-sites, with no params, and holds a customer to that list', async () => {
    const { db, drop } = await freshDb();
    try {
      await db.exec(`ALTER TABLE bulk_jobs DROP CONSTRAINT bulk_jobs_customer_of_sites;
        ALTER TABLE bulk_jobs DROP COLUMN list, DROP COLUMN params;
        DELETE FROM bulk_jobs WHERE customer_uid IS NULL;
        ALTER TABLE bulk_jobs ALTER COLUMN customer_uid SET NOT NULL;
        DELETE FROM schema_migrations WHERE version = 74;`);
      const actor = randomUUID();
      await db.query(
        "INSERT INTO staff (uid, email, full_name, password_hash, created_at) VALUES ($1, 'old@example.com', 'Old', 'x', now())",
        [actor],
      );
      const customer = randomUUID();
      await db.query(
        `INSERT INTO bulk_jobs (action, customer_uid, selection, item_count, actor_uid, actor_email, actor,
           client_address, state, created_at)
         VALUES ('site.deactivate', $1, '{"Kind":"all"}', 3, $2, 'old@example.com', '{"name":"Old","roles":[],"scope":null}',
           '127.0.0.1', 'done', now())`,
        [customer, actor],
      );
      await migrate(db);
      const r = await db.query<{ list: string; params: unknown; customer_uid: string }>(
        'SELECT list, params, customer_uid FROM bulk_jobs',
      );
      expect(r.rows).toEqual([{ list: 'customer-sites', params: {}, customer_uid: customer }]);
      // a job of another list has no customer, and a customer's sites job has one
      await expect(
        db.query(
          `INSERT INTO bulk_jobs (action, list, customer_uid, selection, item_count, actor_uid, actor_email, actor,
             client_address, state, created_at)
           VALUES ('request.reject', 'impersonation-requests', $1, '{"Kind":"all"}', 1, $2, 'old@example.com', '{}',
             '127.0.0.1', 'planned', now())`,
          [customer, actor],
        ),
      ).rejects.toThrow(/bulk_jobs_customer_of_sites/);
    } finally {
      await drop();
    }
  });
});
