import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from '@playwright/test';
import { loadConfig } from '../apps/api/src/config.ts';
import { type Db, openPostgres, type Queryable } from '../apps/api/src/db/db.ts';
import { openConfiguredDb } from '../apps/api/src/db/open.ts';
import { nodeRuntime } from '../scripts/node-runtime.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Server {
  url: string;
  proc: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Builds what `npm start` builds when missing or stale (the console, the database template). */
let built = false;
function buildAsNpmStart(): void {
  if (built) return; // once per bench run: sources do not change under it
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/start.mjs'), '--build-only'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('npm start could not build the console or the database template');
  built = true;
}

/** Starts the real API (as `npm start` runs it) on a fresh data directory; resolves when it answers. */
export async function startServer(opts: {
  port: number;
  dataDir: string;
  env?: Record<string, string>;
  /** Build what `npm start` builds first, when stale (the server itself always runs as it does). */
  built?: boolean;
}): Promise<Server & { readyMs: number }> {
  if (opts.built) buildAsNpmStart();
  const started = performance.now();
  let out = '';
  const proc = spawn(nodeRuntime().node, [path.join(ROOT, 'apps/api/src/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(opts.port),
      HOST: '127.0.0.1',
      DATA_DIR: opts.dataDir,
      // The default log level, as `npm start` runs: request logging is part of what users pay.
      // the benches sign in as the demo staff, on PostgreSQL too
      DEMO_DATA: '1',
      // the benches sign in with a password alone; auth-latency sets up second factors itself
      STAFF_MFA: 'optional',
      // a bench signs in once and may export an hour later: it measures the work, not the step-up
      STEP_UP_MINUTES: '720',
      // the demo staff's password on every bench's databases, whichever bench starts one first
      DEMO_PASSWORD: 'Bench#Pass1',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The log of a load run is large: only its last 256 KiB is kept (the banner is read at start).
  const keep = (d: Buffer | string) => {
    out += d;
    if (out.length > 512 * 1024) out = out.slice(-256 * 1024);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${opts.port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      const r = await fetch(`${url}/runtime-config.json`);
      if (r.ok) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const readyMs = performance.now() - started;
  return {
    url,
    proc,
    readyMs,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/** A bench's PostgreSQL database: the name given by env, else the bench's own; a plain identifier. */
export function databaseName(given: string | undefined, fallback: string): string {
  const name = given || fallback;
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  return name;
}

/**
 * A new, empty database `name` on the server of `url` (dropped first if an earlier run left it);
 * answers its URL. For a leg that changes the staff (factors, lockouts), so that the databases
 * other benches share stay as seeded.
 */
export async function freshDatabase(url: string, name: string): Promise<string> {
  const db = databaseName(name, name);
  const admin = await openPostgres(url, 1);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${db}`);
  } finally {
    await admin.close();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${db}`;
  return fresh.toString();
}

export function freshDir(name: string): string {
  const dir = path.join(ROOT, '.tmp', 'bench', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Debian's Chromium (CHROMIUM_PATH to override), launched with the flags this machine needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const JSON_CALL = { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/json' };

/** Signs a staff member in with a password; answers the headers of their calls (session pair and all). */
export async function signIn(url: string, email: string, password: string): Promise<Record<string, string>> {
  const r = await fetch(`${url}/admin/login`, {
    method: 'POST',
    headers: JSON_CALL,
    body: JSON.stringify({ email, password }),
  });
  if (!r.ok) throw new Error(`sign-in of ${email}: ${r.status} ${await r.text()}`);
  const { xtoken, xsign } = (await r.json()) as { xtoken: string; xsign: string };
  return { ...JSON_CALL, xtoken, xsign };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `code` (an ES module) in a node process of its own, in apps/api (so that it imports what
 * the API imports), and answers the JSON of the last line it prints.
 */
export async function runModuleForJson<T>(code: string, what: string): Promise<T> {
  const text = await new Promise<string>((resolve, reject) => {
    const child = spawn(nodeRuntime().node, ['--input-type=module', '-e', code], {
      cwd: path.join(ROOT, 'apps/api'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    child.once('error', reject);
    child.once('exit', (c) => (c === 0 ? resolve(out) : reject(new Error(`${what} exited ${c}`))));
  });
  return JSON.parse(text.trim().split('\n').pop()!) as T;
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;

/**
 * Staff trail events numbered `from` to `to`, as the benches fill the trail: 40 actors, 10,000
 * customers and their sites, eight of the usual actions; event n at `atOf`, SQL of n (fixed text
 * of the bench's). Written in statements of 100,000 events.
 */
export async function insertTrailEvents(
  db: Queryable,
  from: number,
  to: number,
  atOf: string,
): Promise<void> {
  for (let lo = from; lo <= to; lo += 100_000) {
    await db.query(
      `INSERT INTO activity_log (at, actor_email, action, target_type, target_id, client_address, details,
                                 request_id, customer_uid, app_id)
       SELECT ${atOf},
              'staff' || (n % 40) || '@example.com',
              (ARRAY['login.success','login.failed','site.security','customer.profile.update','site.appsettings',
                     'team.roles','site.customobject.create','logout'])[1 + n % 8],
              'customer', c.uid::text, '10.' || (n % 250) || '.' || (n % 199) || '.7',
              jsonb_build_object('appId', 1000 + n % 10000, 'n', n),
              md5(n::text), c.uid, 1000 + n % 10000
         FROM generate_series($1::int, $2::int) n,
              LATERAL (SELECT (lpad(to_hex(n % 10000), 8, '0') || '-0000-4000-8000-000000000000')::uuid AS uid) c`,
      [lo, Math.min(to, lo + 99_999)],
    );
  }
}

/** CPU milliseconds a process has used (user + system, from /proc; 0 when it is gone). */
export function cpuMsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks of 10 ms
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Runs a bench on a fresh embedded database, then on a fresh PostgreSQL database (skipped, said so,
 * when none answers); `engines` ('pglite' or 'postgres', from the bench's own variable) keeps one.
 * The PostgreSQL database is `database` (a bench's own variable, for runs side by side on one
 * server), or sac_bench_<name>.
 */
export async function onBothEngines(
  name: string,
  engines: string | undefined,
  run: (engine: 'PGlite' | 'PostgreSQL', db: Db) => Promise<void>,
  database?: string,
): Promise<void> {
  if (engines !== 'postgres') {
    const db = await openConfiguredDb(loadConfig({ DATA_DIR: freshDir(name) }));
    try {
      await run('PGlite', db);
    } finally {
      await db.close();
    }
  }
  if (engines === 'pglite') return;
  const base = process.env.BENCH_TRAIL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  let url: string;
  try {
    url = await freshDatabase(base, databaseName(database, `sac_bench_${name.replaceAll('-', '_')}`));
  } catch (e) {
    console.log(`PostgreSQL: skipped — ${(e as Error).message} at ${base}`);
    return;
  }
  const db = await openConfiguredDb(loadConfig({ DATABASE_URL: url, DATA_DIR: freshDir(`${name}-pg`) }));
  try {
    await run('PostgreSQL', db);
  } finally {
    await db.close();
  }
}
