import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ApiProcess, apiCall, PROCESS_TEST_MS, PROCESS_WAIT_MS, startApi } from './api-process.ts';
import { withDatabase } from './postgres-url.ts';

// A real process, a real SIGTERM. PostgreSQL only: the test holds a table lock from outside the
// process to keep a request in flight for as long as it needs, which the embedded database
// (one process's alone) does not allow.
//
// Every wait is on the process: its 'Ready in' line, a statement waiting on the lock in
// pg_stat_activity, /readyz turning 503, its exit. The test used to wait for the first /livez
// answer only, with startApi's 30 s for the start inside vitest's 30 s for the whole test: on a
// loaded machine the start alone could take that, and the demo data, still going in, waited on
// the staff table's lock like the sign-in. The limits are for a process that hangs.
const run = inject('testDb') === 'postgres';
const DEMO_PASSWORD = 'Shut#Down-2026';
/**
 * Long enough that the /readyz and /livez calls made while draining cannot miss it on a loaded
 * machine; the first test waits it out once.
 */
const DRAIN_SECONDS = '10';

describe.runIf(run)('graceful shutdown', () => {
  let admin: pg.Client;
  const dbs: string[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: inject('pgUrl') });
    await admin.connect();
  });
  afterAll(async () => {
    for (const name of dbs) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  /** A migrated database of its own, an API process on it, and a client that can lock its tables. */
  async function setUp(env: Record<string, string>) {
    const name = `sac_shutdown_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    dbs.push(name);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
    const url = withDatabase(inject('pgUrl'), name);
    // Until 'Ready in': the demo data is in, so nothing but the sign-in waits on the staff table.
    const api = await startApi(
      {
        DATABASE_URL: url,
        DEMO_PASSWORD,
        DOMAIN_RECHECK_MINUTES: '0',
        EXPIRY_NOTICE_MINUTES: '0',
        LOG_LEVEL: 'info',
        ...env,
      },
      { untilReady: true, readyTimeoutMs: PROCESS_WAIT_MS },
    );
    const locker = new pg.Client({ connectionString: url });
    locker.on('error', () => {}); // ended by the DROP … FORCE at the end
    await locker.connect();
    return { api, locker, name };
  }

  /**
   * Starts a sign-in and resolves once it waits on the staff table's lock inside PostgreSQL; the
   * sign-in's own answer is `pending` (wrapped, so awaiting this does not wait for it).
   */
  async function signInStuckOnLock(api: ApiProcess, locker: pg.Client, name: string) {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE staff IN ACCESS EXCLUSIVE MODE');
    const pending = apiCall(api.url, 'login', {
      body: { email: 'admin@example.com', password: DEMO_PASSWORD },
    }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
      (err: Error) => ({ status: 0, body: { error: err.message } as Record<string, unknown> }),
    );
    for (;;) {
      const waiting = await admin.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
        [name],
      );
      if (waiting.rows.length > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    return { pending };
  }

  it(
    'on SIGTERM turns not ready, lets the request under way finish, then exits 0',
    async () => {
      const { api, locker, name } = await setUp({ SHUTDOWN_DRAIN_SECONDS: DRAIN_SECONDS });
      try {
        const { pending } = await signInStuckOnLock(api, locker, name);
        api.child.kill('SIGTERM');
        // The signal is handled on the process's event loop: /readyz answers 'ready' until it is.
        let ready = await fetch(`${api.url}/readyz`);
        while (ready.status === 200) ready = await fetch(`${api.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(((await ready.json()) as { status: string }).status).toBe('draining');
        expect((await fetch(`${api.url}/livez`)).status).toBe(200);
        await locker.query('COMMIT'); // the sign-in proceeds
        const done = await pending;
        expect(done.status).toBe(200);
        expect(done.body.xtoken).toEqual(expect.any(String));
        expect(await api.exited).toBe(0);
        // and it stopped listening
        await expect(fetch(`${api.url}/livez`)).rejects.toThrow();
        const lines = api
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { msg: string });
        expect(lines.map((l) => l.msg)).toEqual(
          expect.arrayContaining(['shutting down: draining', 'shut down']),
        );
      } finally {
        await locker.end();
        await api.stop();
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'gives up on a request that outlasts SHUTDOWN_TIMEOUT_SECONDS and exits 1',
    async () => {
      const { api, locker, name } = await setUp({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
      try {
        const { pending } = await signInStuckOnLock(api, locker, name);
        api.child.kill('SIGTERM');
        expect(await api.exited).toBe(1);
        expect((await pending).status).not.toBe(200);
        expect(api.output()).toContain('requests still under way at the shutdown timeout');
      } finally {
        await locker.query('ROLLBACK').catch(() => {});
        await locker.end();
        await api.stop();
      }
    },
    PROCESS_TEST_MS,
  );
});
