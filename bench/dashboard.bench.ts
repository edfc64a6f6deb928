import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Queryable } from '../apps/api/src/db/db.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import * as repo from '../apps/api/src/modules/dashboard/dashboard.repo.ts';
import { dashboard } from '../apps/api/src/modules/dashboard/dashboard.service.ts';
import * as staff from '../apps/api/src/modules/dashboard/staff-counts.repo.ts';
import { nodeRuntime } from '../scripts/node-runtime.mjs';
import {
  type Floor,
  floorLine,
  httpTimings,
  p95,
  readingContext,
  staffSession,
  timings,
  verdict,
} from './floors.ts';
import { startHostileMix } from './hostile-load.ts';
import { databaseName, freshDir, ms, percentile, ROOT, signIn, startServer } from './support.ts';

/**
 * Issue 18: GET /admin/dashboard at BENCH_DASHBOARD_CUSTOMERS customers (default 1,000,000, with
 * about 1.1 sites each, from `npm run seed:scale`), on PGlite and on PostgreSQL (a fresh database
 * on BENCH_DASHBOARD_DATABASE_URL's server, default the local one), through the real server, as
 * the demo SuperAdmin (every card) and the demo Support. Beside them: 2,000 pending impersonation
 * requests, 300 live grants, 5,000 failed staff sign-ins and 100 lockouts in the last day, 1,000
 * custom domains pending verification and 4,000 verified, 200 of them failing their re-check.
 * Target p95 ≤ 50 ms.
 *
 * Prints, per engine: each of the call's queries alone (p50, p95); then per viewer one line with
 * the call's p50 and p95 beside its floors measured in the same run (issue 31, floors.ts): the
 * whole call's SQL (the dashboard service in this process, same engine) and the ratio to it, an
 * authenticated GET of the same server (GET /admin/session) and what the call adds to it; then
 * the same call with the hostile mix (hostile-load.ts) beside it and its ratio to the call alone,
 * the mix's answers by status, and the target's verdict alone and beside the mix.
 */
const CUSTOMERS = Number(process.env.BENCH_DASHBOARD_CUSTOMERS ?? 1_000_000);
const PASSWORD = 'Bench#Pass1';
const PORT = Number(process.env.BENCH_DASHBOARD_PORT ?? 3946);
const CALLS = 200;
const MIXED_CALLS = 100;
/** Timed calls of the whole dashboard's SQL, per viewer. */
const SQL_CALLS = 40;
const VIEWERS = ['superadmin@example.com', 'support@example.com'] as const;
const ROLE_OF: Record<string, string> = {
  'superadmin@example.com': 'SuperAdmin',
  'support@example.com': 'Support',
};
/** The PostgreSQL database the bench fills (BENCH_DASHBOARD_DATABASE), on BENCH_DASHBOARD_DATABASE_URL's server. */
const DATABASE = databaseName(process.env.BENCH_DASHBOARD_DATABASE, 'sac_bench_dashboard');
/** BENCH_DASHBOARD_REUSE=1: measure the databases an earlier run filled (no fill, no drop). */
const REUSE = process.env.BENCH_DASHBOARD_REUSE === '1';
const benchDir = (name: string) => (REUSE ? path.join(ROOT, '.tmp', 'bench', name) : freshDir(name));
/**
 * BENCH_DASHBOARD_ON_SCALE=1: measure on the databases `seed:scale` filled for the other benches
 * (BENCH_PGLITE_DATA_DIR, default .tmp/scale-pglite, and BENCH_DATABASE_URL), adding the rest once:
 * one run of every bench then fills a million customers once per engine, not twice.
 */
const ON_SCALE = process.env.BENCH_DASHBOARD_ON_SCALE === '1';

function seedScale(env: Record<string, string>, dataDir: string): void {
  const r = spawnSync(
    nodeRuntime().node,
    [path.join(ROOT, 'apps/api/src/seed/seed-scale-cli.ts'), '--customers', String(CUSTOMERS)],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, ...env }, stdio: ['ignore', 'inherit', 'ignore'] },
  );
  if (r.status !== 0) throw new Error('seed:scale failed');
}

