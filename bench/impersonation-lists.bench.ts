import { ENDPOINTS } from '@sac/contract/endpoints';
import type { AppContext, StaffSession } from '../apps/api/src/app-context.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Queryable } from '../apps/api/src/db/db.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import * as reads from '../apps/api/src/modules/impersonation/impersonation-reads.service.ts';
import {
  type Floor,
  floorLine,
  httpTimings,
  medianLine,
  p95,
  queryOf,
  readingContext,
  staffSession,
  timings,
  verdict,
} from './floors.ts';
import { startHostileMix } from './hostile-load.ts';
import {
  databaseName,
  freshDatabase,
  freshDir,
  ms,
  percentile,
  type Server,
  signIn,
  startServer,
} from './support.ts';

/**
 * Issue 17: the impersonation request list and log at 100,000 requests and 1,000,000 log entries,
 * on PGlite and on PostgreSQL (a fresh database on BENCH_IMPERSONATION_DATABASE_URL's server,
 * default the local one), through the real server: first pages, each status filter, a page deep,
 * and a requester's own view, under each sort. Target p95 ≤ 20 ms.
 *
 * Prints, per engine: the fill; the plan of the slowest page's SQL; then one line a page with its
 * p50 and p95 through HTTP beside its floors measured in the same run (issue 31, floors.ts): the
 * page's SQL (the reads service the route calls, in this process, same engine) and the ratio to
 * it, an authenticated GET of the same server (GET /admin/session) and what the page adds to it,
 * and the page's p95 with the hostile mix (hostile-load.ts) beside it and its ratio to alone;
 * then the mix's answers, the target's verdict alone and beside the mix, and the two exports'
 * whole times.
 */
const REQUESTS = Number(process.env.BENCH_IMPERSONATION_REQUESTS ?? 100_000);
const LOG_ENTRIES = Number(process.env.BENCH_IMPERSONATION_LOG ?? 1_000_000);
const PASSWORD = 'Bench#Pass1';
const PORT = Number(process.env.BENCH_IMPERSONATION_PORT ?? 3945);
/** The PostgreSQL database the bench fills, on BENCH_IMPERSONATION_DATABASE_URL's server. */
const DATABASE = databaseName(process.env.BENCH_IMPERSONATION_DATABASE, 'sac_bench_impersonation');
/**
 * Timed calls of each page: through HTTP alone, beside the hostile mix, and its SQL in process.
 * The p95 of n calls is the (⌊0.95 n⌋ + 1)-th fastest: of 20 it was the slowest call, so the
 * worst page's "p95" was the slowest of 960; 100 make it a p95.
 */
const CALLS = 100;
const MIXED_CALLS = 100;
const SQL_CALLS = 40;

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
  // The pages are measured in the database's steady state, not in the fill's aftermath: the
  // visibility map set and the fill's dirty pages written out now, rather than by autovacuum or
  // a checkpoint in the middle of the timed calls.
  await db.query('VACUUM ANALYZE impersonation_requests');
  await db.query('VACUUM ANALYZE impersonation_log');
  await db.query('CHECKPOINT');
  const size = await db.query<{ r: string; l: string; nr: string; nl: string }>(
    `SELECT pg_total_relation_size('impersonation_requests')::text AS r, pg_total_relation_size('impersonation_log')::text AS l,
            (SELECT count(*) FROM impersonation_requests)::text AS nr, (SELECT count(*) FROM impersonation_log)::text AS nl`,
  );
  const s = size.rows[0]!;
  return `${Number(s.nr).toLocaleString('en-US')} requests (${(Number(s.r) / 1e6).toFixed(0)} MB with indexes), ${Number(s.nl).toLocaleString('en-US')} log entries (${(Number(s.l) / 1e6).toFixed(0)} MB)`;
}

