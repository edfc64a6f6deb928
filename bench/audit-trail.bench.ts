import { createHash } from 'node:crypto';
import http from 'node:http';
import { ENDPOINTS } from '@sac/contract/endpoints';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Queryable } from '../apps/api/src/db/db.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import { listTrail } from '../apps/api/src/modules/audit/audit.service.ts';
import {
  type Floor,
  floorLine,
  httpTimings,
  medianLine,
  p95,
  queryOf,
  readingContext,
  timings,
} from './floors.ts';
import { startHostileMix } from './hostile-load.ts';
import {
  databaseName,
  freshDatabase,
  freshDir,
  insertTrailEvents,
  ms,
  percentile,
  type Server,
  signIn,
  startServer,
} from './support.ts';

/**
 * The staff audit trail at 1,000,000 events, on PGlite and on PostgreSQL (a fresh database on
 * BENCH_AUDIT_DATABASE_URL's server, default the local one): the export's rate in rows a second
 * and bytes over the wire, and the list's latency on its first page, 200 pages deep, and
 * filtered by customer, action and free text.
 *
 * Prints, per engine: the fill; one line a list with its p50 and p95 through HTTP beside its
 * floors measured in the same run (issue 31, floors.ts): the list's SQL (the audit service the
 * route calls, in this process, same engine) and the ratio to it, an authenticated GET of the same
 * server (GET /admin/session) and what the list adds to it, and its p95 with the hostile mix
 * (hostile-load.ts) beside it and the ratio to alone; the mix's answers; then the exports.
 */
const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const PASSWORD = 'Bench#Pass1';
const PORT = Number(process.env.BENCH_AUDIT_PORT ?? 3944);
/** The PostgreSQL database the bench fills, on BENCH_AUDIT_DATABASE_URL's server. */
const DATABASE = databaseName(process.env.BENCH_AUDIT_DATABASE, 'sac_bench_audit');
/** Timed calls of each list: its SQL in process, through HTTP alone and beside the hostile mix. */
const CALLS = 20;

/** A million events over 90 days: 40 actors, 10,000 customers, their sites, the usual actions. */
async function fill(db: Queryable): Promise<string> {
  await insertTrailEvents(db, 1, EVENTS, `now() - ((${EVENTS} - n) * interval '7776 milliseconds')`);
  await db.query('ANALYZE activity_log');
  const size = await db.query<{ bytes: string; n: string }>(
    "SELECT pg_total_relation_size('activity_log')::text AS bytes, count(*)::text AS n FROM activity_log",
  );
  const { bytes, n } = size.rows[0]!;
  return `${(Number(bytes) / 1e6).toFixed(0)} MB with its indexes, ${Math.round(Number(bytes) / Number(n))} bytes an event`;
}

const EVENTS_PATH = ENDPOINTS.auditEvents.path;

interface ListFigures {
  what: string;
  path: string;
  sql: number[];
}

/**
 * The list's pages and their SQL as the route runs it (the audit service in this process, no HTTP,
 * no authentication); the page 201 deep is walked there too.
 */
async function sqlFigures(db: Queryable): Promise<ListFigures[]> {
  const ctx = readingContext(db);
  const call = (path: string) => {
    const q = queryOf<Parameters<typeof listTrail>[1]>('auditEvents', path);
    return () => listTrail(ctx, q);
  };
  let cursor = '';
  for (let i = 0; i < 200; i++)
    cursor =
      (await call(`${EVENTS_PATH}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`)()).NextCursor ??
      '';
  const requestId = createHash('md5').update('424242').digest('hex').slice(0, 12);
  const lists: Array<[string, string]> = [
    ['first page', EVENTS_PATH],
    ['page 201 (10,000 rows deep)', `${EVENTS_PATH}?cursor=${encodeURIComponent(cursor)}`],
    ['one customer', `${EVENTS_PATH}?customer=00000abc-0000-4000-8000-000000000000`],
    ['one action', `${EVENTS_PATH}?action=team.roles`],
    ["free text 'staff7@'", `${EVENTS_PATH}?q=staff7%40`],
    ["free text 'login' (a quarter of the rows)", `${EVENTS_PATH}?q=login`],
    ['free text: a request id', `${EVENTS_PATH}?q=${requestId}`],
  ];
  const out: ListFigures[] = [];
  for (const [what, path] of lists) out.push({ what, path, sql: await timings(call(path), CALLS, 3) });
  return out;
}

