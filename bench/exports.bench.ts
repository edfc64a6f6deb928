import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Db, Queryable } from '../apps/api/src/db/db.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import { nodeRuntime } from '../scripts/node-runtime.mjs';
import { freshDir, insertTrailEvents, ROOT, type Server, signIn, startServer } from './support.ts';

/*
 * The CSV exports through HTTP beside PostgreSQL's own COPY of the same rows, at two sizes (default
 * 100,000 then 300,000 customers, BENCH_EXPORT_SIZES="100000,300000"; the audit trail holds as many
 * events as there are customers, and there is one impersonation request for ten customers, each
 * with five log entries), on PostgreSQL (a fresh database sac_ex_bench on
 * BENCH_EXPORT_DATABASE_URL's server, default the local one) and on PGlite (a fresh directory).
 * Per export: rows, seconds (the whole download as a client reads it, signed in as the demo
 * SuperAdmin), rows/s, the floor (PostgreSQL: `COPY (the same SELECT) TO STDOUT` through psql into
 * /dev/null; PGlite: the same SELECT's rows read in process, the server stopped), the ratio, and
 * between the two sizes how the time grew beside the rows (×1.0: linear). BENCH_EXPORT_REUSE=1
 * keeps the PostgreSQL database of an earlier run and adds to it (to compare two versions of the
 * code on the same rows); BENCH_EXPORT_ENGINES=postgres runs one leg.
 */

const SIZES = (process.env.BENCH_EXPORT_SIZES ?? '100000,300000').split(',').map(Number);
const PASSWORD = 'Bench#Pass1';
const PORT = 3961;
/** Each export is downloaded this many times; the fastest counts (the machine is shared). */
const TRIES = Number(process.env.BENCH_EXPORT_TRIES ?? 3);

const NAME_MATCH = `translate(n.k, ' -''.', '0000') LIKE '%son%' AND n.k LIKE '%son%'`;
const CUSTOMER_COLUMNS = `c.uid, c.first_name || ' ' || c.last_name, c.email, c.status, c.role, c.created_at, c.modified_at`;

interface ExportCase {
  label: string;
  path: string;
  /** The export's rows as one SELECT: what COPY streams for the floor. */
  floor: string;
}
const CASES: ExportCase[] = [
  {
    label: "customers 'son' sort=-modified",
    path: '/admin/searchcustomer/export?customerName=son&sort=-modified',
    floor: `SELECT ${CUSTOMER_COLUMNS} FROM customer_name_keys n JOIN customers c ON c.uid = n.uid
      WHERE ${NAME_MATCH} ORDER BY n.modified_at DESC, n.uid DESC`,
  },
  {
    label: "customers 'son' sort=name",
    path: '/admin/searchcustomer/export?customerName=son&sort=name',
    floor: `SELECT ${CUSTOMER_COLUMNS} FROM customer_name_keys n JOIN customers c ON c.uid = n.uid
      WHERE ${NAME_MATCH} ORDER BY n.k COLLATE "C", n.uid`,
  },
  {
    label: "customers 'son' (list order)",
    path: '/admin/searchcustomer/export?customerName=son',
    floor: `SELECT ${CUSTOMER_COLUMNS} FROM customer_name_keys n JOIN customers c ON c.uid = n.uid
      WHERE ${NAME_MATCH} ORDER BY n.k LIKE 'son%' DESC, n.k COLLATE "C", n.uid`,
  },
  {
    label: "customers email 'ma' sort=-created",
    path: '/admin/searchcustomer/export?emailid=ma&sort=-created',
    floor: `SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.uid IN
      (SELECT a.uid FROM customer_addresses a WHERE a.address LIKE 'ma%') ORDER BY c.created_at DESC, c.uid DESC`,
  },
  {
    label: 'impersonation requests',
    path: '/admin/impersonation/requests/export',
    floor: `SELECT r.id, s.app_name, r.priority, r.status, r.initiator_email, r.assignees, r.created_at,
      r.modified_at, r.expires_at FROM impersonation_requests r JOIN sites s ON s.app_id = r.app_id
      WHERE r.deleted_at IS NULL ORDER BY r.modified_at DESC, r.id DESC`,
  },
  {
    label: 'impersonation log',
    path: '/admin/impersonation/logs/export',
    floor: `SELECT l.id, l.request_id, s.app_name, l.status, l.event, l.actor, l.at FROM impersonation_log l
      JOIN impersonation_requests r ON r.id = l.request_id JOIN sites s ON s.app_id = r.app_id ORDER BY l.id DESC`,
  },
  {
    label: 'audit trail csv (signed)',
    path: '/admin/audit/export?format=csv',
    floor: `SELECT id, at, actor_uid, actor_email, action, target_type, target_id, customer_uid, app_id,
      client_address, request_id, impersonation_request_id, details FROM activity_log ORDER BY at, id`,
  },
];

