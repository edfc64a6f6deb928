import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { restrictDataDir } from '../src/lib/private-data-dir.ts';
import { API_NODE, PROCESS_TEST_MS, PROCESS_WAIT_MS, runApiToExit, startApi, until } from './api-process.ts';

/**
 * The embedded database, the outbox and the other files in DATA_DIR belong to the
 * server's user alone: directories 0700, files 0600, whatever the umask it was started with and
 * whatever modes an older version left.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-modes-'));
  dirs.push(d);
  return d;
};

const modeOf = (p: string) => fs.lstatSync(p).mode & 0o777;

/** Every entry under `dir` (itself included) that is not 0700 (directories) or 0600 (files). */
function loose(dir: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) return;
    const want = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o777) !== want)
      out.push(`${path.relative(dir, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
  };
  walk(dir);
  return out;
}

describe('restrictDataDir', () => {
  it('makes directories 0700 and files 0600, and leaves what symbolic links point at alone', () => {
    const dir = tmp();
    const outside = tmp();
    fs.mkdirSync(path.join(dir, 'pglite', 'base'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'outbox'));
    fs.writeFileSync(path.join(dir, 'pglite', 'base', '1'), 'x');
    fs.writeFileSync(path.join(dir, 'outbox', 'a.eml'), 'x');
    fs.writeFileSync(path.join(dir, 'csp-violations.ndjson'), 'x');
    fs.writeFileSync(path.join(outside, 'shared'), 'x');
    fs.symlinkSync(path.join(outside, 'shared'), path.join(dir, 'link'));
    for (const p of ['', 'pglite', 'pglite/base', 'outbox']) fs.chmodSync(path.join(dir, p), 0o777);
    for (const p of ['pglite/base/1', 'outbox/a.eml', 'csp-violations.ndjson'])
      fs.chmodSync(path.join(dir, p), 0o666);
    fs.chmodSync(path.join(outside, 'shared'), 0o644);

    const changed = restrictDataDir(dir);
    expect(loose(dir)).toEqual([]);
    expect(changed).toBe(7);
    expect(modeOf(path.join(outside, 'shared'))).toBe(0o644);
    expect(restrictDataDir(dir)).toBe(0);
  });

  it('does nothing for a directory that does not exist', () => {
    expect(restrictDataDir(path.join(tmp(), 'none'))).toBe(0);
  });
});

// A real start on the embedded database; the PostgreSQL leg has no DATA_DIR database to look at.
describe.skipIf(inject('testDb') !== 'pglite')('a real start of the server', () => {
  it(
    'leaves DATA_DIR, its database, outbox and records readable by the server user only',
    async () => {
      const dataDir = tmp();
      // what an older version left: an outbox message and the directory open to everyone
      fs.mkdirSync(path.join(dataDir, 'outbox'));
      fs.writeFileSync(path.join(dataDir, 'outbox', 'old.eml'), 'x');
      fs.chmodSync(path.join(dataDir, 'outbox', 'old.eml'), 0o666);
      fs.chmodSync(path.join(dataDir, 'outbox'), 0o777);
      fs.chmodSync(dataDir, 0o777);
      // started with a umask that would make new files 0666
      const umask = process.umask(0);
      let api: Awaited<ReturnType<typeof startApi>>;
      try {
        api = await startApi(
          { DATA_DIR: dataDir, SEARCH_WARM_UP_MS: '0' },
          { untilReady: true, readyTimeoutMs: PROCESS_WAIT_MS },
        );
      } finally {
        process.umask(umask);
      }
      try {
        const r = await fetch(`${api.url}/csp-report`, {
          method: 'POST',
          headers: { 'content-type': 'application/csp-report' },
          body: JSON.stringify({ 'csp-report': { 'effective-directive': 'img-src', 'blocked-uri': 'data' } }),
        });
        expect(r.status).toBe(204);
        const forgot = await fetch(`${api.url}/admin/forgotpassword`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
          body: JSON.stringify({ email: 'admin@example.com', url: `${api.url}/login` }),
        });
        expect(forgot.status).toBe(200);
        const outbox = path.join(dataDir, 'outbox');
        await until(
          () => fs.existsSync(outbox) && fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')).length >= 2,
          'the reset mail in the outbox',
        );
        expect(fs.existsSync(path.join(dataDir, 'csp-violations.ndjson'))).toBe(true);
        expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
        expect(fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')).length).toBeGreaterThanOrEqual(2);
        expect(loose(dataDir)).toEqual([]);
      } finally {
        await api.stop();
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'a second server on a data directory in use says so in one line and exits non-zero',
    async () => {
      const dataDir = tmp();
      const first = await startApi(
        { DATA_DIR: dataDir, SEARCH_WARM_UP_MS: '0' },
        { readyTimeoutMs: PROCESS_WAIT_MS },
      );
      try {
        const second = await runApiToExit({ DATA_DIR: dataDir, SEARCH_WARM_UP_MS: '0' });
        expect(second.code).not.toBe(0);
        expect(second.code).not.toBeNull();
        const lines = second.output.split('\n').filter((l) => l.trim() !== '');
        expect(lines).toEqual([
          `The embedded database is in use by another process (pid ${first.child.pid}); lock file ${path.join(dataDir, 'pglite.lock')}. Stop that process, or set DATA_DIR or DATABASE_URL.`,
        ]);
        // the commands that open the database (npm run migrate, seed, create-admin) say the same
        for (const cli of ['db/migrate-cli.ts', 'seed/seed-cli.ts', 'ops/create-admin-cli.ts']) {
          const run = await runToExit(cli, dataDir);
          expect(run.code, cli).toBe(1);
          expect(
            run.output.split('\n').filter((l) => l.trim() !== ''),
            cli,
          ).toEqual(lines);
        }
        // the first one serves on, its lock kept
        expect((await fetch(`${first.url}/livez`)).status).toBe(200);
        expect(fs.readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(first.child.pid));
      } finally {
        await first.stop();
      }
    },
    PROCESS_TEST_MS,
  );
});

/** Runs one of the API's commands (apps/api/src/<cli>) on `dataDir` to its end: its exit code and output. */
function runToExit(cli: string, dataDir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(API_NODE, [`apps/api/src/${cli}`, 'cli@example.com'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    output += c.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}
