import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { openConfiguredDb } from '../src/db/open.ts';
import { type ApiProcess, startApi, until } from './api-process.ts';
import { answers, testDatabaseUrl, withDatabase } from './postgres-url.ts';

/**
 * Issue 34 item 3: nothing of the trail is lost to a kill -9. The real server
 * (`node apps/api/src/main.ts`) streams the trail to a local HTTP collector that takes each batch
 * slowly; it is killed with SIGKILL mid-stream, rows are written while it is down, and it is started
 * again on the same data. Every row must reach the collector at least once, and the rows in the
 * order of their first arrival must be the trail in its stream order (txid, id), none missing. The
 * restarted server takes the stream up once the dead one's job lease has lapsed (60 s).
 *
 * Process-level and testing both engines itself, it runs once, in the PGlite leg of the API tests,
 * as crash.test.ts does; its PostgreSQL half uses a database of its own on the test server.
 */
const ROWS = 6_000; // twelve batches
const POST_DELAY_MS = 150;
const ci = process.env.CI === 'true' || process.env.CI === '1';
const postgresLeg = process.env.TEST_DB === 'postgres';
const pgUp = !postgresLeg && (await answers(testDatabaseUrl()));
const handedOut = new Set<number>();
const servers = new Set<ApiProcess>();
afterAll(() => {
  for (const s of servers)
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
});

/** A collector answering each POST after a pause: the ids of the requests it read whole, in order. */
async function slowCollector() {
  const ids: string[] = [];
  let posts = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      posts++;
      for (const l of body.split('\n')) ids.push((JSON.parse(l) as { event: { Id: string } }).event.Id);
      setTimeout(() => res.writeHead(200).end('{"code":0}'), POST_DELAY_MS);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/collector`,
    ids,
    posts: () => posts,
    close: () => server.close(),
  };
}

const insertRows = async (db: Db, n: number) =>
  (
    await db.query<{ id: string }>(
      `INSERT INTO activity_log (at, actor_email, action, details)
       SELECT now(), 'writer@example.com', 'test.crash', jsonb_build_object('n', g)
       FROM generate_series(1, $1::int) g RETURNING id::text`,
      [n],
    )
  ).rows.map((r) => r.id);

const streamOrder = async (db: Db) =>
  (
    await db.query<{ id: string }>(
      'SELECT id::text AS id FROM activity_log ORDER BY activity_log.txid, activity_log.id',
    )
  ).rows.map((r) => r.id);

/**
 * The kill and the restart. `withDb` opens the database in this process for a moment (PGlite:
 * only while no server holds it, which also takes over the lock the killed one left).
 */
async function killMidStream(
  env: Record<string, string>,
  withDb: <T>(fn: (db: Db) => Promise<T>) => Promise<T>,
) {
  const collector = await slowCollector();
  const serverEnv = {
    ...env,
    DEMO_DATA: '0',
    DOMAIN_RECHECK_MINUTES: '0',
    SHUTDOWN_DRAIN_SECONDS: '0',
    TRAIL_HTTP_URL: collector.url,
    TRAIL_STREAM_SECONDS: '1',
  };
  const started: ApiProcess[] = [];
  const start = async () => {
    const s = await startApi(serverEnv, { portBase: 4300, handedOut });
    servers.add(s);
    started.push(s);
    return s;
  };
  try {
    const first = await withDb(async (db) => {
      await migrate(db);
      return insertRows(db, ROWS);
    });
    const a = await start();
    await until(() => collector.posts() >= 3, 'three batches sent');
    a.child.kill('SIGKILL');
    await a.exited;
    const beforeKill = collector.ids.length;
    expect(beforeKill, 'killed mid-stream').toBeLessThan(ROWS);
    const later = await withDb((db) => insertRows(db, 700));
    const b = await start();
    await until(() => collector.ids.includes(later.at(-1)!), 'every row sent after the restart', 180_000);
    expect(await b.stop()).toBe(0);
    const expected = await withDb(streamOrder);
    expect(expected.filter((id) => first.includes(id) || later.includes(id))).toEqual([...first, ...later]);
    const firstArrivals = [...new Set(collector.ids)];
    expect(firstArrivals).toEqual(expected);
    return `${expected.length} rows, ${beforeKill} received before the kill, ${collector.ids.length - expected.length} sent twice`;
  } catch (e) {
    // what the servers said, for a failure on a loaded host
    for (const s of started) console.log(`server output:\n${s.output()}`);
    throw e;
  } finally {
    collector.close();
  }
}

describe.skipIf(postgresLeg).concurrent('the trail stream across a kill -9', () => {
  it('PGlite: every row arrives, in order of first arrival, after a restart on the same directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-trail-crash-'));
    try {
      const said = await killMidStream({ DATA_DIR: dataDir }, async (fn) => {
        const db = await openConfiguredDb(loadConfig({ DATA_DIR: dataDir }));
        try {
          return await fn(db);
        } finally {
          await db.close();
        }
      });
      console.log(`trail stream kill -9, PGlite: ${said}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 400_000);

  it.skipIf(!pgUp && !ci)(
    'PostgreSQL: every row arrives, in order of first arrival, after a restart on the same database',
    async () => {
      const url = testDatabaseUrl();
      const name = `sac_trail_crash_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-trail-crash-'));
      const env = { DATA_DIR: dataDir, DATABASE_URL: withDatabase(url, name) };
      const db = await openConfiguredDb(loadConfig(env));
      try {
        const said = await killMidStream(env, (fn) => fn(db));
        console.log(`trail stream kill -9, PostgreSQL: ${said}`);
      } finally {
        await db.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    400_000,
  );
});