/** What awaits the staff besides customers and sites. */
async function fillRest(db: Queryable): Promise<void> {
  const sites = (
    await db.query<{ app_id: string }>('SELECT app_id::text FROM sites ORDER BY app_id LIMIT 5000')
  ).rows.map((r) => r.app_id);
  await db.query(
    `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees, proxy_roles,
       duration_minutes, created_at, modified_at, status, action_taken_by, action_taken_at, expires_at, approved_roles,
       holder_email)
     SELECT ($1::bigint[])[1 + n % array_length($1::bigint[], 1)], 'staff' || (n % 40) || '@example.com',
            CASE WHEN n % 3 = 0 THEN 'pending' ELSE 'granted' END,
            (ARRAY['Low','Moderate','High','Critical'])[1 + n % 4], 'bench request ' || n,
            ARRAY['superadmin@example.com'], ARRAY['Developer'], 60, now() - n * interval '1 minute',
            now() - n * interval '1 minute',
            CASE WHEN n <= 300 THEN 'Approved' ELSE 'Pending' END,
            CASE WHEN n <= 300 THEN 'superadmin@example.com' END,
            CASE WHEN n <= 300 THEN now() END,
            CASE WHEN n <= 300 THEN now() + (n % 120 + 1) * interval '1 minute' END,
            CASE WHEN n <= 300 THEN ARRAY['Developer'] ELSE '{}' END,
            CASE WHEN n <= 300 THEN 'staff' || (n % 40) || '@example.com' END
       FROM generate_series(1, 2300) n`,
    [sites],
  );
  await db.query(
    `INSERT INTO activity_log (at, actor_email, action, client_address, details)
     SELECT now() - (n % 1400) * interval '1 minute', 'staff' || (n % 40) || '@example.com',
            CASE WHEN n % 50 = 0 THEN 'login.lockout' ELSE 'login.failed' END, '10.0.0.' || (n % 250), '{}'
       FROM generate_series(1, 5100) n`,
  );
  await db.query(
    `INSERT INTO custom_domains (domain, app_id, token, created_at)
     SELECT 'login' || n || '.bench.example', ($1::bigint[])[1 + n % array_length($1::bigint[], 1)], 't', now()
       FROM generate_series(1, 1000) n`,
    [sites],
  );
  // Verified domains, one in twenty failing its latest re-check.
  await db.query(
    `INSERT INTO custom_domains (domain, app_id, token, created_at, status, verified_at, last_checked_at, failing_since)
     SELECT 'id' || n || '.bench.example', ($1::bigint[])[1 + n % array_length($1::bigint[], 1)], 't', now(),
            'Verified', now(), now(), CASE WHEN n % 20 = 0 THEN now() END
       FROM generate_series(1, 4000) n`,
    [sites],
  );
  for (const t of ['impersonation_requests', 'activity_log', 'custom_domains'])
    await db.query(`ANALYZE ${t}`);
}

/** Each of the call's queries alone, in this process (no HTTP, no JSON): p50 / p95 of 40 after 5. */
async function sqlFigures(name: string, db: Queryable): Promise<void> {
  const email = 'superadmin@example.com';
  const uid = (await db.query<{ uid: string }>('SELECT uid FROM staff WHERE email = $1', [email])).rows[0]!
    .uid;
  const now = new Date();
  const from = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['awaiting my decision', () => repo.awaitingDecision(db, uid, email)],
    ['my pending requests', () => repo.minePending(db, email)],
    ['live grants', () => repo.liveGrants(db, now, { uid, email }, null)],
    ['totals and 30 days', () => repo.creationDays(db, from)],
    ['by plan and data center', () => repo.siteCounts(db)],
    ['trials ending in 7 days', () => repo.trialsEnding(db, now, new Date(now.getTime() + 7 * 86_400_000))],
    ['domains pending and failing', () => repo.domainTrouble(db)],
    [
      'sign-in failures, lockouts',
      () =>
        staff.trailCounts(db, [
          {
            since: new Date(now.getTime() - 86_400_000),
            actions: ['login.failed', 'mfa.failed', 'login.lockout'],
          },
        ]),
    ],
    ['staff without a factor', () => staff.staffWithoutFactor(db)],
    ['recently viewed', () => repo.recentCustomers(db, uid)],
  ];
  for (const [what, run] of cases) {
    const out: number[] = [];
    for (let i = 0; i < 45; i++) {
      const t = performance.now();
      await run();
      if (i >= 5) out.push(performance.now() - t);
    }
    out.sort((a, b) => a - b);
    console.log(
      `${name}: SQL ${what.padEnd(28)} p50 ${ms(percentile(out, 50))} p95 ${ms(percentile(out, 95))}`,
    );
  }
}

/** The whole call's SQL as the route runs it (the dashboard service in this process), per viewer. */
async function serviceFigures(db: Queryable): Promise<Map<string, number[]>> {
  const ctx = readingContext(db);
  const out = new Map<string, number[]>();
  for (const email of VIEWERS) {
    const viewer = await staffSession(db, email);
    out.set(email, await timings(() => dashboard(ctx, viewer), SQL_CALLS));
  }
  return out;
}

