import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../test/customer-fixtures.ts';
import { freshDb } from '../../test/harness.ts';
import { migrate } from './migrate.ts';

/**
 * Migration 0027 on a database as it was before it: the columns it adds are dropped and it runs
 * again over rows written the old way (the holder was read from action_taken_by, which a later
 * revoke overwrote; role grants had no time).
 */
describe('migration 0027 (grant holder, role grant times) backfills existing rows', () => {
  it('takes the holder from the requester or the logged approver, and promotion times from the activity log', async () => {
    const { db, drop } = await freshDb();
    try {
      await db.exec(`ALTER TABLE impersonation_requests DROP COLUMN holder_uid, DROP COLUMN holder_email;
        ALTER TABLE staff_roles DROP COLUMN granted_at;
        DELETE FROM schema_migrations WHERE version = 27;`);
      const at = new Date('2026-01-10T09:00:00Z');
      const staff: Record<string, string> = {};
      for (const [name, role] of [
        ['boss', 'SuperAdmin'],
        ['chief', 'SuperAdmin'],
        ['agent', 'Admin'],
      ] as const) {
        staff[name] = randomUUID();
        await db.query(
          "INSERT INTO staff (uid, email, full_name, password_hash, created_at) VALUES ($1, $2, $3, 'x', $4)",
          [staff[name], `${name}@example.com`, name, at],
        );
        await db.query('INSERT INTO staff_roles (uid, role) VALUES ($1, $2)', [staff[name], role]);
      }
      const promoted = new Date('2026-01-12T08:00:00Z');
      await db.query(
        `INSERT INTO activity_log (at, actor_uid, action, target_type, target_id, details) VALUES
           ($1, $2, 'team.roles', 'staff', $3, '{"from": ["Admin"], "to": ["SuperAdmin"]}'),
           ($4, $2, 'team.roles', 'staff', $3, '{"from": ["SuperAdmin"], "to": ["SuperAdmin", "Support"]}')`,
        [promoted, staff.boss, staff.chief, new Date('2026-01-13T08:00:00Z')],
      );
      const owner = await insertCustomer(db, { first: 'Old', last: 'Rows', email: 'old@rows.example' });
      const request = async (customer: boolean, status: string, name: string) => {
        const { appId } = await insertSite(db, { owner, name });
        const r = await db.query<{ id: number }>(
          `INSERT INTO impersonation_requests (app_id, initiator_uid, initiator_email, is_customer_request, consent,
             priority, description, assignees, proxy_roles, duration_minutes, status, action_taken_by, created_at,
             modified_at, expires_at, approved_roles)
           VALUES ($1, $2, $3, $4, 'granted', 'High', 'old', '{boss@example.com}', '{Developer,Analyst}', 60, $5,
             'chief@example.com', $6, $6, $7, '{Developer}') RETURNING id`,
          [
            appId,
            customer ? null : staff.agent,
            customer ? 'old@rows.example' : 'agent@example.com',
            customer,
            status,
            at,
            status === 'Pending' ? null : new Date('2026-03-01T00:00:00Z'),
          ],
        );
        const id = Number(r.rows[0]!.id);
        if (status !== 'Pending') {
          await db.query(
            `INSERT INTO impersonation_log (request_id, at, actor, event, status) VALUES
               ($1, $2, 'boss@example.com', 'approve', 'Approved'), ($1, $2, 'chief@example.com', 'revoke', 'Approved')`,
            [id, at],
          );
        }
        return id;
      };
      const staffRequest = await request(false, 'Approved', 'old-staff');
      const customerRequest = await request(true, 'Approved', 'old-customer');
      const pending = await request(false, 'Pending', 'old-pending');

      expect(await migrate(db)).toEqual([27]);

      const holders = await db.query<{ id: number; holder_uid: string | null; holder_email: string | null }>(
        'SELECT id, holder_uid, holder_email FROM impersonation_requests ORDER BY id',
      );
      const of = (id: number) => holders.rows.find((x) => Number(x.id) === id);
      expect(of(staffRequest)).toMatchObject({ holder_uid: staff.agent, holder_email: 'agent@example.com' });
      // not chief, whose revoke was the last action
      expect(of(customerRequest)).toMatchObject({ holder_uid: staff.boss, holder_email: 'boss@example.com' });
      expect(of(pending)).toMatchObject({ holder_uid: null, holder_email: null });

      const granted = await db.query<{ uid: string; granted_at: Date | null }>(
        "SELECT uid, granted_at FROM staff_roles WHERE role = 'SuperAdmin'",
      );
      const grantOf = (uid: string) => granted.rows.find((x) => x.uid === uid)?.granted_at ?? null;
      // chief's promotion is the change that gave the role; a later change that kept it does not count
      expect(new Date(grantOf(staff.chief!)!).toISOString()).toBe(promoted.toISOString());
      expect(grantOf(staff.boss!)).toBeNull(); // held since before: no cool-down
    } finally {
      await drop();
    }
  });
});
