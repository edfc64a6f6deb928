import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type Db, openPgliteDir, openPostgres } from '../apps/api/src/db/db.ts';
import { timedGet } from './floors.ts';
import { type Case, sampleTerms } from './search.bench.ts';
import { cpuMsOf, freshDir, ms, percentile, ROOT, type Server, signIn, startServer } from './support.ts';

/*
 * The API under load at a million customers, on PGlite and on PostgreSQL, through HTTP on loopback:
 *   - restart time on the filled database and resident memory (peak) over the whole leg;
 *   - an authenticated GET of one object (GET /admin/customerprofilebyuid, random customers) with
 *     autocannon at 50 connections, bounded in time;
 *   - password sign-ins: the most a second (closed loop), then 20 a second arriving (open loop)
 *     while customer searches run, against the same searches without the burst;
 *   - customer search through HTTP: the customers issue's targets, per criterion.
 * Databases: BENCH_PGLITE_DATA_DIR (default .tmp/scale-pglite) and BENCH_DATABASE_URL, both filled
 * by `npm run seed:scale -- --customers 1000000` (docs/benchmarks.md). BENCH_LOAD_SMALL=1 runs on
 * the demo data instead (PGlite in a fresh directory; BENCH_DATABASE_URL an empty database), for
 * what does not depend on the size (the GET one object beside its floor).
 *
 * The GET of one object is measured beside its floors in the same run, each in a process of its own
 * to the same client with the same request headers: a bare Fastify answering the same path with the
 * API's body and response headers; and a bare Fastify answering with the API's own read of the
 * profile (the same statement through the same database layer), without and with the API's one log
 * line an answer (get-floor-server.ts). Each prints answers a second and CPU µs an answer of the
 * answering process. The machine may be busy: the ratios are the figures.
 */

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const PASSWORD = 'Bench#Pass1';
const EMAIL = 'superadmin@example.com';
const AJAX = { 'X-Requested-With': 'XMLHttpRequest' };
const CORES = os.availableParallelism();
/** BENCH_LOAD_PARTS=get,signin,search runs only those parts (restart and memory always). */
const PARTS = (process.env.BENCH_LOAD_PARTS ?? 'get,signin,search').split(',');
const part = (name: string) => PARTS.includes(name);
const SMALL = process.env.BENCH_LOAD_SMALL === '1';
/** The API's port; the floor's is the next (BENCH_LOAD_PORT, for two benches on one machine). */
const PORT = Number(process.env.BENCH_LOAD_PORT ?? 3961);

interface Leg {
  name: string;
  env: Record<string, string>;
  dataDir: string;
  open(): Promise<Db>;
  targets: { rps: number; p99: number };
}

function legs(): Leg[] {
  const out: Leg[] = [];
  const pgliteData = SMALL
    ? freshDir('api-load-small')
    : path.resolve(ROOT, process.env.BENCH_PGLITE_DATA_DIR ?? '.tmp/scale-pglite');
  if (SMALL || fs.existsSync(path.join(pgliteData, 'pglite', 'PG_VERSION')))
    out.push({
      name: 'PGlite',
      env: {},
      dataDir: pgliteData,
      open: () => openPgliteDir(path.join(pgliteData, 'pglite')),
      targets: { rps: 1500, p99: 50 },
    });
  else
    console.log(`PGlite: skipped — no database in ${pgliteData} (DATA_DIR=${pgliteData} npm run seed:scale)`);
  const url = process.env.BENCH_DATABASE_URL;
  if (url)
    out.push({
      name: 'PostgreSQL',
      env: { DATABASE_URL: url },
      dataDir: freshDir('api-load-pg'),
      open: async () => openPostgres(url, 1),
      targets: { rps: 3000, p99: 25 },
    });
  else console.log('PostgreSQL: skipped — set BENCH_DATABASE_URL to a database filled by seed:scale');
  return out;
}

const verdict = (ok: boolean, target: string) => `${ok ? 'met' : 'MISSED'} (${target})`;

