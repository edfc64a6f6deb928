import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDb } from '../../test/harness.ts';
import { verifyPassword } from '../lib/password-hash.ts';
import { hashSecret } from '../lib/secrets.ts';
import { approverStanding } from '../modules/auth/approver-cool-down.ts';
import { DEMO_COUNTS } from './customer-seed.ts';
import { DEMO_STAFF, seedDemoData } from './seed.ts';

describe('demo data (first start)', () => {
  it('creates the demo staff with the demo password, the customers, and activity naming the staff', async () => {
    const { db, drop } = await freshDb();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-seed-'));
    try {
      const demo = await seedDemoData(db, { dataDir, demoPassword: 'Demo#Pass1' });
      expect(demo).toMatchObject({ emails: DEMO_STAFF.map((s) => s.email), password: 'Demo#Pass1' });
      // The named demo sites' key and secret are made on this install, and are what is stored.
      expect(demo?.sites?.map((s) => s.name)).toEqual(['analytical-engine', 'difference-engine']);
      for (const site of demo?.sites ?? []) {
        expect(site.apiKey).toMatch(/^[0-9a-f-]{36}$/);
        expect(site.secret.length).toBeGreaterThanOrEqual(32);
        const stored = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM sites WHERE app_name = $1 AND api_key = $2 AND secret_hash = $3',
          [site.name, site.apiKey, hashSecret(site.secret)],
        );
        expect(stored.rows[0]!.n).toBe(1);
      }

      const staff = await db.query<{ email: string; password_hash: string }>(
        'SELECT email, password_hash FROM staff ORDER BY email',
      );
      expect(staff.rows.map((r) => r.email).sort()).toEqual(DEMO_STAFF.map((s) => s.email).sort());
      // One hash, computed once, for staff who share the demo password; it verifies that password.
      expect(new Set(staff.rows.map((r) => r.password_hash)).size).toBe(1);
      expect(await verifyPassword(staff.rows[0]!.password_hash, 'Demo#Pass1')).toBe(true);
      expect(await verifyPassword(staff.rows[0]!.password_hash, 'Demo#Pass2')).toBe(false);

      // The demo SuperAdmin approves impersonation from the first start: no promotion cool-down.
      const sa = await db.query<{ uid: string }>("SELECT uid FROM staff_roles WHERE role = 'SuperAdmin'");
      expect(sa.rows.length).toBeGreaterThan(0);
      for (const { uid } of sa.rows)
        expect(await approverStanding(db, uid, new Date(), 24 * 3_600_000)).toEqual({
          since: null,
          canApproveFrom: null,
        });

      const customers = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers');
      expect(customers.rows[0]!.n).toBe(DEMO_COUNTS.customers);
      // Activity rows by demo staff carry their uid: the staff were inserted before them.
      const byStaff = await db.query<{ n: number; unnamed: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE actor_uid IS NULL)::int AS unnamed
         FROM activity_log WHERE lower(actor_email) = ANY($1::text[])`,
        [DEMO_STAFF.map((s) => s.email)],
      );
      expect(byStaff.rows[0]!.n).toBeGreaterThan(0);
      expect(byStaff.rows[0]!.unnamed).toBe(0);

      // A second start finds the data and prints the same sign-ins; nothing is added.
      expect(await seedDemoData(db, { dataDir })).toEqual(demo);
      const again = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM staff');
      expect(again.rows[0]!.n).toBe(DEMO_STAFF.length);
    } finally {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
