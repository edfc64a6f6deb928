import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { nodeRuntime } from '../../../../scripts/node-runtime.mjs';
import { testDatabaseUrl } from '../../test/postgres-url.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * What a statement's rows leave behind in V8's old generation. node-postgres' promise form
 * (`client.query(config)` without a callback) kept every result read on a connection reachable
 * to the young-generation collector long after it was used: about 14 KB promoted per statement of
 * 50 small rows, so each scavenge copied megabytes (9 ms pauses every 0.3 s under a steady load,
 * which set the pages' p99) and the old generation filled with rows only a full collection freed.
 * The pool's statements are sent with a callback (postgres-db.ts), which leaves next to nothing.
 * Counted in a process of its own with --trace-gc-nvp: bytes, not time.
 */
describe.skipIf(inject('testDb') !== 'postgres')('statements on PostgreSQL', () => {
  it('leave next to nothing of their rows promoted to the old generation', () => {
    const statements = 4000;
    const probe = `
      const { openPostgres } = await import(${JSON.stringify(pathToFileURL(path.join(HERE, 'postgres-db.ts')).href)});
      const db = openPostgres(${JSON.stringify(testDatabaseUrl())}, 2);
      const sql = "SELECT g AS id, now() - g * interval '1 minute' AS at, 'row ' || g AS name, ARRAY['a', 'b'] AS tags FROM generate_series(1, 50) g";
      for (let i = 0; i < 200; i++) await db.query(sql);
      console.log('START');
      for (let i = 0; i < ${statements}; i++) await db.query(sql);
      console.log('END');
      await db.close();`;
    const r = spawnSync(nodeRuntime().node, ['--trace-gc-nvp', '--input-type=module', '-e', probe], {
      cwd: path.join(HERE, '../..'),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(r.status, r.stderr).toBe(0);
    const during = r.stdout.slice(r.stdout.indexOf('START'), r.stdout.indexOf('END'));
    const scavenges = during.split('\n').filter((l) => l.includes('gc=s '));
    // the statements' allocations make scavenges happen at all, so the count says something
    expect(scavenges.length).toBeGreaterThan(0);
    const promoted = scavenges.reduce((sum, l) => sum + Number(/ promoted=(\d+)/.exec(l)?.[1] ?? 0), 0);
    expect(promoted / statements).toBeLessThan(1000);
  });
});