/** Resident memory of the server process now and at its peak, in MB (Linux /proc). */
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function sample(leg: Leg): Promise<{ uids: string[]; cases: Case[] }> {
  const db = await leg.open();
  try {
    const counts = (
      await db.query<{ customers: number; sites: number }>(
        `SELECT (SELECT count(*)::int FROM customers) AS customers, (SELECT count(*)::int FROM sites) AS sites`,
      )
    ).rows[0]!;
    if (counts.customers < 1_000_000 && !SMALL)
      throw new Error(`${leg.name} has ${counts.customers} customers, not 1M`);
    const uids = (
      await db.query<{ uid: string }>(
        SMALL
          ? 'SELECT uid::text AS uid FROM customers ORDER BY uid LIMIT 2000'
          : 'SELECT uid::text AS uid FROM customers TABLESAMPLE SYSTEM (0.5) REPEATABLE (3) LIMIT 2000',
      )
    ).rows.map((r) => r.uid);
    const searches = part('signin') || part('search');
    return { uids, cases: searches ? await sampleTerms(db, counts.customers, counts.sites) : [] };
  } finally {
    await db.close();
  }
}

/**
 * The floor of a GET: a bare Fastify (no database, no hooks, no logging) in a process of its own,
 * answering every GET with `body` and the response headers the API sent with it.
 */
async function startFloor(
  port: number,
  headers: Record<string, string>,
  body: string,
): Promise<{ url: string; pid: number; stop(): void }> {
  const script = `
    const app = require('fastify')();
    const headers = JSON.parse(process.env.FLOOR_HEADERS);
    const body = process.env.FLOOR_BODY;
    app.get('/*', (req, reply) => { reply.headers(headers).send(body); });
    app.listen({ port: ${port}, host: '127.0.0.1' }).then(() => console.log('ready'));`;
  const proc = spawn(process.execPath, ['-e', script], {
    cwd: ROOT,
    env: { ...process.env, FLOOR_HEADERS: JSON.stringify(headers), FLOOR_BODY: body },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    proc.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    proc.once('exit', (code) => reject(new Error(`the floor exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: proc.pid!, stop: () => proc.kill('SIGTERM') };
}

/** What one GET costs: answers a second, and CPU µs an answer in the answering process. */
interface GetFigure {
  rps: number;
  cpuUs: number;
}

/** The response headers a floor answers with: the API's, but those each answer sets itself. */
function floorHeaders(sent: Response): Record<string, string> {
  const skip = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
  return Object.fromEntries([...sent.headers].filter(([k]) => !skip.has(k)));
}

async function getOneObject(server: Server, headers: Record<string, string>, uids: string[], leg: Leg) {
  const first = await fetch(`${server.url}/admin/customerprofilebyuid?uid=${uids[0]}`, { headers });
  const sent = floorHeaders(first);
  const floor = await startFloor(PORT + 1, sent, await first.text());
  try {
    const api = await getOneObjectFrom(server.url, headers, uids, server.proc.pid!, leg);
    const bare = await getOneObjectFrom(floor.url, headers, uids, floor.pid);
    console.log(
      `GET one object: ${Math.round(api.rps)} req/s, bare Fastify with the same headers ${Math.round(bare.rps)} req/s ` +
        `(API ÷${(bare.rps / api.rps).toFixed(1)} of its floor, ${((api.rps / bare.rps) * 100).toFixed(0)}%); ` +
        `CPU an answer ${api.cpuUs.toFixed(0)} µs, bare ${bare.cpuUs.toFixed(0)} µs`,
    );
    return { api, sent, headers };
  } finally {
    floor.stop();
  }
}

/**
 * The floors of GET one object with its query (get-floor-server.ts): bare Fastify answering with
 * the API's own read of the profile, without and with the API's one log line an answer. Run once
 * the API has stopped (the embedded database has one owner at a time).
 */
async function getWithQueryFloors(
  leg: Leg,
  got: { api: GetFigure; sent: Record<string, string>; headers: Record<string, string> },
  uids: string[],
) {
  const { api, sent, headers } = got;
  for (const log of [false, true]) {
    const proc = spawn(process.execPath, [path.join(ROOT, 'bench/get-floor-server.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        FLOOR_PORT: String(PORT + 1),
        FLOOR_HEADERS: JSON.stringify(sent),
        FLOOR_LOG: log ? '1' : '0',
        ...(leg.env.DATABASE_URL
          ? { FLOOR_DATABASE_URL: leg.env.DATABASE_URL }
          : { FLOOR_PGLITE_DIR: path.join(leg.dataDir, 'pglite') }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        proc.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        proc.once('exit', (code) => reject(new Error(`the floor with its query exited (${code})`)));
      });
      const floor = await getOneObjectFrom(`http://127.0.0.1:${PORT + 1}`, headers, uids, proc.pid!);
      console.log(
        `floor: bare Fastify + the same read${log ? ' + one log line' : ''}: ${Math.round(floor.rps)} req/s, ` +
          `CPU an answer ${floor.cpuUs.toFixed(0)} µs; the API ${(api.rps / floor.rps).toFixed(2)}× its answers, ` +
          `${(api.cpuUs / floor.cpuUs).toFixed(2)}× its CPU an answer`,
      );
    } finally {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode === null ? proc.once('exit', r) : r(undefined)));
    }
  }
}

/** GET one object at `url` under load: answers a second and CPU an answer of `pid` (the target's verdict when a leg is given). */
async function getOneObjectFrom(
  url: string,
  headers: Record<string, string>,
  uids: string[],
  pid: number,
  leg?: Leg,
): Promise<GetFigure> {
  let i = 0;
  const run = (duration: number) =>
    autocannon({
      url,
      connections: 50,
      duration,
      headers,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({
            ...req,
            path: `/admin/customerprofilebyuid?uid=${uids[i++ % uids.length]}`,
          }),
        },
      ],
    });
  await run(2); // warm-up
  const before = cpuMsOf(pid);
  const r = await run(DURATION_S);
  const cpuUs = ((cpuMsOf(pid) - before) * 1000) / Math.max(1, r.requests.total);
  if (leg) {
    const ok = r.requests.average >= leg.targets.rps && r.latency.p99 <= leg.targets.p99;
    console.log(
      `GET one object, 50 connections, ${DURATION_S} s: ${Math.round(r.requests.average)} req/s, ` +
        `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.non2xx} non-2xx, ${r.errors} errors` +
        `  ${verdict(!!ok, `≥ ${leg.targets.rps} req/s, p99 ≤ ${leg.targets.p99} ms`)}`,
    );
  } else if (r.non2xx || r.errors)
    throw new Error(`a floor answered ${r.non2xx} non-2xx and ${r.errors} errors`);
  return { rps: r.requests.average, cpuUs };
}