async function measure(name: string, server: Server, lists: ListFigures[]): Promise<void> {
  const auth = await signIn(server.url, 'superadmin@example.com', PASSWORD);
  const floor: Floor = { auth, times: [] };
  const alone: number[][] = [];
  for (const l of lists) alone.push(await httpTimings(server.url, auth, l.path, CALLS, floor));
  const mix = await startHostileMix(server.url, PASSWORD);
  const mixedFloor: Floor = { auth, times: [] };
  const mixed: number[][] = [];
  for (const l of lists) mixed.push(await httpTimings(server.url, auth, l.path, CALLS, mixedFloor));
  const answered = await mix.stop();
  const session = floor.times.sort((a, b) => a - b);
  const mixedSession = mixedFloor.times;
  lists.forEach((l, i) => {
    console.log(
      `${name}: ${floorLine({ what: `list, ${l.what}:`, http: alone[i]!, sql: l.sql, session, mixed: mixed[i] })}`,
    );
  });
  console.log(
    medianLine(
      `${name}: audit trail lists`,
      lists.map((l, i) => ({ http: alone[i]!, sql: l.sql, mixed: mixed[i]! })),
    ),
  );
  console.log(
    `${name}: an authenticated GET alone p50 ${ms(percentile(session, 50))} p95 ${ms(p95(session))}, ` +
      `beside the mix p95 ${ms(p95(mixedSession))}; the mix answered: ${answered}`,
  );

  for (const format of ['jsonl', 'csv'] as const) {
    for (const encoding of ['identity', 'br'] as const) {
      const t = performance.now();
      const { rows, bytes } = await rawDownload(
        `${server.url}/admin/audit/export?format=${format}`,
        auth,
        encoding,
      );
      const s = (performance.now() - t) / 1000;
      console.log(
        `${name}: export ${format} (${encoding}) of ${rows.toLocaleString('en-US')} rows in ${s.toFixed(1)} s: ` +
          `${Math.round(rows / s).toLocaleString('en-US')} rows/s, ${(bytes / 1e6).toFixed(1)} MB over the wire`,
      );
    }
  }
}

/** A download read off the socket as sent: the rows the server announced and the bytes that came. */
function rawDownload(
  url: string,
  headers: Record<string, string>,
  encoding: 'identity' | 'br',
): Promise<{ rows: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { ...headers, 'accept-encoding': encoding } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`export: ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ rows: Number(res.headers['x-export-rows']), bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

export async function benchAuditTrail(): Promise<void> {
  {
    const dataDir = freshDir('audit-pglite');
    const env = { DEMO_PASSWORD: PASSWORD };
    // The first start migrates and seeds; the events go in while the server is down (one owner of the directory).
    await (await startServer({ port: PORT, dataDir, env })).stop();
    const t = performance.now();
    const db = await openConfiguredDb(loadConfig({ DATA_DIR: dataDir }));
    const size = await fill(db);
    console.log(
      `PGlite: ${EVENTS.toLocaleString('en-US')} events written in ${((performance.now() - t) / 1000).toFixed(0)} s; the trail is ${size}`,
    );
    const lists = await sqlFigures(db);
    await db.close();
    const server = await startServer({ port: PORT, dataDir, env });
    try {
      await measure('PGlite', server, lists);
    } finally {
      await server.stop();
    }
  }
  {
    const base = process.env.BENCH_AUDIT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    let url: URL;
    try {
      url = new URL(await freshDatabase(base, DATABASE));
    } catch (e) {
      console.log(`PostgreSQL: skipped — ${(e as Error).message} at ${base}`);
      return;
    }
    const env = { DEMO_PASSWORD: PASSWORD, DATABASE_URL: url.toString() };
    const server = await startServer({ port: PORT, dataDir: freshDir('audit-postgres'), env });
    try {
      const t = performance.now();
      const db = await openConfiguredDb(
        loadConfig({ DATABASE_URL: url.toString(), DATA_DIR: freshDir('audit-admin') }),
      );
      const size = await fill(db);
      console.log(
        `PostgreSQL: ${EVENTS.toLocaleString('en-US')} events written in ${((performance.now() - t) / 1000).toFixed(0)} s; the trail is ${size}`,
      );
      const lists = await sqlFigures(db);
      await db.close();
      await measure('PostgreSQL', server, lists);
    } finally {
      await server.stop();
    }
  }
}
