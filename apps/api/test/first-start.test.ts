import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../src/config.ts';
import { API_NODE, apiCall, PROCESS_TEST_MS, PROCESS_WAIT_MS, startApi, until } from './api-process.ts';
import { withDatabase } from './postgres-url.ts';

// The server answers before the demo data is in (it goes in after listen, to serve the console
// sooner); API calls wait for it, so a demo sign-in made the moment the server answers works.
// On PostgreSQL (a new database) a call could otherwise read the tables before the demo data's
// transaction commits; on PGlite it would queue behind that transaction anyway.
const postgres = inject('testDb') === 'postgres';

describe(`first start on an empty ${postgres ? 'PostgreSQL database' : 'data directory'}`, () => {
  it(
    'accepts a demo sign-in as soon as the server answers, and prints the demo sign-ins',
    async () => {
      let dropDb = async () => {};
      const env: Record<string, string> = { DEMO_PASSWORD: 'First#Start1' };
      if (postgres) {
        const name = `sac_first_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
        const admin = new pg.Client({ connectionString: inject('pgUrl') });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        env.DATABASE_URL = withDatabase(inject('pgUrl'), name);
        dropDb = async () => {
          await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          await admin.end();
        };
      }
      const api = await startApi(env, { readyTimeoutMs: PROCESS_WAIT_MS });
      try {
        // Not ready for traffic until the demo data is in ('starting'), or ready already.
        const early = await fetch(`${api.url}/readyz`);
        expect([503, 200]).toContain(early.status);
        expect(['starting', 'ready']).toContain(((await early.json()) as { status: string }).status);
        const [login, search] = await Promise.all([
          apiCall(api.url, 'login', {
            body: { email: 'superadmin@example.com', password: 'First#Start1' },
          }),
          (async () => {
            // A second caller in the same moment: the customers are there too once it is answered.
            const r = await apiCall(api.url, 'login', {
              body: { email: 'support@example.com', password: 'First#Start1' },
            });
            const session = (await r.json()) as { xtoken: string; xsign: string };
            return apiCall(api.url, 'searchCustomer', { query: { customerName: 'Ada Lovelace' }, session });
          })(),
        ]);
        expect(login.status).toBe(200);
        expect(await login.json()).toHaveProperty('xtoken');
        expect(search.status).toBe(200);
        expect(JSON.stringify(await search.json())).toContain('ada.lovelace@analytical.example');
        // the banner follows the demo data, which the answers above waited for
        await until(() => api.output().includes('Ready in'), "the server's 'Ready in' line");
        expect(api.output()).toContain('Demo sign-ins (password First#Start1)');
        // nothing of the first start warns (before: pg's deprecation of queries queued on one client)
        expect(api.output()).not.toMatch(/DeprecationWarning|deprecated/i);
        expect(api.output()).toMatch(/Database: .*\(migrated to \d+\)/);
        // PGlite runs searches once it answers and before it is ready, so that the first users'
        // searches find its code compiled (ops/start-steps.ts)
        if (postgres) expect(api.output()).not.toContain('warm-up');
        else
          expect(api.output()).toMatch(
            /Ready in \d+ ms \(answering from \d+ ms; \d+ warm-up searches: \d+ ms\)/,
          );
        const ready = await fetch(`${api.url}/readyz`);
        expect(ready.status).toBe(200);
        // every thread but the event loop's (password hashing among them) yields the cores to it,
        // 10 below the process's own priority (the suite may itself run under `nice`)
        const own = os.getPriority();
        const pid = api.child.pid!;
        const nice = (tid: string) =>
          Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
        const tasks = fs.readdirSync(`/proc/${pid}/task`);
        expect(nice(String(pid))).toBe(own);
        const helpers = tasks.filter((t) => t !== String(pid)).map(nice);
        expect(helpers.length).toBeGreaterThan(4);
        expect(helpers).toEqual(helpers.map(() => Math.min(19, own + 10)));
      } finally {
        expect(await api.stop()).toBe(0);
        await dropDb();
      }
    },
    PROCESS_TEST_MS,
  );
});

/** A new, empty database for one test: PostgreSQL (dropped after), or nothing on PGlite. */
async function emptyDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!postgres) return { env: {}, drop: async () => {} };
  const name = `sac_prod_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: inject('pgUrl') });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    env: { DATABASE_URL: withDatabase(inject('pgUrl'), name) },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

describe(`first start without demo data (${postgres ? 'DATABASE_URL, as production runs' : 'DEMO_DATA=0'})`, () => {
  it(
    'invents no staff, says how to create the first admin, and create-admin prints a link that works once',
    async () => {
      const db = await emptyDatabase();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-first-admin-'));
      // On PostgreSQL the default itself is under test: DATABASE_URL and no DEMO_DATA.
      const env = { ...db.env, DATA_DIR: dataDir, DEMO_DATA: postgres ? '' : '0' };
      let api = await startApi(env, { untilReady: true, readyTimeoutMs: PROCESS_WAIT_MS });
      try {
        expect(api.output()).toContain('No staff account yet');
        expect(api.output()).toContain('npm run create-admin -- you@example.com');
        expect(api.output()).not.toContain('Demo sign-ins');
        const demo = await apiCall(api.url, 'login', {
          body: { email: 'superadmin@example.com', password: 'anything-at-all' },
        });
        expect(demo.status).toBe(401);
        // the mail outbox is there from the start (no SMTP_URL), to look in before the first mail
        expect(fs.statSync(path.join(dataDir, 'outbox')).isDirectory()).toBe(true);
        const serverPort = api.port;
        // the embedded database is one process's at a time: the command runs while the server is stopped
        expect(await api.stop()).toBe(0);

        const run = (args: string[]) =>
          promisify(execFile)(API_NODE, ['apps/api/src/ops/create-admin-cli.ts', ...args], {
            cwd: REPO_ROOT,
            env: { PATH: process.env.PATH ?? '', CONSOLE_ORIGINS: 'https://console.example.com', ...env },
          });
        const made = await run(['grace@example.com', 'Grace', 'Hopper']);
        const link = new URL(/https:\/\/\S+/.exec(made.stdout)![0]);
        expect(link.origin + link.pathname).toBe('https://console.example.com/login');
        expect(link.searchParams.get('vtype')).toBe('invite');
        // Without CONSOLE_ORIGINS or PORT in its shell, the link is on the origin the server wrote
        // at its start (its real port), not a guessed localhost:3001.
        const plain = await promisify(execFile)(
          API_NODE,
          ['apps/api/src/ops/create-admin-cli.ts', 'ada@example.com', 'Ada'],
          { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env } },
        );
        expect(new URL(/http:\/\/\S+/.exec(plain.stdout)![0]).origin).toBe(`http://localhost:${serverPort}`);
        const again = await run(['grace@example.com']).catch((e: { code: number; stderr: string }) => e);
        expect(again).toMatchObject({ code: 1 });
        expect((again as { stderr: string }).stderr).toContain('grace@example.com');

        api = await startApi(env, { untilReady: true, readyTimeoutMs: PROCESS_WAIT_MS });
        expect(api.output()).not.toContain('No staff account yet');
        const set = () =>
          apiCall(api.url, 'resetPassword', {
            body: { password: 'First#Admin-2026', resettoken: link.searchParams.get('vtoken') },
          });
        expect((await set()).status).toBe(200);
        expect((await set()).status).not.toBe(200); // single-use
        const login = await apiCall(api.url, 'login', {
          body: { email: 'grace@example.com', password: 'First#Admin-2026' },
        });
        expect(login.status).toBe(200);
        const session = (await login.json()) as { xtoken: string; xsign: string };
        const me = await apiCall(api.url, 'session', { session });
        expect(((await me.json()) as { Role: string[] }).Role).toEqual(['SuperAdmin']);
      } finally {
        await api.stop();
        await db.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    PROCESS_TEST_MS,
  );
});