type Viewer = 'superadmin@example.com' | 'admin@example.com';
const BOSS: Viewer = 'superadmin@example.com';
/** Not an approver: sees the requests they made or are assigned. */
const REQUESTER: Viewer = 'admin@example.com';
const R = ENDPOINTS.impersonationList.path;
const L = ENDPOINTS.impersonationLogs.path;
const C = ENDPOINTS.customerRequestsList.path;

/** A page's path with a cursor added (none: the path itself). */
const withCursor = (path: string, cursor: string) =>
  cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path;

/** A page's call as its route makes it: the reads service with the query parsed by the endpoint's schema. */
function serviceCall(
  ctx: AppContext,
  viewer: StaffSession,
  path: string,
): () => Promise<{ Data: unknown[]; NextCursor: string | null }> {
  const base = path.split('?')[0];
  if (base === L) {
    const q = queryOf<Parameters<typeof reads.logs>[2]>('impersonationLogs', path);
    return () => reads.logs(ctx, viewer, q);
  }
  const q = queryOf<Parameters<typeof reads.list>[2]>(
    base === C ? 'customerRequestsList' : 'impersonationList',
    path,
  );
  return () => reads.list(ctx, viewer, q, base === C);
}

/** The page `pages` pages into `path`, walked by the service (a short list: its last page). */
async function deep(ctx: AppContext, viewer: StaffSession, path: string, pages: number): Promise<string> {
  let cursor = '';
  for (let i = 0; i < pages; i++) {
    const next = (await serviceCall(ctx, viewer, withCursor(path, cursor))()).NextCursor;
    if (!next) break;
    cursor = next;
  }
  return withCursor(path, cursor);
}

/** The pages measured, each with who reads it: first pages, filters, pages deep, sorts (issue 17). */
async function pagesOf(ctx: AppContext, viewers: Map<Viewer, StaffSession>) {
  const boss = viewers.get(BOSS)!;
  const out: Array<{ who: Viewer; path: string }> = [];
  const add = (path: string, who: Viewer = BOSS) => out.push({ who, path });
  add(R);
  for (const s of ['Pending', 'Approved', 'Expired', 'Rejected', 'Revoked']) add(`${R}?status=${s}`);
  add(await deep(ctx, boss, R, 40)); // past the live group, 2,000 rows deep
  add(await deep(ctx, boss, `${R}?status=Pending`, 40));
  add(R, REQUESTER);
  add(`${R}?status=Expired`, REQUESTER);
  add(C);
  add(L);
  for (const s of ['Pending', 'Approved', 'Expired', 'Rejected', 'Revoked', 'Deleted'])
    add(`${L}?status=${s}`);
  add(await deep(ctx, boss, L, 200)); // 10,000 entries deep
  add(await deep(ctx, boss, `${L}?status=Expired`, 200));
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
    add(`${R}?sort=${sort}`);
  add(await deep(ctx, boss, `${R}?sort=app`, 40));
  add(await deep(ctx, boss, `${R}?sort=-priority`, 40));
  add(`${R}?status=Pending&sort=app`);
  add(`${R}?status=Expired&sort=-modified`);
  add(`${R}?sort=app`, REQUESTER);
  for (const sort of ['request', '-request', 'app', '-app', 'status', '-status', 'modified', '-modified'])
    add(`${L}?sort=${sort}`);
  add(await deep(ctx, boss, `${L}?sort=app`, 200));
  add(await deep(ctx, boss, `${L}?sort=-modified`, 200));
  add(`${L}?status=Deleted&sort=modified`);
  add(`${L}?status=Expired&sort=-modified`);
  add(`${L}?status=Pending&sort=app`);
  return out;
}

interface PageFigures {
  who: Viewer;
  path: string;
  rows: number;
  sql: number[];
  http?: number[];
  mixed?: number[];
}

/**
 * Each page's SQL as its route runs it, in this process (no HTTP, no authentication): timings of
 * the reads service, and the plan of the slowest page's statements, so a figure can be told from
 * the machine's noise.
 */
