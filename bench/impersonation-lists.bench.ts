import { loadConfig } from '../apps/api/src/config.ts';
import type { Queryable } from '../apps/api/src/db/db.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import {
  logEntries,
  pageRequests,
  pageRequestsByApp,
} from '../apps/api/src/modules/impersonation/impersonation-lists.repo.ts';
import { freshDir, ms, percentile, type Server, startServer } from './support.ts';

/**
 * Issue 17: the impersonation request list and log at 100,000 requests and 1,000,000 log entries,
 * on PGlite and on PostgreSQL (a fresh database on BENCH_IMPERSONATION_DATABASE_URL's server,
 * default the local one), through the real server: first pages, each status filter, a page deep,
 * and a requester's own view. Target p95 ≤ 20 ms.
 */
const REQUESTS = Number(process.env.BENCH_IMPERSONATION_REQUESTS ?? 100_000);
const LOG_ENTRIES = Number(process.env.BENCH_IMPERSONATION_LOG ?? 1_000_000);
const HEADERS = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };
const PASSWORD = 'Bench#Pass1';
const PORT = 3945;

/**
 * Two years of requests on the demo sites: 3% still Pending (an old pile among them), 62%
 * approved (live if approved in the last 25 days, else expired), 25% rejected, 10% revoked, 1%
 * deleted; 1% asked by the demo Admin.
 * Each request's steps are ten log entries close in time, the last one its current status.
 */
async function fill(db: Queryable): Promise<string> {
  let sites: string[] = [];
  // The demo data may still be going in when the server first answers.
  for (let i = 0; i < 120 && sites.length === 0; i++) {
    if (i) await new Promise((r) => setTimeout(r, 500));
    sites = (await db.query<{ app_id: string }>('SELECT app_id::text FROM sites ORDER BY app_id')).rows.map(
      (r) => r.app_id,
    );
  }
  if (sites.length === 0) throw new Error('no demo sites to file requests on');
  const first = Number(
    (
      await db.query<{ n: string }>(
        "SELECT nextval(pg_get_serial_sequence('impersonation_requests', 'id'))::text AS n",
      )
    ).rows[0]!.n,
  );
  for (let from = 1; from <= REQUESTS; from += 20_000) {
    const to = Math.min(REQUESTS, from + 19_999);
    await db.query(
      `INSERT INTO impersonation_requests (app_id, initiator_email, consent, priority, description, assignees, proxy_roles,
         duration_minutes, created_at, modified_at, status, action_taken_by, action_taken_at, expires_at, approved_roles,
         is_customer_request, deleted_at)
       SELECT ($3::bigint[])[1 + n % array_length($3::bigint[], 1)],
              CASE WHEN n % 100 = 7 THEN 'admin@example.com' ELSE 'staff' || (n % 40) || '@example.com' END,
              'granted', (ARRAY['Low','Moderate','High','Critical'])[1 + n % 4], 'bench request ' || n,
              ARRAY['superadmin@example.com'], ARRAY['Developer'], 60, c, c + interval '5 minutes',
              st, CASE WHEN st <> 'Pending' THEN 'superadmin@example.com' END,
              CASE WHEN st <> 'Pending' THEN c + interval '10 minutes' END,
              CASE WHEN st = 'Approved' THEN
                -- a grant lasts 30 days at most: only those approved lately are still live
                CASE WHEN n % 100 < 2 AND c > now() - interval '25 days' THEN now() + interval '1 day'
                     ELSE c + interval '70 minutes' END END,
              CASE WHEN st = 'Approved' THEN ARRAY['Developer'] ELSE '{}' END,
              n % 20 = 0, CASE WHEN st = 'Pending' AND n % 100 = 3 THEN c + interval '1 hour' END
         FROM generate_series($1::int, $2::int) n,
              LATERAL (SELECT now() - interval '730 days' + n * (interval '730 days' / $4::int) AS c,
                              CASE WHEN n % 100 < 2 THEN 'Approved' WHEN n % 100 < 5 THEN 'Pending'
                                   WHEN n % 100 < 65 THEN 'Approved' WHEN n % 100 < 90 THEN 'Rejected'
                                   ELSE 'Revoked' END AS st) x`,
      [from, to, sites, REQUESTS],
    );
  }
  // The first request's id was taken by nextval above; the batch starts right after it.
  const per = Math.max(1, Math.floor(LOG_ENTRIES / REQUESTS));
  for (let from = 1; from <= LOG_ENTRIES; from += 100_000) {
    const to = Math.min(LOG_ENTRIES, from + 99_999);
    await db.query(
      `INSERT INTO impersonation_log (request_id, at, actor, event, status, client_address, details)
       SELECT r.id, r.created_at + k * interval '1 minute', 'staff' || (n % 40) || '@example.com',
              (ARRAY['request','consent-granted','approve','session-start','call','call','call','call','call','revoke'])[1 + k],
              CASE WHEN k = 0 THEN 'Pending' WHEN r.deleted_at IS NOT NULL AND k = $4::int - 1 THEN 'Deleted'
                   ELSE r.status END,
              '10.0.' || (n % 250) || '.1', jsonb_build_object('n', n)
         FROM generate_series($1::int, $2::int) n
              CROSS JOIN LATERAL (SELECT (n - 1) % $4::int AS k) kk
              JOIN impersonation_requests r ON r.id = $3::bigint + 1 + (n - 1) / $4::int`,
      [from, to, first, per],
    );
  }
  await db.query('ANALYZE impersonation_requests');
  await db.query('ANALYZE impersonation_log');
  const size = await db.query<{ r: string; l: string; nr: string; nl: string }>(
    `SELECT pg_total_relation_size('impersonation_requests')::text AS r, pg_total_relation_size('impersonation_log')::text AS l,
            (SELECT count(*) FROM impersonation_requests)::text AS nr, (SELECT count(*) FROM impersonation_log)::text AS nl`,
  );
  const s = size.rows[0]!;
  return `${Number(s.nr).toLocaleString('en-US')} requests (${(Number(s.r) / 1e6).toFixed(0)} MB with indexes), ${Number(s.nl).toLocaleString('en-US')} log entries (${(Number(s.l) / 1e6).toFixed(0)} MB)`;
}

