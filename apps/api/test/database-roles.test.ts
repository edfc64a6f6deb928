import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EndpointId } from '@sac/contract/endpoints';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type Db, openPostgres } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { migrateConfigured } from '../src/db/open.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { hashPassword } from '../src/lib/password-hash.ts';
import { createMailTransport } from '../src/mail/mailer.ts';
import { insertStaff } from '../src/modules/auth/staff.repo.ts';
import { answerOf, CONSOLE_ORIGIN, endpointRequest, freshDb, type LooseCall, PASSWORD } from './harness.ts';

/**
 * On PostgreSQL the application connects as a role that does not own the staff trail: the
 * migrations run as DATABASE_OWNER_URL's role, which grants DATABASE_URL's only what it needs.
 * PGlite has one user, the embedded process's own: there is no role to keep from the trail.
 */
const onPostgres = inject('testDb') === 'postgres';

describe.skipIf(!onPostgres)(
  'the application role on PostgreSQL (PGlite has no roles: skipped there)',
  () => {
    const role = `sac_app_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    let fresh: Awaited<ReturnType<typeof freshDb>>;
    let ownerUrl: string;
    let appUrl: string;
    let asApp: Db;
    let admin: pg.Client;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-app-role-'));

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: inject('pgUrl') });
      await admin.connect();
      await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'app-role-test'`);
      // A copy of the migrated template, owned by the harness's (owner) role; the app as the new role.
      fresh = await freshDb();
      ownerUrl = fresh.url!;
      const u = new URL(ownerUrl);
      u.username = role;
      u.password = 'app-role-test';
      appUrl = u.toString();
      asApp = openPostgres(appUrl, 2);
    });
    afterAll(async () => {
      await asApp?.close();
      await fresh?.drop();
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('migrates as the owner, grants the role, and serves as the role: a write adds its trail row', async () => {
      // Before the grants the role may not even read the staff.
      await expect(asApp.query('SELECT 1 FROM staff LIMIT 1')).rejects.toThrow(/permission denied/);
      const config = {
        ...loadConfig({}),
        dataDir,
        consoleOrigins: [CONSOLE_ORIGIN],
        staffMfa: 'optional' as const,
        databaseUrl: appUrl,
        databaseOwnerUrl: ownerUrl,
      };
      expect(await migrateConfigured(config, asApp)).toEqual({ applied: [], warning: undefined });
      // a tool that migrates on DATABASE_URL alone (seed, create-admin) finds it up to date as the role
      expect(await migrate(asApp)).toEqual([]);
      // one URL for both: the owner migrates, and is warned at start that it owns the trail
      const single = { ...config, databaseUrl: ownerUrl, databaseOwnerUrl: undefined };
      expect(await migrateConfigured(single, fresh.db)).toEqual({
        applied: [],
        warning: expect.stringMatching(/owns the staff trail/),
      });

      const silent = { info() {}, error() {} };
      const mailTransport = createMailTransport({
        smtpUrl: undefined,
        outboxDir: path.join(dataDir, 'outbox'),
        from: config.mailFrom,
        log: silent,
      });
      const { app, ctx } = await buildApp({
        config,
        db: asApp,
        clock: new ManualClock(),
        mailTransport,
        logger: false,
      });
      try {
        await app.ready();
        const clock = ctx.clock;
        await insertStaff(asApp, {
          uid: randomUUID(),
          email: 'boss@example.com',
          fullName: 'Boss',
          passwordHash: await hashPassword(PASSWORD),
          roles: ['SuperAdmin'],
          at: clock.now(),
        });
        const call = async <I extends EndpointId>(id: I, input: LooseCall) =>
          answerOf(id, await app.inject(endpointRequest(id, input)));
        const login = await call('login', { body: { email: 'boss@example.com', password: PASSWORD } });
        expect(login.status, login.raw.body).toBe(200);
        const pair = login.body;
        if (!('xtoken' in pair)) throw new Error('login asked for a second step');
        const created = await call('teamCreate', {
          body: { role: ['Support'], email: 'new-member@example.com', name: 'New Member' },
          session: { xtoken: pair.xtoken, xsign: pair.xsign },
          headers: { origin: CONSOLE_ORIGIN },
        });
        expect(created.status, created.raw.body).toBe(200);
        const rows = await asApp.query<{ action: string }>(
          "SELECT action FROM activity_log WHERE action IN ('login.success', 'team.create') ORDER BY id",
        );
        expect(rows.rows.map((r) => r.action)).toEqual(['login.success', 'team.create']);
      } finally {
        await ctx.mailer.flush();
        await app.close();
      }
    });

    it.each([
      ['ALTER TABLE activity_log DISABLE TRIGGER ALL', /must be owner/],
      ["UPDATE activity_log SET action = 'logout'", /permission denied/],
      ['DELETE FROM activity_log', /permission denied/],
      ['TRUNCATE activity_log', /permission denied/],
      ['DROP TABLE activity_log', /must be owner/],
      ['ALTER TABLE impersonation_log DISABLE TRIGGER ALL', /must be owner/],
      ['DELETE FROM impersonation_log', /permission denied/],
      ["UPDATE schema_migrations SET name = 'x'", /permission denied/],
    ])('refuses the role: %s', async (sql, refusal) => {
      await expect(asApp.query(sql)).rejects.toThrow(refusal);
      const n = await fresh.db.query<{ n: number }>('SELECT count(*)::int AS n FROM activity_log');
      expect(n.rows[0]!.n).toBeGreaterThanOrEqual(2);
    });
  },
);