interface Figure {
  rows: number;
  seconds: number;
  floorRowsPerSecond: number;
}

/** Events up to `total` in the trail, as bench/audit-trail.bench.ts writes them. */
async function fillTrail(db: Queryable, total: number): Promise<void> {
  const have = Number(
    (await db.query<{ n: string }>('SELECT count(*)::text AS n FROM activity_log')).rows[0]!.n,
  );
  await insertTrailEvents(
    db,
    have + 1,
    total,
    "now() - interval '400 days' + n * interval '100 milliseconds'",
  );
  await db.query('ANALYZE activity_log');
}

/**
 * Impersonation requests up to `total` on the first sites, as bench/impersonation-lists.bench.ts
 * files them (two years of them, 3% Pending, 62% approved, 25% rejected, 10% revoked, 1% deleted),
 * and five log entries for each new one.
 */
async function fillImpersonation(db: Queryable, total: number): Promise<void> {
  const last = async () =>
    Number(
      (await db.query<{ n: string }>('SELECT coalesce(max(id), 0)::text AS n FROM impersonation_requests'))
        .rows[0]!.n,
    );
  const have = Number(
    (await db.query<{ n: string }>('SELECT count(*)::text AS n FROM impersonation_requests')).rows[0]!.n,
  );
  if (have >= total) return;
  const before = await last();
  await db.query(
    `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees, proxy_roles,
       duration_minutes, created_at, modified_at, status, action_taken_by, action_taken_at, expires_at, approved_roles,
       is_customer_request, deleted_at)
     SELECT s.app_id, 'staff' || (n % 40) || '@example.com', 'granted', (ARRAY['Low','Moderate','High','Critical'])[1 + n % 4],
            'bench request ' || n, ARRAY['superadmin@example.com'], ARRAY['Developer'], 60, c, c + interval '5 minutes',
            st, CASE WHEN st <> 'Pending' THEN 'superadmin@example.com' END,
            CASE WHEN st <> 'Pending' THEN c + interval '10 minutes' END,
            CASE WHEN st = 'Approved' THEN c + interval '70 minutes' END,
            CASE WHEN st = 'Approved' THEN ARRAY['Developer'] ELSE '{}' END,
            n % 20 = 0, CASE WHEN st = 'Pending' AND n % 100 = 3 THEN c + interval '1 hour' END
       FROM generate_series($1::int, $2::int) n
            JOIN LATERAL (SELECT app_id FROM sites ORDER BY app_id OFFSET n % 50 LIMIT 1) s ON true,
            LATERAL (SELECT now() - interval '730 days' + n * interval '10 minutes' AS c,
                            CASE WHEN n % 100 < 5 THEN 'Pending' WHEN n % 100 < 65 THEN 'Approved'
                                 WHEN n % 100 < 90 THEN 'Rejected' ELSE 'Revoked' END AS st) x`,
    [have + 1, total],
  );
  await db.query(
    `INSERT INTO impersonation_log (request_id, at, actor, event, status, client_address, details)
     SELECT r.id, r.created_at + k * interval '1 minute', r.initiator_email,
            (ARRAY['request','approve','session-start','call','revoke'])[1 + k],
            CASE WHEN k = 0 THEN 'Pending' ELSE r.status END, '10.0.' || (r.id % 250) || '.1',
            jsonb_build_object('n', r.id)
       FROM impersonation_requests r CROSS JOIN generate_series(0, 4) k WHERE r.id > $1::bigint`,
    [before],
  );
  await db.query('ANALYZE impersonation_requests');
  await db.query('ANALYZE impersonation_log');
}

