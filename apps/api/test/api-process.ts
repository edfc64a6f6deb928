import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ENDPOINTS, type EndpointId } from '@sac/contract/endpoints';
import { toQueryString } from '@sac/contract/query-string';
import { nodeRuntime } from '../../../scripts/node-runtime.mjs';
import { REPO_ROOT } from '../src/config.ts';

/**
 * The Node the API runs on, as npm start runs it: its TypeScript stripped by Node 24 (a pinned one
 * when the tests run on an older Node).
 */
export const API_NODE = nodeRuntime().node;

/** A real API process (`node apps/api/src/main.ts` on API_NODE), as production runs it. */
export interface ApiProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** From the spawn to the first answer (or the 'Ready in' line). */
  readyMs: number;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code once it has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, wait for the exit; removes the data directory it made. */
  stop(): Promise<number | null>;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Ports fetch() refuses to connect to (the Fetch standard's "bad ports") in the ranges tests use. */
const FETCH_BLOCKED_PORTS = new Set([4045, 4190]);

/**
 * A free port in base…base+99, starting from a place that differs between processes, never one
 * fetch() refuses. Ports in `handedOut` are skipped and the one returned is added to it, for
 * callers that start several servers at once.
 */
export async function freePort(base = 4200, handedOut = new Set<number>()): Promise<number> {
  const start = (process.pid * 7 + Math.floor(Math.random() * 100)) % 100;
  for (let i = 0; i < 100; i++) {
    const port = base + ((start + i) % 100);
    if (FETCH_BLOCKED_PORTS.has(port) || handedOut.has(port)) continue;
    handedOut.add(port);
    if (await portFree(port)) return port;
  }
  throw new Error(`no free port in ${base}–${base + 99}`);
}

/**
 * How long a test waits on a process's own sign (a line, an answer, an exit) before it calls the
 * process hung: far beyond a start on a machine whose cores are all busy, which is a few seconds
 * idle and about 30 s loaded. A healthy process never costs this; it is only a bound.
 */
export const PROCESS_WAIT_MS = 120_000;
/** The timeout of a test that starts a process and waits on it, twice over. */
export const PROCESS_TEST_MS = 2 * PROCESS_WAIT_MS;

/** Resolves once `done()` holds, looking every `everyMs`; throws naming `what` after `timeoutMs`. */
export async function until(
  done: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = PROCESS_WAIT_MS,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export interface StartOptions {
  readyTimeoutMs?: number;
  /** Wait for the 'Ready in' line (demo data in) instead of the first /livez answer. */
  untilReady?: boolean;
  /** The port range and the ports already handed out (see freePort). */
  portBase?: number;
  handedOut?: Set<number>;
}

/**
 * Starts the API with `env` on a free port and resolves once it answers /livez (or, with
 * `untilReady`, once it printed that it is ready). Without DATA_DIR in `env` it gets a data
 * directory of its own, which stop() removes; a DATA_DIR given is the caller's and stays.
 */
/** Spawns `node apps/api/src/main.ts` on `port` with the tests' environment and `env`. */
function spawnApi(env: Record<string, string>, port: number, dataDir: string) {
  const child = spawn(API_NODE, ['apps/api/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-console'),
      DNS_SERVERS: '127.0.0.1:9',
      LOG_LEVEL: 'warn',
      // the process tests sign in as the demo staff, on PostgreSQL too (first-start.test.ts
      // starts without it, as production does)
      DEMO_DATA: '1',
      // the process tests sign in with a password alone
      STAFF_MFA: 'optional',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Runs the API with `env` (DATA_DIR included) until it exits by itself: its exit code and output. */
export async function runApiToExit(
  env: Record<string, string> & { DATA_DIR: string },
  opts: { portBase?: number; handedOut?: Set<number> } = {},
): Promise<{ code: number | null; output: string }> {
  const { output, exited } = spawnApi(env, await freePort(opts.portBase, opts.handedOut), env.DATA_DIR);
  const code = await exited;
  return { code, output: output() };
}

export async function startApi(env: Record<string, string>, opts: StartOptions = {}): Promise<ApiProcess> {
  const { readyTimeoutMs = PROCESS_WAIT_MS, untilReady = false } = opts;
  const port = await freePort(opts.portBase, opts.handedOut);
  const ownDir =
    env.DATA_DIR === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'sac-api-process-')) : undefined;
  const dataDir = env.DATA_DIR ?? ownDir!;
  const started = Date.now();
  const { child, output, exited } = spawnApi(env, port, dataDir);
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const answers = async () => {
    if (untilReady) return /Ready in \d+ ms/.test(output());
    try {
      return (await fetch(`${url}/livez`)).ok;
    } catch {
      return false; // not listening yet
    }
  };
  while (!(await answers())) {
    if (gone) throw new Error(`the API process exited while starting:\n${output()}`);
    if (Date.now() - started > readyTimeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`the API process did not answer within ${readyTimeoutMs} ms:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, untilReady ? 25 : 100));
  }
  return {
    url,
    port,
    child,
    readyMs: Date.now() - started,
    output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (ownDir) fs.rmSync(ownDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** A call of the endpoint `id` as the console makes it (method and path from the contract). */
export function apiCall(
  base: string,
  id: EndpointId,
  opts: {
    query?: Record<string, string>;
    body?: unknown;
    session?: { xtoken: string; xsign: string };
    headers?: Record<string, string>;
  } = {},
): Promise<Response> {
  const { method, path: route } = ENDPOINTS[id];
  return fetch(`${base}${route}${toQueryString(opts.query)}`, {
    method,
    headers: {
      'X-Requested-With': 'XMLHttpRequest',
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(opts.session ? { xtoken: opts.session.xtoken, xsign: opts.session.xsign } : {}),
      ...opts.headers,
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
}

/** The value of one sample of a Prometheus text, 0 when absent. */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}
