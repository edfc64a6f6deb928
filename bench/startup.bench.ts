import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { nodeRuntime } from '../scripts/node-runtime.mjs';
import { freshDir, ROOT, sleep, startServer } from './support.ts';

/*
 * Starts, each beside its floors measured in the same run (the machine is shared: the ratios are
 * the figures, with the load average printed beside them):
 *   - the API's restart on an existing database (`node apps/api/src/main.ts`, as npm start runs
 *     it): to its first answer, to /readyz 200 (the warm-up done), its CPU, its resident memory at
 *     the first answer and its peak;
 *   - floors: an idle node process (start to its first line, resident memory), a bare Fastify
 *     (start to its first answer), PGlite opened alone on the same data directory (open and
 *     SELECT 1; resident memory after, and its peak);
 *   - `npm start` as a person runs it: on an empty data directory and again on it.
 * Databases: the demo data (a fresh directory); BENCH_STARTUP_PGLITE_DIRS, a comma-separated list
 * of DATA_DIRs filled by `seed:scale` (restart against size); BENCH_DATABASE_URL, an empty
 * PostgreSQL database the first start fills with the demo data (the restart then timed).
 * BENCH_STARTUP_RUNS (default 3): runs of each, medians printed.
 */

const PORT = 3950;
const FLOOR_PORT = 3951;
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
const TARGET_DEMO_MS = 1500;
const TARGET_1M_MS = 2000;
const NODE = nodeRuntime().node;

/** CPU ms (user + system) of a process and its descendants so far, from /proc (Linux). */
function treeCpuMs(pid: number): number {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let total = 0;
  const visit = (p: number) => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tick; // utime, stime
      for (const t of fs.readdirSync(`/proc/${p}/task`)) {
        const children = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        for (const c of children ? children.split(' ') : []) visit(Number(c));
      }
    } catch {
      // gone
    }
  };
  visit(pid);
  return total;
}

/**
 * CPU ms of a process's main thread (its event loop) so far: what a start waits for on a quiet
 * machine, apart from the background threads (V8's compilers, libuv's pool) that take other cores.
 */
function mainThreadCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Resident memory of a process now and at its peak, in MB (Linux /proc). */
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (n: number) => `${n.toFixed(0)} MB`;
const times = (a: number, floor: number) => `×${(a / floor).toFixed(1)}`;
const load = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (${os.availableParallelism()} cores)`;

interface ProcessRun {
  /** From the spawn to its first line on stdout (or its first answer, for a server). */
  ms: number;
  rss: number;
  peak: number;
  /** What the process said of itself (JSON on its first line), when it says something. */
  said: Record<string, number>;
}

/**
 * Runs `code` (an ES module) in a new node process on the API's runtime; resolves when it prints
 * its first line, with its memory then. The process is then ended.
 */
async function nodeFloor(code: string, env: Record<string, string> = {}): Promise<ProcessRun> {
  const started = performance.now();
  const proc = spawn(NODE, ['--input-type=module', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    proc.once('exit', (code) => reject(new Error(`floor process exited (${code}) before its line: ${out}`)));
  });
  const ms = performance.now() - started;
  const mem = memoryMb(proc.pid!);
  await stop(proc);
  return { ms, ...mem, said: JSON.parse(line) as Record<string, number> };
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

/** An idle node process: its start to its first line, and its memory then. */
const idleNode = () => nodeFloor(`console.log('{}'); setInterval(() => {}, 1000);`);

/**
 * A bare Fastify: one route, no plugins; from the spawn to its first answer (the parent asks, as
 * it asks the API).
 */
async function bareFastify(): Promise<ProcessRun> {
  const started = performance.now();
  const proc = spawn(
    NODE,
    [
      '--input-type=module',
      '-e',
      `import Fastify from 'fastify';
       const app = Fastify();
       app.get('/livez', async () => ({ status: 'ok' }));
       await app.listen({ port: ${FLOOR_PORT}, host: '127.0.0.1' });`,
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error('bare Fastify exited');
      try {
        if ((await fetch(`http://127.0.0.1:${FLOOR_PORT}/livez`)).ok) break;
      } catch {
        // not yet
      }
      await sleep(10);
    }
    return { ms: performance.now() - started, ...memoryMb(proc.pid!), said: {} };
  } finally {
    await stop(proc);
  }
}

/**
 * PGlite opened alone on `dir` (DATA_DIR/pglite) with the API's extension, then SELECT 1: the
 * floor of the embedded database's share of a restart. Memory a moment after (its peak is
 * reached by V8 compiling PostgreSQL's hottest functions in the background).
 */