/** Adds scale customers up to `total` (seed:scale, as docs/benchmarks.md fills scale databases). */
async function seedTo(db: Queryable, total: number, env: Record<string, string>): Promise<number> {
  const have = await customers(db);
  if (have >= total) return 0;
  const t = performance.now();
  // A child of its own, waited for without holding this process: the bench's database handle is
  // open meanwhile, and a loop held up for the seeding's minute failed its connection's check.
  const child = spawn(
    nodeRuntime().node,
    [path.join(ROOT, 'apps/api/src/seed/seed-scale-cli.ts'), '--customers', String(total - have)],
    {
      cwd: path.join(ROOT, 'apps/api'),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (status !== 0) throw new Error('seed:scale failed');
  return (performance.now() - t) / 1000;
}

const customers = async (db: Queryable) =>
  Number((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM customers')).rows[0]!.n);

/** A download read off the socket as a client reads it: the rows announced, the seconds it took. */
function download(url: string, headers: Record<string, string>): Promise<{ rows: number; seconds: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { ...headers, 'accept-encoding': 'identity' } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
        res.on('data', () => {});
        res.on('end', () =>
          resolve({ rows: Number(res.headers['x-export-rows']), seconds: (performance.now() - t) / 1000 }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function exportsThroughHttp(server: Server): Promise<Map<string, { rows: number; seconds: number }>> {
  const auth = await signIn(server.url, 'superadmin@example.com', PASSWORD);
  const out = new Map<string, { rows: number; seconds: number }>();
  for (const c of CASES) {
    let best: { rows: number; seconds: number } | undefined;
    try {
      for (let i = 0; i < TRIES; i++) {
        const d = await download(`${server.url}${c.path}`, auth);
        if (!best || d.seconds < best.seconds) best = d;
      }
      out.set(c.label, best!);
    } catch (e) {
      // past CUSTOMER_EXPORT_ROW_LIMIT matches an export is refused (400)
      console.log(`  (${c.label}: ${(e as Error).message})`);
    }
  }
  return out;
}

/**
 * The floor on PostgreSQL: `COPY (SELECT) TO STDOUT` in one psql session, its output to /dev/null,
 * each timed by psql itself (\timing: the statement and its rows received, no process start);
 * the fastest of TRIES.
 */
function copyFloor(url: string, select: string): { rows: number; seconds: number } {
  const copy = `COPY (${select.replace(/\s+/g, ' ')}) TO STDOUT`;
  const args = ['-X', '-q', '-d', url, '-c', '\\timing on', '-c', '\\o /dev/null'];
  for (let i = 0; i < TRIES; i++) args.push('-c', copy);
  const r = spawnSync('psql', args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  const times = [...r.stdout.matchAll(/Time: ([\d.]+) ms/g)].map((m) => Number(m[1]));
  if (r.status !== 0 || times.length !== TRIES) throw new Error(`psql COPY failed: ${r.stderr}`);
  const rows = spawnSync('psql', ['-X', '-At', '-d', url, '-c', `SELECT count(*) FROM (${select}) s`], {
    encoding: 'utf8',
  }).stdout.trim();
  return { rows: Number(rows), seconds: Math.min(...times) / 1000 };
}

/** The floor on PGlite: the same SELECT's rows read in process, the fastest of TRIES. */
async function selectFloor(db: Db, select: string): Promise<{ rows: number; seconds: number }> {
  let best = Number.POSITIVE_INFINITY;
  let rows = 0;
  for (let i = 0; i < TRIES; i++) {
    const t = performance.now();
    rows = (await db.query(select)).rows.length;
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return { rows, seconds: best };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function report(engine: string, size: number, got: Map<string, Figure>, before?: Map<string, Figure>): void {
  console.log(`\n${engine} at ${fmt(size)} customers (load average ${load()})`);
  console.log('| export | rows | s | rows/s | floor rows/s | ratio | growth (time ÷ rows) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const c of CASES) {
    const f = got.get(c.label);
    if (!f) continue;
    const rate = f.rows / f.seconds;
    const prev = before?.get(c.label);
    const growth = prev ? `×${(f.seconds / prev.seconds / (f.rows / prev.rows)).toFixed(2)}` : '';
    console.log(
      `| ${c.label} | ${fmt(f.rows)} | ${f.seconds.toFixed(3)} | ${fmt(rate)} | ${fmt(f.floorRowsPerSecond)} | ` +
        `1/${(f.floorRowsPerSecond / rate).toFixed(1)} | ${growth} |`,
    );
  }
}

async function postgresLeg(): Promise<void> {
  const base = process.env.BENCH_EXPORT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = await openConfiguredDb(loadConfig({ DATABASE_URL: base, DATA_DIR: freshDir('ex-admin') }));
  try {
    const kept =
      process.env.BENCH_EXPORT_REUSE === '1' &&
      (await admin.query("SELECT 1 FROM pg_database WHERE datname = 'sac_ex_bench'")).rows.length > 0;
    if (!kept) {
      await admin.query('DROP DATABASE IF EXISTS sac_ex_bench');
      await admin.query('CREATE DATABASE sac_ex_bench');
    }
  } catch (e) {
    console.log(`PostgreSQL: skipped — ${(e as Error).message}`);
    return;
  } finally {
    await admin.close();
  }
  const url = new URL(base);
  url.pathname = '/sac_ex_bench';
  const env = { DEMO_PASSWORD: PASSWORD, DATABASE_URL: url.toString() };
  const server = await startServer({ port: PORT, dataDir: freshDir('ex-postgres'), env });
  const db = await openConfiguredDb(
    loadConfig({ DATABASE_URL: url.toString(), DATA_DIR: freshDir('ex-admin') }),
  );
  try {
    let before: Map<string, Figure> | undefined;
    for (const size of SIZES) {
      const seeded = await seedTo(db, size, { DATABASE_URL: url.toString() });
      await fillTrail(db, size);
      await fillImpersonation(db, size / 10);
      await db.query('ANALYZE');
      console.log(`PostgreSQL: ${fmt(size)} customers (seeded in ${seeded.toFixed(0)} s)`);
      const http = await exportsThroughHttp(server);
      const got = new Map<string, Figure>();
      for (const c of CASES) {
        const h = http.get(c.label);
        if (!h) continue;
        const floor = copyFloor(url.toString(), c.floor);
        if (floor.rows !== h.rows) console.log(`  (${c.label}: COPY ${floor.rows} rows, export ${h.rows})`);
        got.set(c.label, { ...h, floorRowsPerSecond: floor.rows / floor.seconds });
      }
      report('PostgreSQL', size, got, before);
      before = got;
    }
  } finally {
    await db.close();
    await server.stop();
  }
}

async function pgliteLeg(): Promise<void> {
  const dataDir = freshDir('ex-pglite');
  const env = { DEMO_PASSWORD: PASSWORD };
  // The first start migrates and seeds the demo data; the scale rows go in while it is down.
  await (await startServer({ port: PORT, dataDir, env })).stop();
  let before: Map<string, Figure> | undefined;
  for (const size of SIZES) {
    // seed:scale opens the directory itself: the count is read and the directory closed first.
    let db = await openConfiguredDb(loadConfig({ DATA_DIR: dataDir }));
    const have = await customers(db);
    await db.close();
    const seeded = await seedTo(
      { query: async () => ({ rows: [{ n: String(have) } as never] }), exec: async () => {} },
      size,
      {
        DATA_DIR: dataDir,
      },
    );
    db = await openConfiguredDb(loadConfig({ DATA_DIR: dataDir }));
    try {
      await fillTrail(db, size);
      await fillImpersonation(db, size / 10);
      await db.query('ANALYZE');
    } finally {
      await db.close();
    }
    console.log(`PGlite: ${fmt(size)} customers (seeded in ${seeded.toFixed(0)} s)`);
    const server = await startServer({ port: PORT, dataDir, env });
    let http: Map<string, { rows: number; seconds: number }>;
    try {
      http = await exportsThroughHttp(server);
    } finally {
      await server.stop();
    }
    const got = new Map<string, Figure>();
    db = await openConfiguredDb(loadConfig({ DATA_DIR: dataDir }));
    try {
      for (const c of CASES) {
        const h = http.get(c.label);
        if (!h) continue;
        const floor = await selectFloor(db, c.floor);
        if (floor.rows !== h.rows) console.log(`  (${c.label}: SELECT ${floor.rows} rows, export ${h.rows})`);
        got.set(c.label, { ...h, floorRowsPerSecond: floor.rows / floor.seconds });
      }
    } finally {
      await db.close();
    }
    report('PGlite', size, got, before);
    before = got;
  }
}

export async function benchExports(): Promise<void> {
  const legs = (process.env.BENCH_EXPORT_ENGINES ?? 'postgres,pglite').split(',');
  if (legs.includes('postgres')) await postgresLeg();
  if (legs.includes('pglite')) await pgliteLeg();
}