async function sqlFigures(name: string, db: Queryable): Promise<PageFigures[]> {
  const ctx = readingContext(db);
  const viewers = new Map<Viewer, StaffSession>();
  for (const who of [BOSS, REQUESTER]) viewers.set(who, await staffSession(db, who));
  const out: PageFigures[] = [];
  let worst: PageFigures | undefined;
  for (const { who, path } of await pagesOf(ctx, viewers)) {
    const run = serviceCall(ctx, viewers.get(who)!, path);
    const rows = (await run()).Data.length;
    const sql = await timings(run, SQL_CALLS, 3);
    out.push({ who, path, rows, sql });
    if (!worst || p95(sql) > p95(worst.sql)) worst = out.at(-1);
  }
  // The slowest page's statements again, each explained (a list of groups runs one a group).
  const plans: string[] = [];
  const explain: Queryable = {
    query: async <T>(sql: string, params?: unknown[]) => {
      const r = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${sql}`, params);
      plans.push(r.rows.map((x) => `  ${x['QUERY PLAN']}`).join('\n'));
      return { rows: [] as T[] };
    },
    exec: (sql) => db.exec(sql),
  };
  await serviceCall(readingContext(explain), viewers.get(worst!.who)!, worst!.path)();
  console.log(
    `${name}: plan of the slowest page's SQL, ${worst!.path} as ${worst!.who}:\n${plans.join('\n  --\n')}`,
  );
  return out;
}

/** Each page through the server, alone and then with the hostile mix beside it, with the authenticated GET's floor. */
async function measure(name: string, server: Server, pages: PageFigures[]): Promise<void> {
  const auth = new Map<Viewer, Record<string, string>>();
  for (const who of [BOSS, REQUESTER]) auth.set(who, await signIn(server.url, who, PASSWORD));
  const alone: Floor = { auth: auth.get(BOSS)!, times: [] };
  for (const p of pages) p.http = await httpTimings(server.url, auth.get(p.who)!, p.path, CALLS, alone);
  const mix = await startHostileMix(server.url, PASSWORD);
  const mixedFloor: Floor = { auth: auth.get(BOSS)!, times: [] };
  for (const p of pages)
    p.mixed = await httpTimings(server.url, auth.get(p.who)!, p.path, MIXED_CALLS, mixedFloor);
  const answered = await mix.stop();
  const session = alone.times.sort((a, b) => a - b);
  const mixedSession = mixedFloor.times;
  for (const p of pages) {
    const what = `GET ${p.path.replace(/cursor=[^&]+/, 'cursor=…')}${p.who === REQUESTER ? ' as a requester' : ''}`;
    console.log(
      `${name}: ${floorLine({ what, http: p.http!, sql: p.sql, session, mixed: p.mixed })} (${p.rows} rows)`,
    );
  }
  console.log(
    `${name}: an authenticated GET alone p50 ${ms(percentile(session, 50))} p95 ${ms(p95(session))}, ` +
      `beside the mix p95 ${ms(p95(mixedSession))}; the mix answered: ${answered}`,
  );
  const worst = (k: 'http' | 'mixed') => Math.max(...pages.map((p) => p95(p[k]!)));
  console.log(verdict(`${name}: impersonation pages`, worst('http'), worst('mixed'), 20));
  console.log(
    medianLine(
      `${name}: impersonation pages`,
      pages.map((p) => ({ http: p.http!, sql: p.sql, mixed: p.mixed! })),
    ),
  );
  const boss = auth.get(BOSS)!;
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
    const pages = await sqlFigures(name, db);
    await db.close();
    const s = server ?? (await startServer({ port: PORT, dataDir, env }));
    try {
      await measure(name, s, pages);
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
  let url: URL;
  try {
    url = new URL(await freshDatabase(base, DATABASE));
  } catch (e) {
    console.log(`PostgreSQL: skipped — ${(e as Error).message} at ${base}`);
    return;
  }
  await run(
    'PostgreSQL',
    { ...env, DATABASE_URL: url.toString() },
    freshDir('impersonation-postgres'),
    false,
  );
}