async function run(name: string, env: Record<string, string>, dataDir: string): Promise<void> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
  });
  const db = await (async () => {
    if (REUSE) return openConfiguredDb(config);
    if (ON_SCALE) {
      // the first start on a seeded database migrates it and adds the demo staff
      await (await startServer({ port: PORT, dataDir, env })).stop();
      const scaled = await openConfiguredDb(config);
      const done = await scaled.query(
        "SELECT 1 FROM impersonation_requests WHERE description = 'bench request 1'",
      );
      if (done.rows.length === 0) {
        const t = performance.now();
        await fillRest(scaled);
        console.log(
          `${name}: the rest added to the seeded database in ${((performance.now() - t) / 1000).toFixed(0)} s`,
        );
      }
      return scaled;
    }
    // The first start migrates and seeds the demo; the rows go in while the server is down (PGlite has one owner).
    await (await startServer({ port: PORT, dataDir, env })).stop();
    const t = performance.now();
    seedScale(env, dataDir);
    const filled = await openConfiguredDb(config);
    await fillRest(filled);
    console.log(`${name}: filled in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    return filled;
  })();
  const c = (
    await db.query<{ customers: string; sites: string }>(
      'SELECT (SELECT count(*) FROM customers)::text AS customers, (SELECT count(*) FROM sites)::text AS sites',
    )
  ).rows[0]!;
  console.log(
    `${name}: ${Number(c.customers).toLocaleString('en-US')} customers, ${Number(c.sites).toLocaleString('en-US')} sites`,
  );
  await sqlFigures(name, db);
  const sql = await serviceFigures(db);
  await db.close();
  const server = await startServer({ port: PORT, dataDir, env });
  try {
    const auths = new Map<string, Record<string, string>>();
    for (const email of VIEWERS) auths.set(email, await signIn(server.url, email, PASSWORD));
    const boss = auths.get(VIEWERS[0])!;
    const measure = async (calls: number) => {
      const floor: Floor = { auth: boss, times: [] };
      const pages = new Map<string, number[]>();
      for (const email of VIEWERS)
        pages.set(email, await httpTimings(server.url, auths.get(email)!, '/admin/dashboard', calls, floor));
      return { session: floor.times.sort((a, b) => a - b), pages };
    };
    const alone = await measure(CALLS);
    // The same calls with the hostile mix running beside them (fewer: the tail is what is read).
    const mix = await startHostileMix(server.url, PASSWORD);
    const mixed = await measure(MIXED_CALLS);
    const answered = await mix.stop();
    for (const email of VIEWERS) {
      console.log(
        `${name}: ${floorLine({
          what: `GET /admin/dashboard as ${ROLE_OF[email]}`,
          http: alone.pages.get(email)!,
          sql: sql.get(email)!,
          session: alone.session,
          mixed: mixed.pages.get(email)!,
        })}`,
      );
    }
    console.log(
      `${name}: beside the mix an authenticated GET p95 ${ms(p95(mixed.session))} ` +
        `(alone ${ms(p95(alone.session))}); the mix answered: ${answered}`,
    );
    const worst = (m: Map<string, number[]>) => Math.max(...[...m.values()].map(p95));
    console.log(verdict(`${name}: GET /admin/dashboard`, worst(alone.pages), worst(mixed.pages), 50));
  } finally {
    await server.stop();
  }
}

export async function benchDashboard(): Promise<void> {
  const env = { DEMO_PASSWORD: PASSWORD };
  if (ON_SCALE) {
    const pglite = path.resolve(ROOT, process.env.BENCH_PGLITE_DATA_DIR ?? '.tmp/scale-pglite');
    if (process.env.BENCH_DASHBOARD_ENGINES !== 'postgres') await run('PGlite', env, pglite);
    const url = process.env.BENCH_DATABASE_URL;
    if (url && process.env.BENCH_DASHBOARD_ENGINES !== 'pglite')
      await run('PostgreSQL', { ...env, DATABASE_URL: url }, freshDir('dashboard-postgres'));
    return;
  }
  if (process.env.BENCH_DASHBOARD_ENGINES !== 'postgres')
    await run('PGlite', env, benchDir('dashboard-pglite'));
  if (process.env.BENCH_DASHBOARD_ENGINES === 'pglite') return;
  const base = process.env.BENCH_DASHBOARD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = await openConfiguredDb(
    loadConfig({ DATABASE_URL: base, DATA_DIR: freshDir('dashboard-admin') }),
  );
  try {
    if (REUSE) await admin.query('SELECT 1');
    else {
      await admin.query(`DROP DATABASE IF EXISTS ${DATABASE}`);
      await admin.query(`CREATE DATABASE ${DATABASE}`);
    }
  } catch (e) {
    console.log(`PostgreSQL: skipped — ${(e as Error).message} at ${base}`);
    return;
  } finally {
    await admin.close();
  }
  const url = new URL(base);
  url.pathname = `/${DATABASE}`;
  await run('PostgreSQL', { ...env, DATABASE_URL: url.toString() }, benchDir('dashboard-postgres'));
}
