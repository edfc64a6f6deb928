import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EndpointId } from '@sac/contract/endpoints';
import { describe, expect, it } from 'vitest';
import { createTestApp, freshDb } from '../../test/harness.ts';
import { verifyPassword } from '../lib/password-hash.ts';
import { hashSecret } from '../lib/secrets.ts';
import { approverStanding } from '../modules/auth/approver-cool-down.ts';
import { recheckDomains } from '../modules/site-settings/custom-domains.service.ts';
import { DEMO_COUNTS } from './demo-customer-data.ts';
import { DEMO_NOTICE_MAX_RECIPIENTS } from './notices-seed.ts';
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

  it('fills every list: requests in every state with their logs, for each demo staff member, domains, trials, recent customers', async () => {
    const t = await createTestApp();
    try {
      const seededAt = t.clock.now();
      await seedDemoData(t.db, {
        dataDir: t.config.dataDir,
        demoPassword: 'Demo#Pass1',
        now: seededAt,
        config: t.config,
      });
      // The made-up past sends no mail: no customer is told of a history that did not happen. (The
      // notices' mails are in the outbox as delivered or refused then, for their delivery logs.)
      const outbox = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL',
      );
      expect(outbox.rows[0]!.n).toBe(0);

      // An hour after the first start, as a newcomer signs in.
      t.clock.advance(3_600_000);
      const as = async (email: string) => {
        const session = await t.login(email, 'Demo#Pass1');
        // Read as the console's wire shapes declared below, a subset of the contract's answers.
        const get = async <T>(id: EndpointId, query: Record<string, string | number> = {}): Promise<T> => {
          const r = await t.callLoose(id, { session, query });
          expect(r.status, id).toBe(200);
          return r.body as T;
        };
        return get;
      };
      interface Wire {
        Id: number;
        Initiator: string;
        Consent: string;
        IsCustomerRequest: boolean;
        BreakGlass: boolean;
        Version: number;
        Action: { Status: string; ExpiresAt: string | null };
      }
      interface Dash {
        Impersonation: {
          AwaitingMyDecision?: { Count: number; Items: Array<{ Consent: boolean; AssignedToMe: boolean }> };
          AwaitingCustomer?: { Count: number };
          MineAwaitingOthers: { Count: number };
          LiveGrants: {
            Count: number;
            Items: Array<{ Holder: string; CanRevoke: boolean; ExpiresAt: string }>;
          };
        };
        Sites?: { TrialsEndingSoon: { Count: number } };
        CustomDomains?: { PendingVerification: number; FailingRechecks: number };
        RecentCustomers?: unknown[];
        BreakGlassReview?: { Open: number; Overdue: number; Items: Array<{ OpenedBy: string }> };
      }

      const sa = await as('superadmin@example.com');
      const all = (await sa<{ Data: Wire[] }>('impersonationList', { limit: 200 })).Data;
      const statusOf = (w: Wire) =>
        w.Action.Status === 'Pending' ? `Pending/${w.Consent}` : w.Action.Status;
      expect(new Set(all.map(statusOf))).toEqual(
        new Set(['Pending/pending', 'Pending/granted', 'Approved', 'Expired', 'Rejected', 'Revoked']),
      );
      expect(all.filter((w) => w.IsCustomerRequest)).toHaveLength(1);
      // Every demo staff member asked for some; each change raised the version.
      expect(new Set(all.map((w) => w.Initiator))).toEqual(
        new Set([...DEMO_STAFF.map((s) => s.email), 'charles.babbage@difference.example']),
      );
      // (a break-glass grant is stored Approved: its version is raised by its review alone)
      for (const w of all)
        if (
          !w.BreakGlass &&
          (w.Action.Status !== 'Pending' || (w.Consent === 'granted' && !w.IsCustomerRequest))
        )
          expect(w.Version, `version of ${w.Id}`).toBeGreaterThan(1);
      // A live grant outlives the first hour.
      const live = all.filter((w) => w.Action.Status === 'Approved');
      expect(live.length).toBeGreaterThanOrEqual(2);
      for (const w of live) expect(Date.parse(w.Action.ExpiresAt!)).toBeGreaterThan(t.clock.now().getTime());

      // Each request has its steps in the log, and a deleted request's deletion is there too.
      const log = (
        await sa<{ Data: Array<{ RequestId: number; Event: string; Status: string }> }>('impersonationLogs', {
          limit: 200,
        })
      ).Data;
      for (const w of all)
        expect(
          log.some((e) => e.RequestId === w.Id),
          `log of ${w.Id}`,
        ).toBe(true);
      expect(new Set(log.map((e) => e.Event))).toEqual(
        new Set([
          'request',
          'customer-request',
          'edit',
          'consent-granted',
          'consent-denied',
          'approve',
          'reject',
          'revoke',
          'delete',
          // the expiry job's step for the grants whose time ran out
          'expire',
          // break-glass access: opened, who was told, a review closed
          'break-glass',
          'break-glass-told',
          'break-glass-review',
        ]),
      );
      const deleted = log.find((e) => e.Event === 'delete')!;
      expect(all.some((w) => w.Id === deleted.RequestId)).toBe(false);

      // The dashboard of each: the SuperAdmin has requests to decide now (consented to) and
      // requests awaiting the customer's consent.
      const saDash = await sa<Dash>('dashboard');
      const awaiting = saDash.Impersonation.AwaitingMyDecision!;
      expect(awaiting.Count).toBeGreaterThanOrEqual(2);
      expect(awaiting.Items.every((i) => i.Consent)).toBe(true);
      expect(saDash.Impersonation.AwaitingCustomer!.Count).toBeGreaterThanOrEqual(1);
      expect(awaiting.Items.every((i) => i.AssignedToMe)).toBe(true);
      expect(saDash.Impersonation.MineAwaitingOthers.Count).toBeGreaterThanOrEqual(1);
      expect(saDash.Impersonation.LiveGrants.Items.some((g) => g.CanRevoke)).toBe(true);
      expect(saDash.Sites!.TrialsEndingSoon.Count).toBeGreaterThanOrEqual(1);
      expect(saDash.CustomDomains!.PendingVerification).toBeGreaterThanOrEqual(1);
      for (const email of ['admin@example.com', 'support@example.com']) {
        const d = await (await as(email))<Dash>('dashboard');
        expect(d.Impersonation.MineAwaitingOthers.Count, email).toBeGreaterThanOrEqual(1);
        expect(d.Impersonation.LiveGrants.Count, email).toBeGreaterThanOrEqual(1);
        expect(d.Impersonation.LiveGrants.Items.every((g) => g.Holder === email)).toBe(true);
        expect(d.RecentCustomers!.length, email).toBeGreaterThan(0);
      }
      expect(saDash.RecentCustomers!.length).toBeGreaterThan(0);

      // Break-glass: one review open for the demo SuperAdmin to close (the on-call SuperAdmin
      // opened it), not overdue yet; one closed, with its note, on the reviews page.
      expect(saDash.BreakGlassReview).toMatchObject({
        Open: 1,
        Overdue: 0,
        Items: [{ OpenedBy: 'oncall@example.com' }],
      });
      const closed = await sa<{ Data: Array<{ OpenedBy: string; ClosedBy: string; Note: string }> }>(
        'breakGlassReviews',
        { state: 'closed' },
      );
      expect(closed.Data).toHaveLength(1);
      expect(closed.Data[0]).toMatchObject({
        OpenedBy: 'superadmin@example.com',
        ClosedBy: 'oncall@example.com',
      });

      // Domains in every state the cross-site list filters by, and the dashboard counts the troubled
      // ones; the first start's re-check (these names do not resolve) leaves the verified ones alone.
      await recheckDomains(t.ctx);
      for (const status of ['pending', 'failing', 'verified'])
        expect(
          (await sa<{ Data: unknown[] }>('customDomainsAll', { status })).Data.length,
          status,
        ).toBeGreaterThan(0);
      expect(saDash.CustomDomains!.FailingRechecks).toBeGreaterThanOrEqual(1);
      const checked = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM custom_domains WHERE status = 'Pending Verification' AND last_check_result IS NOT NULL`,
      );
      expect(checked.rows[0]!.n).toBeGreaterThan(0);

      // Notices: two sent (one mail refused, in its delivery log) and one scheduled.
      interface NoticeWire {
        Id: number;
        Kind: string;
        Status: string;
        Progress: { Total: number; Sent: number; Failed: number; Pending: number };
      }
      const notices = (await sa<{ Data: NoticeWire[] }>('noticeList')).Data;
      expect(notices.map((n) => [n.Kind, n.Status])).toEqual([
        ['announcement', 'scheduled'],
        ['incident', 'sent'],
        ['maintenance', 'sent'],
      ]);
      const maintenance = notices.find((n) => n.Kind === 'maintenance')!;
      expect(maintenance.Progress.Failed).toBe(1);
      expect(maintenance.Progress.Sent).toBe(maintenance.Progress.Total - 1);
      expect(maintenance.Progress.Pending).toBe(0);
      const refused = await sa<{ Data: Array<{ Status: string; Reason: string | null }> }>(
        'noticeDeliveries',
        { id: maintenance.Id, status: 'failed' },
      );
      expect(refused.Data).toEqual([
        expect.objectContaining({ Status: 'failed', Reason: expect.stringContaining('550') }),
      ]);

      // Each demo staff member's bell holds what the history told them.
      for (const email of ['superadmin@example.com', 'admin@example.com', 'support@example.com']) {
        const inbox = await (await as(email))<{ Data: unknown[]; UnreadCount: number }>('staffNotifications');
        expect(inbox.Data.length, email).toBeGreaterThan(0);
        expect(inbox.UnreadCount, email).toBeGreaterThan(0);
      }
    } finally {
      await t.close();
    }
  });

  it('on top of a large database (the scale generator, a benchmark), sends its notices to its chosen sites only', async () => {
    const t = await createTestApp();
    try {
      // More site owners in eu-central than a demo notice may reach; no staff yet, so the demo seeds.
      await t.db.query(
        `WITH c AS (
           INSERT INTO customers (uid, first_name, last_name, email, created_at, modified_at)
           SELECT gen_random_uuid(), 'Scale', 'Owner' || n, 'owner' || n || '@scale.example', now(), now()
             FROM generate_series(1, $1::int) n RETURNING uid, email)
         INSERT INTO sites (app_name, api_key, secret_hash, owner_uid, plan, plan_status, data_center,
             global_server, db_name, features, production_url, staging_url, created_at, modified_at)
         SELECT 'scale-' || split_part(c.email, '@', 1), gen_random_uuid(), sha256(convert_to(c.email, 'UTF8')), c.uid,
             'Developer Premium', 'Subscribed', 'eu-central', 'euc-shared-1', 'scale-db', '{}',
             'https://scale.example.com', 'https://staging.scale.example.com', now(), now()
           FROM c`,
        [DEMO_NOTICE_MAX_RECIPIENTS + 1],
      );
      await seedDemoData(t.db, { dataDir: t.config.dataDir, demoPassword: 'Demo#Pass1', config: t.config });
      const notices = await t.db.query<{ audience: { Type: string; AppIds?: number[] }; recipients: number }>(
        `SELECT n.audience, (SELECT count(*)::int FROM customer_notice_recipients r WHERE r.notice_id = n.id) AS recipients
           FROM customer_notices n ORDER BY n.id`,
      );
      expect(notices.rows).toHaveLength(3);
      for (const n of notices.rows) {
        expect(n.audience.Type).toBe('sites');
        expect(n.audience.AppIds!.length).toBeGreaterThan(0);
        expect(n.recipients).toBeLessThanOrEqual(n.audience.AppIds!.length);
      }
      const mails = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_outbox');
      expect(mails.rows[0]!.n).toBeLessThan(50);
    } finally {
      await t.close();
    }
  });
});
