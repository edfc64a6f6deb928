import { createHash } from 'node:crypto';
import http from 'node:http';
import { loadConfig } from '../apps/api/src/config.ts';
import type { Queryable } from '../apps/api/src/db/db.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import { freshDir, insertTrailEvents, ms, percentile, type Server, startServer } from './support.ts';

/**
 * The staff audit trail at 1,000,000 events, on PGlite and on PostgreSQL (a fresh database on
 * BENCH_AUDIT_DATABASE_URL's server, default the local one): the export's rate in rows a second
 * and bytes over the wire, and the list's latency on its first page, 200 pages deep, and
 * filtered by customer, action and free text.
 */
const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const HEADERS = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };
const PASSWORD = 'Bench#Pass1';

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

async function signIn(server: Server): Promise<Record<string, string>> {
  const r = await fetch(`${server.url}/admin/login`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ email: 'superadmin@example.com', password: PASSWORD }),
  });
  const { xtoken, xsign } = (await r.json()) as { xtoken: string; xsign: string };
  return { ...HEADERS, xtoken, xsign };
}

async function measure(name: string, server: Server): Promise<void> {
  const auth = await signIn(server);
  const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth });
  const time = async (path: string, n = 20) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const r = await get(path);
      if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
      out.push(performance.now() - t);
    }
    return out.sort((a, b) => a - b);
  };
  const report = (what: string, t: number[]) =>
    console.log(
      `${name}: ${what} p50 ${ms(percentile(t, 50))} p95 ${ms(percentile(t, 95))} (${t.length} calls)`,
    );

  report('first page', await time('/admin/audit/events'));
  let cursor = '';
  for (let i = 0; i < 200; i++) {
    const r = await get(`/admin/audit/events${cursor ? `?cursor=${cursor}` : ''}`);
    cursor = ((await r.json()) as { NextCursor: string }).NextCursor;
  }
  report('page 201 (10,000 rows deep)', await time(`/admin/audit/events?cursor=${cursor}`));
  report('one customer', await time('/admin/audit/events?customer=00000abc-0000-4000-8000-000000000000'));
  report('one action', await time('/admin/audit/events?action=team.roles'));
  report("free text 'staff7@'", await time('/admin/audit/events?q=staff7%40'));
  report("free text 'login' (a quarter of the rows)", await time('/admin/audit/events?q=login'));
  const requestId = createHash('md5').update('424242').digest('hex').slice(0, 12);
  report('free text: a request id', await time(`/admin/audit/events?q=${requestId}`));

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
    await (await startServer({ port: 3944, dataDir, env })).stop();
    const t = performance.now();
    const db = await openConfiguredDb(loadConfig({ DATA_DIR: dataDir }));
    const size = await fill(db);
    await db.close();
    console.log(
      `PGlite: ${EVENTS.toLocaleString('en-US')} events written in ${((performance.now() - t) / 1000).toFixed(0)} s; the trail is ${size}`,
    );
    const server = await startServer({ port: 3944, dataDir, env });
    try {
      await measure('PGlite', server);
    } finally {
      await server.stop();
    }
  }
  {
    const base = process.env.BENCH_AUDIT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const admin = await openConfiguredDb(
      loadConfig({ DATABASE_URL: base, DATA_DIR: freshDir('audit-admin') }),
    );
    try {
      await admin.query('DROP DATABASE IF EXISTS sac_bench_audit');
      await admin.query('CREATE DATABASE sac_bench_audit');
    } catch (e) {
      console.log(`PostgreSQL: skipped — ${(e as Error).message} at ${base}`);
      return;
    } finally {
      await admin.close();
    }
    const url = new URL(base);
    url.pathname = '/sac_bench_audit';
    const env = { DEMO_PASSWORD: PASSWORD, DATABASE_URL: url.toString() };
    const server = await startServer({ port: 3944, dataDir: freshDir('audit-postgres'), env });
    try {
      const t = performance.now();
      const db = await openConfiguredDb(
        loadConfig({ DATABASE_URL: url.toString(), DATA_DIR: freshDir('audit-admin') }),
      );
      const size = await fill(db);
      await db.close();
      console.log(
        `PostgreSQL: ${EVENTS.toLocaleString('en-US')} events written in ${((performance.now() - t) / 1000).toFixed(0)} s; the trail is ${size}`,
      );
      await measure('PostgreSQL', server);
    } finally {
      await server.stop();
    }
  }
}
