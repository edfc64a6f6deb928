import { describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../test/customer-fixtures.ts';
import { freshDb } from '../../test/harness.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0041 on a database as it was before it: the log's entries learn their request's site
 * (the log's sort by site name), the log stays append-only, and entries written later get theirs.
 */
describe('migration 0041 (list sorting) backfills the site of every log entry', () => {
  it('sets app_id on existing entries, keeps the log append-only, and sets it on new entries', async () => {
    const { db, drop } = await freshDb();
    try {
      await db.exec(`DROP TRIGGER impersonation_log_app ON impersonation_log;
        DROP FUNCTION impersonation_log_set_app();
        DROP INDEX impersonation_log_app_idx, impersonation_log_time_idx, impersonation_log_status_request_idx,
          impersonation_log_status_time_idx, impersonation_requests_status_id_idx,
          impersonation_requests_status_modified_idx, impersonation_requests_status_priority_idx,
          impersonation_requests_app_id_idx, impersonation_requests_app_status_idx;
        CREATE INDEX impersonation_requests_app_idx ON impersonation_requests (app_id) WHERE deleted_at IS NULL;
        ALTER TABLE impersonation_log DROP COLUMN app_id;
        DELETE FROM schema_migrations WHERE version = 41;`);
      const owner = await insertCustomer(db, { first: 'Old', last: 'Log', email: 'old@log.example' });
      const at = new Date('2026-01-10T09:00:00Z');
      const requestOn = async (name: string) => {
        const { appId } = await insertSite(db, { owner, name });
        const r = await db.query<{ id: string }>(
          `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees,
             proxy_roles, duration_minutes, created_at, modified_at)
           VALUES ($1, 'agent@example.com', 'granted', 'Low', 'old', '{boss@example.com}', '{Developer}', 60, $2, $2)
           RETURNING id::text`,
          [appId, at],
        );
        return { appId, id: Number(r.rows[0]!.id) };
      };
      const a = await requestOn('old-log-a');
      const b = await requestOn('old-log-b');
      await db.query(
        `INSERT INTO impersonation_log (request_id, at, event, status)
         SELECT CASE WHEN g % 2 = 0 THEN $1::bigint ELSE $2::bigint END, $3, 'request', 'Pending'
         FROM generate_series(1, 6) g`,
        [a.id, b.id, at],
      );
      expect(await migrate(db)).toEqual([41]);
      const sites = await db.query<{ request_id: string; app_id: string }>(
        'SELECT request_id::text, app_id::text FROM impersonation_log ORDER BY id',
      );
      expect(sites.rows).toHaveLength(6);
      for (const row of sites.rows)
        expect(Number(row.app_id)).toBe(Number(row.request_id) === a.id ? a.appId : b.appId);
      await expect(db.query('UPDATE impersonation_log SET actor = $1', ['x'])).rejects.toThrow();
      await db.query(
        "INSERT INTO impersonation_log (request_id, at, event, status) VALUES ($1, $2, 'edit', 'Pending')",
        [b.id, at],
      );
      const last = await db.query<{ app_id: string }>(
        'SELECT app_id::text FROM impersonation_log ORDER BY id DESC LIMIT 1',
      );
      expect(Number(last.rows[0]!.app_id)).toBe(b.appId);
    } finally {
      await drop();
    }
  });
});