async function maxSignIns(server: Server) {
  const r = await autocannon({
    url: `${server.url}/admin/login`,
    connections: CORES * 2,
    duration: DURATION_S,
    method: 'POST',
    headers: { ...AJAX, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  const perCore = r.requests.average / CORES;
  console.log(
    `sign-ins, closed loop, ${CORES * 2} connections: ${r.requests.average.toFixed(1)}/s on ${CORES} cores ` +
      `= ${perCore.toFixed(1)}/s per core, p50 ${r.latency.p50} ms, ${r.non2xx} non-2xx  ${verdict(perCore >= 30, '≥ 30/s per core')}`,
  );
}

/** A search answers 200 with customers, or 404 when none match (spec section 7). */
const answered = (status: number) => (status >= 200 && status < 300) || status === 404;

/** Searches one after another for `seconds`, cycling through the terms; their latencies, sorted. */
async function searchLoop(url: string, headers: Record<string, string>, terms: string[], seconds: number) {
  const until = performance.now() + seconds * 1000;
  const out: number[] = [];
  for (let i = 0; performance.now() < until; i++) {
    const t = performance.now();
    const r = await fetch(`${url}/admin/searchcustomer?${terms[i % terms.length]}`, { headers });
    await r.arrayBuffer();
    if (!answered(r.status)) throw new Error(`search answered ${r.status}`);
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

/** Sign-ins arriving at `rate` a second for `seconds` (open loop); their latencies, sorted. */
async function signInBurst(url: string, rate: number, seconds: number) {
  const out: number[] = [];
  const pending: Array<Promise<void>> = [];
  const started = performance.now();
  for (let n = 0; n < rate * seconds; n++) {
    const due = started + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      (async () => {
        const t = performance.now();
        const r = await fetch(`${url}/admin/login`, {
          method: 'POST',
          headers: { ...AJAX, 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
        });
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`sign-in answered ${r.status}`);
        out.push(performance.now() - t);
      })(),
    );
  }
  await Promise.all(pending);
  return out.sort((a, b) => a - b);
}

async function signInBurstWithSearch(server: Server, headers: Record<string, string>, cases: Case[]) {
  const terms = cases
    .filter((c) => c.criterion !== 'customerName' || c.label.includes('prefix'))
    .flatMap((c) => c.terms.slice(0, 40).map((t) => `${c.criterion}=${encodeURIComponent(t.term)}`));
  await searchLoop(server.url, headers, terms, 2); // warm-up
  const quiet = await searchLoop(server.url, headers, terms, DURATION_S);
  const [logins, busy] = await Promise.all([
    signInBurst(server.url, 20, DURATION_S),
    searchLoop(server.url, headers, terms, DURATION_S),
  ]);
  const p95 = percentile(logins, 95);
  const rise = percentile(busy, 95) / percentile(quiet, 95) - 1;
  console.log(
    `sign-ins arriving at 20/s for ${DURATION_S} s: p50 ${ms(percentile(logins, 50))}, p95 ${ms(p95)}  ${verdict(p95 <= 250, 'p95 ≤ 250 ms')}`,
  );
  console.log(
    `customer search (prefix and exact criteria) p95: ${ms(percentile(quiet, 95))} alone, ${ms(percentile(busy, 95))} ` +
      `during the burst (${rise >= 0 ? '+' : ''}${(rise * 100).toFixed(0)}%)  ${verdict(rise <= 0.2, 'rise ≤ 20%')}`,
  );
}

export async function searchThroughHttp(server: Server, headers: Record<string, string>, cases: Case[]) {
  console.log('customer search through HTTP, sequential, warm:');
  // What any call costs here, with the same client: a route that reads nothing (the 5 ms targets
  // are absolute; this says how much of them the machine's HTTP path takes).
  const floor: number[] = [];
  for (let i = 0; i < 300; i++) {
    const { ms: took } = await timedGet(`${server.url}/livez`);
    if (i >= 50) floor.push(took);
  }
  printLatencies('floor: GET /livez', floor);
  for (const c of cases) {
    const terms = c.terms.map(
      (t) => `${c.criterion}=${encodeURIComponent(t.term)}${c.sort ? `&sort=${c.sort}` : ''}`,
    );
    for (const q of terms.slice(0, 20)) await timedGet(`${server.url}/admin/searchcustomer?${q}`, headers);
    const ts: number[] = [];
    for (const q of terms) {
      const r = await timedGet(`${server.url}/admin/searchcustomer?${q}`, headers);
      if (!answered(r.status)) throw new Error(`search ${q} answered ${r.status}`);
      ts.push(r.ms);
    }
    printLatencies(c.label, ts, c.target);
    if (
      c.label.includes('prefix') ||
      c.label === 'customerName substring' ||
      c.label === 'sitename substring'
    )
      await nextPages(server, headers, c, terms);
  }
}

/**
 * A prefix, name or site-name search's later pages (NextCursor) have its first page's target.
 * Warm, as the first pages are: the later pages of the first 20 terms are read once untimed, so
 * that a connection's first use of a later page's statement (its parse, and on PostgreSQL the
 * custom plans before a prepared statement's generic one) is not among the 40-60 timed calls.
 */
async function nextPages(server: Server, headers: Record<string, string>, c: Case, terms: string[]) {
  const ts: number[] = [];
  for (const [i, q] of [...terms.slice(0, 20), ...terms].entries()) {
    const timed = i >= Math.min(20, terms.length);
    let cursor = '';
    // the third page: two cursors deep
    for (let depth = 0; depth < 3; depth++) {
      const url = `${server.url}/admin/searchcustomer?${q}${cursor ? `&cursor=${cursor}` : ''}`;
      const r = await timedGet(url, headers);
      const body = r.status === 200 ? (JSON.parse(r.body) as { NextCursor: string }) : { NextCursor: '' };
      if (!answered(r.status)) throw new Error(`search ${q} answered ${r.status}`);
      if (depth > 0 && timed) ts.push(r.ms);
      cursor = body.NextCursor;
      if (!cursor) break;
    }
  }
  if (ts.length > 0) printLatencies(`${c.label}, pages 2–3`, ts, { p95: c.target.p95 });
}

/** One row: p50/p95/p99 of `ts` (sorted here) and whether they meet `target`, when there is one. */
function printLatencies(label: string, ts: number[], target?: Case['target']) {
  ts.sort((a, b) => a - b);
  const p95 = percentile(ts, 95);
  const p99 = percentile(ts, 99);
  const ok = target && p95 <= target.p95 && (target.p99 === undefined || p99 <= target.p99);
  console.log(
    `  ${label.padEnd(28)} p50 ${ms(percentile(ts, 50)).padStart(9)}  p95 ${ms(p95).padStart(9)}  p99 ${ms(p99).padStart(9)}` +
      (target
        ? `  ${verdict(!!ok, `p95 ≤ ${target.p95}${target.p99 ? `, p99 ≤ ${target.p99}` : ''} ms`)}`
        : ''),
  );
}

/** Resolves once the server at `url` says it is ready (its demo data and search warm-up done). */
async function untilReady(url: string): Promise<void> {
  for (let i = 0; (await fetch(`${url}/readyz`)).status !== 200; i++) {
    if (i > 6000) throw new Error(`${url} never got ready`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function benchApiLoad(): Promise<void> {
  for (const leg of legs()) {
    console.log(`\n-- ${leg.name}${SMALL ? ' (demo data)' : ''}`);
    // The first start may add the demo staff to a database filled only by seed:scale (or make the
    // demo data of BENCH_LOAD_SMALL); time the second.
    const first = await startServer({
      port: PORT,
      dataDir: leg.dataDir,
      env: { ...leg.env, DEMO_PASSWORD: PASSWORD },
      built: true,
    });
    // Stopped before its demo data is in, the first start would leave it to the restart, which
    // does not know the password: wait until the server says it is ready.
    await untilReady(first.url);
    await first.stop();
    const { uids, cases } = await sample(leg);
    const server = await startServer({ port: PORT, dataDir: leg.dataDir, env: leg.env, built: true });
    let got: Awaited<ReturnType<typeof getOneObject>> | undefined;
    try {
      const pid = server.proc.pid!;
      console.log(
        `restart on ${SMALL ? 'the demo data' : '1M customers'}: ${ms(server.readyMs)} to the first answer, ${memoryMb(pid).rss.toFixed(0)} MB resident  ` +
          verdict(server.readyMs <= 1500, '≤ 1.5 s'),
      );
      // The load starts once the search warm-up that follows the first answer has ended.
      await untilReady(server.url);
      const headers = await signIn(server.url, EMAIL, PASSWORD);
      if (part('get')) got = await getOneObject(server, headers, uids, leg);
      if (part('signin')) await maxSignIns(server);
      if (part('signin')) await signInBurstWithSearch(server, headers, cases);
      if (part('search')) await searchThroughHttp(server, headers, cases);
      const mem = memoryMb(pid);
      console.log(
        `resident memory: ${mem.rss.toFixed(0)} MB now, ${mem.peak.toFixed(0)} MB peak  ${verdict(mem.peak < 600, '< 600 MB')}`,
      );
    } finally {
      await server.stop();
    }
    if (got) await getWithQueryFloors(leg, got, uids);
  }
}
