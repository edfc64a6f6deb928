import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { freshDir, ROOT } from './support.ts';

const PORT = 3941;
const RUNS = 3;
const TARGET_MS = 5000;

/** CPU seconds (user + system) of a process and its descendants so far, from /proc (Linux). */
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

interface Start {
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
async function npmStart(dataDir: string): Promise<Start> {
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
      if (!servedMs) await new Promise((r) => setTimeout(r, 20));
    }
    for (;;) {
      const r = await fetch(`${url}/admin/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
        body: JSON.stringify({ email: 'admin@example.com', password: 'Bench#Pass1' }),
      });
      if (r.ok) break;
      await new Promise((res) => setTimeout(res, 20));
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * A fresh `npm start` (after install and build: an empty data directory, so migrations and demo
 * data run), then restarts on the existing directory. The build steps (console, API bundle,
 * PGlite template) run once first, untimed, as a first `npm start` after `npm ci` does.
 */
export async function benchStartup(): Promise<void> {
  const t0 = performance.now();
  const warm = await npmStart(freshDir('startup-build'));
  const built = /Building|Preparing/.test(warm.output);
  console.log(`build steps of the first npm start: ${built ? s(performance.now() - t0) : 'already done'}`);

  const fresh: Start[] = [];
  const restart: Start[] = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = freshDir(`startup-${i}`);
    fresh.push(await npmStart(dir));
    restart.push(await npmStart(dir));
  }
  const row = (name: string, runs: Start[]) =>
    console.log(
      `${name.padEnd(34)} sign-in screen served ${s(median(runs.map((r) => r.servedMs))).padStart(7)} (CPU ${s(median(runs.map((r) => r.cpuMs)))}), demo sign-in works ${s(median(runs.map((r) => r.signInMs)))}`,
    );
  console.log(`median of ${RUNS}, wall clock from spawning npm start; CPU of its whole process tree`);
  row('npm start, empty data directory:', fresh);
  row('npm start, existing data directory:', restart);
  const served = median(fresh.map((r) => r.servedMs));
  console.log(
    `target: a fresh npm start serves the sign-in screen in ≤ ${s(TARGET_MS)}: ${served <= TARGET_MS ? 'met' : 'NOT met'} (${s(served)})`,
  );
}