const pgliteAlone = (dir: string) =>
  nodeFloor(
    `import { PGlite } from '@electric-sql/pglite';
     import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
     const t0 = performance.now();
     const pg = await PGlite.create({ dataDir: ${JSON.stringify(path.join(dir, 'pglite'))}, extensions: { pg_trgm } });
     await pg.query('SELECT 1');
     const openMs = performance.now() - t0;
     await new Promise((r) => setTimeout(r, 1000));
     console.log(JSON.stringify({ openMs }));
     setInterval(() => {}, 1000);`,
  );

interface Restart {
  firstMs: number;
  readyMs: number;
  cpuMs: number;
  mainCpuMs: number;
  rss: number;
  peak: number;
  line: string;
}

/** The API restarted on `dataDir` (and DATABASE_URL in `env`): first answer, ready, memory. */
async function restart(dataDir: string, env: Record<string, string>): Promise<Restart> {
  const spawned = performance.now();
  const server = await startServer({ port: PORT, dataDir, env, built: true });
  try {
    const pid = server.proc.pid!;
    const cpuMs = treeCpuMs(pid);
    const mainCpuMs = mainThreadCpuMs(pid);
    const { rss } = memoryMb(pid);
    while (!(await fetch(`${server.url}/readyz`)).ok) await sleep(10);
    const readyMs = performance.now() - spawned;
    while (!/Ready in .*/.test(server.output())) await sleep(10);
    await sleep(1000); // the peak includes what the first second after ready still compiles
    const line = /Ready in .*/.exec(server.output())![0];
    return { firstMs: server.readyMs, readyMs, cpuMs, mainCpuMs, rss, peak: memoryMb(pid).peak, line };
  } finally {
    await server.stop();
  }
}

/** Medians of `runs` restarts of one database, interleaved with its floors. */
async function restartLeg(name: string, dataDir: string, env: Record<string, string>, targetMs?: number) {
  const rows: Restart[] = [];
  const idle: ProcessRun[] = [];
  const bare: ProcessRun[] = [];
  const alone: ProcessRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    idle.push(await idleNode());
    bare.push(await bareFastify());
    if (!env.DATABASE_URL) alone.push(await pgliteAlone(dataDir));
    rows.push(await restart(dataDir, env));
  }
  const m = (f: (r: Restart) => number) => median(rows.map(f));
  const first = m((r) => r.firstMs);
  const idleMs = median(idle.map((r) => r.ms));
  const bareMs = median(bare.map((r) => r.ms));
  console.log(`\n-- ${name}   ${load()}`);
  console.log(
    `floors: idle node ${s(idleMs)} ${mb(median(idle.map((r) => r.rss)))};  bare Fastify to its first answer ${s(bareMs)} ${mb(median(bare.map((r) => r.rss)))}` +
      (alone.length
        ? `;  PGlite alone on this directory: open + SELECT 1 ${s(median(alone.map((r) => r.said.openMs!)))} (process ${s(median(alone.map((r) => r.ms)))}), ${mb(median(alone.map((r) => r.rss)))} resident, ${mb(median(alone.map((r) => r.peak)))} peak`
        : ''),
  );
  console.log(
    `restart to the first answer ${s(first)} (${times(first, bareMs)} bare Fastify, ${times(first, idleMs)} idle node; CPU ${s(m((r) => r.cpuMs))}, of its main thread ${s(m((r) => r.mainCpuMs))}), /readyz 200 (warm-up done) ${s(m((r) => r.readyMs))}` +
      (targetMs ? `  ${first <= targetMs ? 'met' : 'MISSED'} (≤ ${s(targetMs)})` : ''),
  );
  const rss = m((r) => r.rss);
  const peak = m((r) => r.peak);
  console.log(
    `resident memory at the first answer ${mb(rss)}, peak ${mb(peak)}` +
      (alone.length
        ? ` (PGlite alone ${mb(median(alone.map((r) => r.rss)))} / ${mb(median(alone.map((r) => r.peak)))}: ×${(rss / median(alone.map((r) => r.rss))).toFixed(1)} / ×${(peak / median(alone.map((r) => r.peak))).toFixed(1)})`
        : '') +
      `; idle node ${mb(median(idle.map((r) => r.rss)))}  ${peak < 600 ? 'met' : 'MISSED'} (peak < 600 MB)`,
  );
  console.log(`server's own line (last run): ${rows.at(-1)!.line}`);
}

interface NpmStart {
  servedMs: number;
  cpuMs: number;
  signInMs: number;
  output: string;
}

