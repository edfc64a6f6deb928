import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../test/customer-fixtures.ts';
import { freshDb } from '../../test/harness.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0035 on a database as it was before it: what it adds is dropped and it runs again over
 * rows written the old way (site and impersonation request only in details; impersonation steps
 * only in impersonation_log).
 */
describe('migration 0035 (staff audit trail) fills the new columns and copies the impersonation steps', () => {
  it('reads customer, site and impersonation request out of old rows, and copies each step once', async () => {
    const { db, drop } = await freshDb();
    try {
      await db.exec(`DROP TRIGGER activity_log_append_only ON activity_log;
        DROP TRIGGER activity_log_no_truncate ON activity_log;
        DROP TRIGGER impersonation_log_append_only ON impersonation_log;
        DROP TRIGGER impersonation_log_no_truncate ON impersonation_log;
        DROP FUNCTION refuse_audit_change();
        DROP INDEX activity_log_at_idx, activity_log_actor_email_idx, activity_log_action_idx,
          activity_log_customer_uid_idx, activity_log_app_idx, activity_log_search_trgm;
        ALTER TABLE activity_log DROP COLUMN search_text, DROP COLUMN request_id,
          DROP COLUMN impersonation_request_id, DROP COLUMN customer_uid, DROP COLUMN app_id;
        DELETE FROM schema_migrations WHERE version = 35;`);
      const at = new Date('2026-02-01T09:00:00Z');
      const owner = await insertCustomer(db, { first: 'Old', last: 'Trail', email: 'old@trail.example' });
      const { appId } = await insertSite(db, { owner, name: 'old-trail' });
      const agent = randomUUID();
      await db.query(
        "INSERT INTO staff (uid, email, full_name, password_hash, created_at) VALUES ($1, 'agent@example.com', 'Agent', 'x', $2)",
        [agent, at],
      );
      await db.query(
        `INSERT INTO activity_log (at, actor_uid, actor_email, action, target_type, target_id, details) VALUES
           ($1, $2, 'agent@example.com', 'site.security', 'customer', $3, $4),
           ($1, $2, 'agent@example.com', 'login.success', NULL, NULL, '{}')`,
        [at, agent, owner, JSON.stringify({ appId, impersonationRequestId: 77 })],
      );
      const req = await db.query<{ id: string }>(
        `INSERT INTO impersonation_requests (app_id, initiator_uid, initiator_email, priority, description, assignees,
           proxy_roles, duration_minutes, status, created_at, modified_at)
         VALUES ($1, $2, 'agent@example.com', 'High', 'old', '{}', '{Developer}', 60, 'Pending', $3, $3) RETURNING id`,
        [appId, agent, at],
      );
      const requestId = Number(req.rows[0]!.id);
      await db.query(
        `INSERT INTO impersonation_log (request_id, at, actor, event, status, client_address, details) VALUES
           ($1, $2, 'AGENT@example.com', 'request', 'Pending', '192.0.2.1', '{"appId": 1}')`,
        [requestId, at],
      );

      await migrate(db);

      const rows = await db.query<Record<string, unknown>>(
        `SELECT action, actor_uid::text AS actor_uid, customer_uid::text AS customer_uid, app_id::int AS app_id,
                impersonation_request_id::int AS imp, target_type, details->>'status' AS status
           FROM activity_log ORDER BY id`,
      );
      expect(rows.rows).toEqual([
        {
          action: 'site.security',
          actor_uid: agent,
          customer_uid: owner,
          app_id: appId,
          imp: 77,
          target_type: 'customer',
          status: null,
        },
        {
          action: 'login.success',
          actor_uid: agent,
          customer_uid: null,
          app_id: null,
          imp: null,
          target_type: null,
          status: null,
        },
        {
          action: 'impersonation.request',
          actor_uid: agent,
          customer_uid: owner,
          app_id: appId,
          imp: requestId,
          target_type: 'impersonation-request',
          status: 'Pending',
        },
      ]);
      await expect(db.query('DELETE FROM activity_log')).rejects.toThrow(/append-only/);
    } finally {
      await drop();
    }
  });
});
