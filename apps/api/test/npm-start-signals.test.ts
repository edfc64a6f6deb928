import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { freePort, until } from './api-process.ts';

/**
 * What a container runtime does: `npm start` as the started process, then SIGTERM to exactly that
 * process. Every process it started must drain and exit (the server logs 'shut down'), npm with
 * 0, and the port must be free. A second `npm start` on the same data directory meanwhile says
 * so in one line and exits 1. Process-level, so it runs once, in the PGlite leg.
 */
const postgresLeg = process.env.TEST_DB === 'postgres';
let npm: ChildProcess | undefined;
afterAll(() => {
  if (npm && npm.exitCode === null) npm.kill('SIGKILL');
});

/** Every process below `pid`, from /proc (Linux). */
function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const children = new Map<number, number[]>();
  for (const line of out.trim().split('\n')) {
    const [p, pp] = line.trim().split(/\s+/).map(Number);
    children.set(pp!, [...(children.get(pp!) ?? []), p!]);
  }
  const all: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      all.push(c);
      walk(c);
    }
  };
  walk(pid);
  return all;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

describe.skipIf(postgresLeg || os.platform() !== 'linux')('npm start and signals', () => {
  it('SIGTERM to the npm process drains the server, ends every process it started and exits 0', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-npm-start-'));
    const port = await freePort(4400);
    let out = '';
    try {
      npm = spawn('npm', ['start'], {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DEMO_PASSWORD: 'Npm#Start-2026',
          SEARCH_WARM_UP_MS: '0',
          DOMAIN_RECHECK_MINUTES: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      npm.stdout!.on('data', (d) => {
        out += d;
      });
      npm.stderr!.on('data', (d) => {
        out += d;
      });
      const started = Date.now();
      while (!/Ready in/.test(out)) {
        if (npm.exitCode !== null) throw new Error(`npm start ended: ${out}`);
        if (Date.now() - started > 240_000) throw new Error(`not ready: ${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await portAnswers(port)).toBe(true);

      // A second `npm start` on the same data directory: the one line, and a non-zero exit.
      const second = spawn('npm', ['start'], {
        cwd: REPO_ROOT,
        env: { ...process.env, PORT: String(await freePort(4400)), HOST: '127.0.0.1', DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let secondOut = '';
      second.stdout!.on('data', (d) => {
        secondOut += d;
      });
      second.stderr!.on('data', (d) => {
        secondOut += d;
      });
      const secondCode = await new Promise<number | null>((resolve) => second.once('exit', resolve));
      expect(secondCode, secondOut).toBe(1);
      // npm's own banner (`> @sac/… start`, `> exec node scripts/start.mjs`) aside
      const said = secondOut.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('> '));
      expect(said).toEqual([
        expect.stringMatching(/^The embedded database is in use by another process \(pid \d+\)/),
      ]);

      const below = descendants(npm.pid!);
      expect(below.length).toBeGreaterThan(0);
      const exited = new Promise<number | null>((resolve) => npm!.once('exit', (code) => resolve(code)));
      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      // the server drained and said so, and nothing it started lives on (a moment for the kernel
      // to reap what ended with it)
      expect(out).toMatch(/shut down/);
      await until(() => !below.some(alive), `the processes npm start started (${below.join(', ')}) ended`);
      expect(await portAnswers(port)).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
