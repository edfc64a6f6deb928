import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { API_NODE, apiCall, PROCESS_TEST_MS, PROCESS_WAIT_MS, startApi, until } from './api-process.ts';
import { startFaultProxy } from './fault-proxy.ts';
import { answers, testDatabaseUrl, withDatabase } from './postgres-url.ts';

/**
 * A loaded host, where PostgreSQL answers later than a call's budget: what an operator starts
 * waits for it rather than fail (a CLI: the migrations here; a server's start: its own steps),
 * and once the server is ready its calls are held to the budget again (503). PostgreSQL is made slow by a proxy that holds each of
 * its answers DELAY_MS, past a budget of BUDGET_MS, then LATER_DELAY_MS. Process-level, so it runs once, in the PGlite
 * leg, on a database of its own (when a server answers, or in CI).
 */
const postgresLeg = process.env.TEST_DB === 'postgres';
const ci = process.env.CI === 'true' || process.env.CI === '1';
const pgUp = !postgresLeg && (await answers(testDatabaseUrl()));
const DELAY_MS = 15;
const BUDGET_MS = 5;
/**
 * Past the budget by far, so that a call held to it fails however late this host runs its timers,
 * yet within the check's time (STORE_CHECK_TIMEOUT_MS, 1 s), so the circuit stays closed.
 */
const LATER_DELAY_MS = 500;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const f of cleanups.reverse()) await f().catch(() => {});
});

describe.skipIf(postgresLeg || (!pgUp && !ci))('a start on a PostgreSQL slower than the call budget', () => {
  it(
    'migrates (a CLI) and starts, then holds calls to the budget again',
    async () => {
      const url = new URL(testDatabaseUrl());
      const name = `sac_slow_start_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: url.href });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      cleanups.push(async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      });
      const proxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
      cleanups.push(() => proxy.close());
      proxy.setDelay(DELAY_MS);
      const proxied = new URL(withDatabase(url.href, name));
      proxied.host = `127.0.0.1:${proxy.port}`;
      const slowStore = {
        DATABASE_URL: proxied.href,
        STORE_CALL_BUDGET_MS: String(BUDGET_MS),
        DB_STATEMENT_CHECK_MS: '1',
      };
      const migrated = await promisify(execFile)(API_NODE, ['src/db/migrate-cli.ts'], {
        cwd: new URL('..', import.meta.url).pathname,
        env: { PATH: process.env.PATH ?? '', ...slowStore },
      });
      expect(migrated.stdout).toMatch(/^Applied migrations \d+/);
      const api = await startApi(
        { ...slowStore, DEMO_DATA: '0' },
        { untilReady: true, readyTimeoutMs: PROCESS_WAIT_MS },
      );
      cleanups.push(() => api.stop());
      expect(api.output()).toContain('Database: PostgreSQL');
      const signIn = () =>
        apiCall(api.url, 'login', { body: { email: 'nobody@example.com', password: 'Wrong#2026' } });
      // Ready: a call waits for the store no longer than its budget.
      proxy.setDelay(LATER_DELAY_MS);
      const slow = await signIn();
      expect(slow.status).toBe(503);
      expect(slow.headers.get('retry-after')).not.toBeNull();
      proxy.setDelay(0);
      // The store on time again: calls are answered (once the check's late answer is in, and a
      // new connection comes within the 5 ms budget, which a loaded host may take a few tries for).
      await until(async () => (await signIn()).status === 401, 'a sign-in answered 401', 30_000, 100);
    },
    PROCESS_TEST_MS,
  );
});