async function signIn(server: Server, email: string): Promise<Record<string, string>> {
  const r = await fetch(`${server.url}/admin/login`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const { xtoken, xsign } = (await r.json()) as { xtoken: string; xsign: string };
  return { ...HEADERS, xtoken, xsign };
}

async function measure(name: string, server: Server): Promise<void> {
  const boss = await signIn(server, 'superadmin@example.com');
  const requester = await signIn(server, 'admin@example.com');
  const time = async (auth: Record<string, string>, path: string, n = 40) => {
    const out: number[] = [];
    let bytes = 0;
    let rows = 0;
    for (let i = 0; i < n + 5; i++) {
      const t = performance.now();
      const r = await fetch(`${server.url}${path}`, { headers: auth });
      if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      const body = await r.arrayBuffer();
      // the first calls warm the statement and the pages up
      if (i >= 5) out.push(performance.now() - t);
      bytes = body.byteLength;
      rows = (JSON.parse(Buffer.from(body).toString('utf8')) as { Data?: unknown[] }).Data?.length ?? 0;
    }
    out.sort((a, b) => a - b);
    console.log(
      `${name}: ${path.padEnd(60)} p50 ${ms(percentile(out, 50))} p95 ${ms(percentile(out, 95))} ` +
        `(${rows} rows, ${(bytes / 1024).toFixed(1)} KB, ${out.length} calls)`,
    );
    return percentile(out, 95);
  };
  const deep = async (auth: Record<string, string>, path: string, pages: number) => {
    let cursor = '';
    for (let i = 0; i < pages; i++) {
      const sep = path.includes('?') ? '&' : '?';
      const r = await fetch(`${server.url}${path}${cursor ? `${sep}cursor=${cursor}` : ''}`, {
        headers: auth,
      });
      const next = ((await r.json()) as { NextCursor: string | null }).NextCursor;
      if (!next) break; // a short list: its last page
      cursor = next;
    }
    return cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}` : path;
  };

  // What any call costs on this machine now: sessions are kept, so this is the floor.
  await time(boss, '/admin/session');
  const p95s: number[] = [];
  const R = '/admin/impersonation/requests';
  const L = '/admin/impersonation/logs';
  p95s.push(await time(boss, R));
  for (const s of ['Pending', 'Approved', 'Expired', 'Rejected', 'Revoked'])
    p95s.push(await time(boss, `${R}?status=${s}`));
  p95s.push(await time(boss, await deep(boss, R, 40))); // past the live group, 2,000 rows deep
  p95s.push(await time(boss, await deep(boss, `${R}?status=Pending`, 40)));
  p95s.push(await time(requester, R));
  p95s.push(await time(requester, `${R}?status=Expired`));
  p95s.push(await time(boss, '/admin/impersonation/customer/requests'));
  p95s.push(await time(boss, L));
  for (const s of ['Pending', 'Approved', 'Expired', 'Rejected', 'Revoked', 'Deleted'])
    p95s.push(await time(boss, `${L}?status=${s}`));
  p95s.push(await time(boss, await deep(boss, L, 200))); // 10,000 entries deep
  p95s.push(await time(boss, await deep(boss, `${L}?status=Expired`, 200)));
  // Issue 17's sorts: each key both ways, a page deep, within a filter, and a requester's.
  for (const sort of [
    'id',
    '-id',
    'app',
    '-app',
    'priority',
    '-priority',
    'status',
    '-status',
    'modified',
    '-modified',
  ])
    p95s.push(await time(boss, `${R}?sort=${sort}`));
  p95s.push(await time(boss, await deep(boss, `${R}?sort=app`, 40)));
  p95s.push(await time(boss, await deep(boss, `${R}?sort=-priority`, 40)));
  p95s.push(await time(boss, `${R}?status=Pending&sort=app`));
  p95s.push(await time(boss, `${R}?status=Expired&sort=-modified`));
  p95s.push(await time(requester, `${R}?sort=app`));
  for (const sort of ['request', '-request', 'app', '-app', 'status', '-status', 'modified', '-modified'])
    p95s.push(await time(boss, `${L}?sort=${sort}`));
  p95s.push(await time(boss, await deep(boss, `${L}?sort=app`, 200)));
  p95s.push(await time(boss, await deep(boss, `${L}?sort=-modified`, 200)));
  p95s.push(await time(boss, `${L}?status=Deleted&sort=modified`));
  p95s.push(await time(boss, `${L}?status=Expired&sort=-modified`));
  p95s.push(await time(boss, `${L}?status=Pending&sort=app`));
  console.log(`${name}: worst p95 ${ms(Math.max(...p95s))} (target ≤ 20 ms)`);
  // An export reads everything: its whole time, once each.
  for (const path of [`${R}/export?sort=app`, `${L}/export?sort=-modified`]) {
    const t = performance.now();
    const r = await fetch(`${server.url}${path}`, { headers: boss });
    const body = await r.arrayBuffer();
    console.log(
      `${name}: ${path.padEnd(60)} ${r.status} ${r.headers.get('x-export-rows')} rows, ` +
        `${(body.byteLength / 1e6).toFixed(1)} MB in ${ms(performance.now() - t)}`,
    );
  }
}

/**
 * The SQL alone, in this process (no HTTP, no JSON): each list query's p95 over 40 runs, and the
 * plan of the slowest, so a figure can be told from the machine's noise.
 */
async function sqlFigures(name: string, db: Queryable): Promise<void> {
  const now = new Date();
  const cases: Array<[string, (q: Queryable) => Promise<unknown>]> = [
    ['requests, live group', (q) => pageRequests(q, { now, statuses: ['Pending', 'Approved'], limit: 51 })],
    [
      'requests, the rest',
      (q) => pageRequests(q, { now, statuses: ['Rejected', 'Revoked', 'Expired'], limit: 51 }),
    ],
    ['requests ?status=Pending', (q) => pageRequests(q, { now, statuses: ['Pending'], limit: 51 })],
    ['requests ?status=Approved', (q) => pageRequests(q, { now, statuses: ['Approved'], limit: 51 })],
    ['requests ?status=Expired', (q) => pageRequests(q, { now, statuses: ['Expired'], limit: 51 })],
    [
      'requests, a requester',
      (q) =>
        pageRequests(q, {
          now,
          statuses: ['Rejected', 'Revoked', 'Expired'],
          visibleTo: 'admin@example.com',
          limit: 51,
        }),
    ],
    ...(['id', 'modified', 'priority'] as const).flatMap(
      (key) =>
        [false, true].map((descending) => [
          `requests sort=${descending ? '-' : ''}${key}`,
          (q: Queryable) =>
            pageRequests(q, {
              now,
              statuses: ['Pending', 'Approved', 'Rejected', 'Revoked', 'Expired'],
              order: { key, descending },
              limit: 51,
            }),
        ]) as Array<[string, (q: Queryable) => Promise<unknown>]>,
    ),
    [
      'requests sort=app',
      (q) =>
        pageRequestsByApp(q, {
          now,
          statuses: ['Pending', 'Approved', 'Rejected', 'Revoked', 'Expired'],
          descending: false,
          limit: 51,
        }),
    ],
    [
      'requests ?status=Pending sort=app',
      (q) => pageRequestsByApp(q, { now, statuses: ['Pending'], descending: true, limit: 51 }),
    ],
    ['log', (q) => logEntries(q, { now, limit: 51 })],
    ...(['request', 'modified', 'app'] as const).flatMap(
      (key) =>
        [false, true].map((descending) => [
          `log sort=${descending ? '-' : ''}${key}`,
          (q: Queryable) => logEntries(q, { now, order: { key, descending }, limit: 51 }),
        ]) as Array<[string, (q: Queryable) => Promise<unknown>]>,
    ),
    [
      'log ?status=Deleted sort=modified',
      (q) =>
        logEntries(q, { now, status: 'Deleted', order: { key: 'modified', descending: false }, limit: 51 }),
    ],
    [
      'log ?status=Expired sort=-modified',
      (q) =>
        logEntries(q, { now, status: 'Expired', order: { key: 'modified', descending: true }, limit: 51 }),
    ],
    ['log ?status=Approved', (q) => logEntries(q, { now, status: 'Approved', limit: 51 })],
    ['log ?status=Expired', (q) => logEntries(q, { now, status: 'Expired', limit: 51 })],
    ['log ?status=Deleted', (q) => logEntries(q, { now, status: 'Deleted', limit: 51 })],
  ];
  let plan = '';
  let worst = 0;
  for (const [what, run] of cases) {
    const out: number[] = [];
    for (let i = 0; i < 45; i++) {
      const t = performance.now();
      await run(db);
      if (i >= 5) out.push(performance.now() - t);
    }
    out.sort((a, b) => a - b);
    const p95 = percentile(out, 95);
    console.log(`${name}: SQL ${what.padEnd(32)} p50 ${ms(percentile(out, 50))} p95 ${ms(p95)}`);
    if (p95 > worst) {
      worst = p95;
      const explain: Queryable = {
        query: async <T>(sql: string, params?: unknown[]) => {
          const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
          plan = `${what}:\n${r.rows.map((x) => `  ${x['QUERY PLAN']}`).join('\n')}`;
          return { rows: [] as T[] };
        },
        exec: (sql) => db.exec(sql),
      };
      await run(explain);
    }
  }
  console.log(`${name}: plan of the slowest, ${plan}`);
}

async function run(name: string, env: Record<string, string>, dataDir: string, fillFirst: boolean) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
  });
  if (fillFirst) {
    // PGlite: the first start migrates and seeds; the rows go in while the server is down (one owner).
    await (await startServer({ port: PORT, dataDir, env })).stop();
  }
  const server = fillFirst ? undefined : await startServer({ port: PORT, dataDir, env });
  try {
    const t = performance.now();
    const db = await openConfiguredDb(config);
    const size = await fill(db);
    console.log(`${name}: filled in ${((performance.now() - t) / 1000).toFixed(0)} s: ${size}`);
    await sqlFigures(name, db);
    await db.close();
    const s = server ?? (await startServer({ port: PORT, dataDir, env }));
    try {
      await measure(name, s);
    } finally {
      if (!server) await s.stop();
    }
  } finally {
    await server?.stop();
  }
}

export async function benchImpersonationLists(): Promise<void> {
  const env = { DEMO_PASSWORD: PASSWORD };
  if (process.env.BENCH_IMPERSONATION_ENGINES !== 'postgres')
    await run('PGlite', env, freshDir('impersonation-pglite'), true);
  if (process.env.BENCH_IMPERSONATION_ENGINES === 'pglite') return;
  const base = process.env.BENCH_IMPERSONATION_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = await openConfiguredDb(
    loadConfig({ DATABASE_URL: base, DATA_DIR: freshDir('impersonation-admin') }),
  );
  try {
    await admin.query('DROP DATABASE IF EXISTS sac_bench_impersonation');
    await admin.query('CREATE DATABASE sac_bench_impersonation');
  } catch (e) {
    console.log(`PostgreSQL: skipped — ${(e as Error).message} at ${base}`);
    return;
  } finally {
    await admin.close();
  }
  const url = new URL(base);
  url.pathname = '/sac_bench_impersonation';
  await run(
    'PostgreSQL',
    { ...env, DATABASE_URL: url.toString() },
    freshDir('impersonation-postgres'),
    false,
  );
}