/**
 * `npm start` as a person runs it (its own process group, ended by group id), on `dataDir`.
 * servedMs: the sign-in screen is served (GET /login answers the console page and its script
 * file loads); signInMs: a demo sign-in succeeds; cpuMs: CPU of the whole process tree when served.
 */
async function npmStart(dataDir: string): Promise<NpmStart> {
  const started = performance.now();
  const proc: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_PASSWORD: 'Bench#Pass1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout?.on('data', (d) => {
    output += d;
  });
  proc.stderr?.on('data', (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${PORT}`;
  try {
    let servedMs = 0;
    let cpuMs = 0;
    while (!servedMs) {
      if (proc.exitCode !== null) throw new Error(`npm start exited: ${output}`);
      try {
        const page = await fetch(`${url}/login`);
        const html = await page.text();
        const script = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
        if (page.ok && script && (await fetch(`${url}${script}`)).ok) {
          servedMs = performance.now() - started;
          cpuMs = treeCpuMs(proc.pid!);
        }
      } catch {
        // not yet
      }
      if (!servedMs) await sleep(20);
    }
    for (;;) {
      const r = await fetch(`${url}/admin/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'Bench#Pass1' }),
      });
      if (r.ok) break;
      await sleep(20);
    }
    return { servedMs, cpuMs, signInMs: performance.now() - started, output };
  } finally {
    await new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once('exit', () => resolve());
      process.kill(-proc.pid!, 'SIGTERM');
    });
  }
}

/**
 * The restart legs, then a fresh `npm start` (after install and build: an empty data directory,
 * so migrations and demo data run) and restarts on the existing directory. The build steps
 * (console, PGlite template) run once first, untimed, as a first `npm start` after `npm ci` does.
 */
export async function benchStartup(): Promise<void> {
  const t0 = performance.now();
  const warm = await npmStart(freshDir('startup-build'));
  const built = /Building|Preparing/.test(warm.output);
  console.log(`build steps of the first npm start: ${built ? s(performance.now() - t0) : 'already done'}`);
  console.log(
    `median of ${RUNS}; wall clock from the spawn; CPU of the process (all its threads) and of its main thread`,
  );

  const demo = freshDir('startup-demo');
  await (await startServer({ port: PORT, dataDir: demo, built: true })).stop(); // the first start
  await restartLeg('PGlite, demo data (about 300 customers)', demo, {}, TARGET_DEMO_MS);
  for (const dir of (process.env.BENCH_STARTUP_PGLITE_DIRS ?? '').split(',').filter(Boolean)) {
    const full = path.resolve(ROOT, dir);
    const customers = await countCustomers(full);
    await restartLeg(
      `PGlite, ${customers.toLocaleString('en')} customers (${dir})`,
      full,
      {},
      customers >= 1_000_000 ? TARGET_1M_MS : undefined,
    );
  }
  const url = process.env.BENCH_DATABASE_URL;
  if (url) {
    const dir = freshDir('startup-pg');
    await (await startServer({ port: PORT, dataDir: dir, env: { DATABASE_URL: url }, built: true })).stop();
    await restartLeg('PostgreSQL (BENCH_DATABASE_URL)', dir, { DATABASE_URL: url });
  } else
    console.log('\nPostgreSQL: skipped — set BENCH_DATABASE_URL to a database (the first start fills it)');

  const fresh: NpmStart[] = [];
  const again: NpmStart[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = freshDir(`startup-${i}`);
    fresh.push(await npmStart(dir));
    again.push(await npmStart(dir));
  }
  const row = (name: string, runs: NpmStart[]) =>
    console.log(
      `${name.padEnd(34)} sign-in screen served ${s(median(runs.map((r) => r.servedMs))).padStart(7)} (CPU ${s(median(runs.map((r) => r.cpuMs)))}), demo sign-in works ${s(median(runs.map((r) => r.signInMs)))}`,
    );
  console.log(`\n-- npm start, as a person runs it   ${load()}`);
  row('npm start, empty data directory:', fresh);
  row('npm start, existing data directory:', again);
}

/** The customers in a PGlite DATA_DIR, read by a process of its own (the server is not running). */
async function countCustomers(dataDir: string): Promise<number> {
  const r = await nodeFloor(
    `import { PGlite } from '@electric-sql/pglite';
     const pg = await PGlite.create({ dataDir: ${JSON.stringify(path.join(dataDir, 'pglite'))} });
     const n = (await pg.query('SELECT count(*)::int AS n FROM customers')).rows[0].n;
     console.log(JSON.stringify({ n }));
     setInterval(() => {}, 1000);`,
  );
  return r.said.n!;
}
