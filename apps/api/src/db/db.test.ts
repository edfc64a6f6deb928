import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_IN_ROLES } from '@sac/contract/permissions';
import { describe, expect, inject, it } from 'vitest';
import { nodeRuntime } from '../../../../scripts/node-runtime.mjs';
import { freshDb } from '../../test/harness.ts';
import { databaseLeases } from '../lib/leases.ts';
import { openPgliteDir } from './db.ts';
import { loadMigrations, migrate } from './migrate.ts';
import { dropOrphanedLeases } from './open.ts';

describe('migrations', () => {
  it('are numbered files applied once; running them again applies nothing', async () => {
    const { db, drop } = await freshDb();
    try {
      const versions = loadMigrations().map((m) => m.version);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
      expect(await migrate(db)).toEqual([]);
      const r = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(r.rows.map((x) => x.version)).toEqual(versions);
      const roles = await db.query<{ name: string }>('SELECT name FROM roles WHERE built_in ORDER BY name');
      expect(roles.rows.map((x) => x.name)).toEqual(['Admin', 'Auditor', 'SuperAdmin', 'Support']);
    } finally {
      await drop();
    }
  });

  it('restores a built-in role whose permissions were changed, and rewrites none that match', async () => {
    const { db, drop } = await freshDb();
    try {
      await db.query("UPDATE roles SET permissions = '{}' WHERE name = 'Support'");
      const ctid = async (name: string) =>
        (await db.query<{ ctid: string }>('SELECT ctid::text FROM roles WHERE name = $1', [name])).rows[0]!
          .ctid;
      const adminBefore = await ctid('Admin');
      await migrate(db);
      const support = await db.query<{ permissions: string[] }>(
        "SELECT permissions FROM roles WHERE name = 'Support'",
      );
      expect(support.rows[0]!.permissions).toEqual([...BUILT_IN_ROLES.Support!.permissions]);
      expect(await ctid('Admin')).toBe(adminBefore); // an update would have moved the row
    } finally {
      await drop();
    }
  });

  it('puts the built-in roles back once when instances start together (no duplicate-name failure)', async () => {
    const { db, drop } = await freshDb();
    try {
      for (let round = 0; round < 5; round++) {
        await db.query('DELETE FROM roles WHERE built_in');
        await Promise.all([migrate(db), migrate(db), migrate(db), migrate(db)]);
        const roles = await db.query<{ name: string }>('SELECT name FROM roles WHERE built_in ORDER BY name');
        expect(roles.rows.map((x) => x.name)).toEqual(['Admin', 'Auditor', 'SuperAdmin', 'Support']);
      }
    } finally {
      await drop();
    }
  });

  it('rolls back a failing transaction whole', async () => {
    const { db, drop } = await freshDb();
    try {
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO app_meta (key, value) VALUES ('x', '1')");
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect((await db.query("SELECT 1 FROM app_meta WHERE key = 'x'")).rows).toEqual([]);
    } finally {
      await drop();
    }
  });
});

// PGlite-only behaviour: run once, in the PGlite leg.
describe.skipIf(inject('testDb') === 'postgres')('the embedded database directory', () => {
  it('cannot be opened by a second process while one holds it, and can be after', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-lock-'));
    const dataDir = path.join(dir, 'pglite');
    const db = await openPgliteDir(dataDir);
    try {
      await migrate(db);
      const script = `import { openPgliteDir } from ${JSON.stringify(fileURLToPath(new URL('./db.ts', import.meta.url)))};
        try { const db = await openPgliteDir(${JSON.stringify(dataDir)}); await db.close(); console.log('OPENED'); }
        catch (e) { console.log('REFUSED', e.message); }`;
      const run = () => {
        const r = spawnSync(nodeRuntime().node, ['--input-type=module', '-e', script], {
          encoding: 'utf8',
          timeout: 60_000,
        });
        return r.stdout + r.stderr;
      };
      expect(run()).toContain('REFUSED The embedded database is in use by another process');
      await expect(openPgliteDir(dataDir)).rejects.toThrow('in use');
      await db.close();
      expect(run()).toContain('OPENED');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('takes over a lock left by a process that has died', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-lock-'));
    try {
      fs.writeFileSync(path.join(dir, 'pglite.lock'), '999999');
      const db = await openPgliteDir(path.join(dir, 'pglite'));
      await db.close();
      expect(fs.existsSync(path.join(dir, 'pglite.lock'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('lets the next process take the job leases a killed one held, without waiting for their expiry', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-lease-'));
    try {
      const before = await openPgliteDir(path.join(dir, 'pglite'));
      await migrate(before);
      const clock = { now: () => new Date() };
      expect(await databaseLeases(before, clock).acquire('trail-stream', 'killed-process', 60_000)).toBe(
        true,
      );
      await before.close();
      const after = await openPgliteDir(path.join(dir, 'pglite'));
      try {
        expect(await databaseLeases(after, clock).acquire('trail-stream', 'next-process', 60_000)).toBe(
          false,
        );
        expect(await dropOrphanedLeases(after)).toBe(1);
        expect(await databaseLeases(after, clock).acquire('trail-stream', 'next-process', 60_000)).toBe(true);
      } finally {
        await after.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('connections', () => {
  it('scans a large table from its start on every connection, so an unordered LIMIT answers the same rows', async () => {
    const { db, drop } = await freshDb();
    try {
      // four at once: on PostgreSQL each holds a pooled connection of its own
      const settings = await Promise.all(
        [0, 1, 2, 3].map(() =>
          db.transaction(async (tx) => {
            await tx.query('SELECT pg_sleep(0.05)');
            return (await tx.query<{ s: string }>("SELECT current_setting('synchronize_seqscans') AS s"))
              .rows[0]!.s;
          }),
        ),
      );
      expect(settings).toEqual(['off', 'off', 'off', 'off']);
    } finally {
      await drop();
    }
  });
});
