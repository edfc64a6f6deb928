import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HEADERS } from '@sac/contract/constants';
import { ENDPOINTS, type EndpointId } from '@sac/contract/endpoints';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_STAFF } from '../src/seed/seed.ts';
import { type ApiProcess, startApi } from './api-process.ts';
import { answers, testDatabaseUrl, withDatabase } from './postgres-url.ts';

/**
 * Crash safety: the real server (`node apps/api/src/main.ts`) takes many
 * concurrent writes, is killed with SIGKILL in the middle of them, and is started again on the
 * same data. Every write it acknowledged (answered 2xx) must be there, whole; a write cut off in
 * flight is either all there or not at all; the restart is clean: no migration runs again, the
 * demo staff are not seeded twice, PGlite's directory lock left by the dead process is taken
 * over, and a session issued before the kill still works.
 *
 * It is process-level and tests both engines itself, so it runs once: in the PGlite leg of the
 * API tests (which always runs), and skips itself in the TEST_DB=postgres leg. Its PostgreSQL
 * half uses the test server on a database of its own (skipped when no server answers, outside CI).
 */
const ROUNDS = 3;
const WRITERS = 12;
const DEMO_PASSWORD = 'Crash#Test2026';
const ci = process.env.CI === 'true' || process.env.CI === '1';
const postgresLeg = process.env.TEST_DB === 'postgres';
const pgUp = !postgresLeg && (await answers(testDatabaseUrl()));

/** Ports this file handed out: the two engines run at once and must not pick the same one. */
const handedOut = new Set<number>();

/** Every server this file started, so a failed test leaves none running. */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Starts the server on `env` (its DATA_DIR is the caller's) and resolves once it printed that it is ready. */
async function startServer(env: Record<string, string>): Promise<ApiProcess> {
  const server = await startApi(
    { DEMO_PASSWORD, DOMAIN_RECHECK_MINUTES: '0', SHUTDOWN_DRAIN_SECONDS: '0', ...env },
    { untilReady: true, readyTimeoutMs: 120_000, portBase: 4100, handedOut },
  );
  children.add(server.child);
  return server;
}

type Session = { xtoken: string; xsign: string };

function api(base: string) {
  return async (
    id: EndpointId,
    opts: { session?: Session; body?: unknown; query?: Record<string, string> } = {},
  ) => {
    const { method, path: route } = ENDPOINTS[id];
    const u = new URL(route, base);
    for (const [k, v] of Object.entries(opts.query ?? {})) u.searchParams.set(k, v);
    const r = await fetch(u, {
      method,
      headers: {
        [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue,
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.session ? { [HEADERS.token]: opts.session.xtoken, [HEADERS.sign]: opts.session.xsign } : {}),
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
}

interface Write {
  email: string;
  appname: string;
  uid?: string;
}

/** Runs `n` tasks at a time over `items`. */
async function eachLimit<T>(items: T[], n: number, fn: (x: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/**
 * The whole scenario on one engine: start, then ROUNDS times: concurrent creations of customers
 * (each with its first site, in one transaction), SIGKILL once `killAfter` were acknowledged,
 * restart on the same data and check.
 */
async function crashAndRestart(env: Record<string, string>, lockFile: string | undefined) {
  const acked: Write[] = [];
  const timings: string[] = [];
  let server = await startServer(env);
  timings.push(`first start ${server.readyMs} ms`);
  expect(server.output()).toMatch(/\(migrated to \S+\)/);
  let call = api(server.url);
  const signIn = await call('login', {
    body: { email: 'superadmin@example.com', password: DEMO_PASSWORD },
  });
  expect(signIn.status).toBe(200);
  const session: Session = { xtoken: signIn.body.xtoken, xsign: signIn.body.xsign };

  for (let round = 0; round < ROUNDS; round++) {
    const inFlight: Write[] = [];
    const killAfter = acked.length + 20 + Math.floor(Math.random() * 30);
    let killed = false;
    const victim = server;
    const kill = () => {
      if (killed) return;
      killed = true;
      victim.child.kill('SIGKILL');
    };
    const roundStarted = Date.now();
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; !killed; i++) {
          const tag = `r${round}w${w}i${i}-${randomUUID().slice(0, 8)}`;
          const write: Write = { email: `crash-${tag}@crash.example`, appname: `crash-${tag}` };
          try {
            const r = await call('createCustomer', {
              session,
              body: {
                firstname: 'Crash',
                lastname: tag,
                email: write.email,
                organization: 'Crash Test',
                phone: '5551234567',
                timezone: 'Europe/London',
                appname: write.appname,
              },
            });
            if (r.status !== 200) throw new Error(`write refused: ${r.status} ${JSON.stringify(r.body)}`);
            acked.push({ ...write, uid: r.body.Data.Customer.Uid });
            if (acked.length >= killAfter) kill();
          } catch (e) {
            if (!killed) throw e;
            inFlight.push(write); // cut off by the kill: its fate is unknown to the client
            return;
          }
        }
      }),
    );
    const code = await victim.exited;
    expect(victim.child.signalCode).toBe('SIGKILL');
    expect(code).toBeNull();
    const killMs = Date.now() - roundStarted;
    if (lockFile) {
      // The dead process's lock is still there, naming it.
      expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(victim.child.pid));
    }

    server = await startServer(env);
    call = api(server.url);
    const out = server.output();
    expect(out).not.toMatch(/migrated to/);
    expect(out).toContain(`Demo sign-ins (password ${DEMO_PASSWORD})`);
    if (lockFile) expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(server.child.pid));

    // Every acknowledged write is there, with its site.
    const missing: string[] = [];
    await eachLimit(acked, 8, async (w) => {
      const profile = await call('customerProfile', { session, query: { uid: w.uid! } });
      const apps = await call('customerApps', { session, query: { uid: w.uid! } });
      const names = apps.status === 200 ? apps.body.Data.map((s: { AppName: string }) => s.AppName) : [];
      if (profile.status !== 200 || profile.body.Data.Email !== w.email || !names.includes(w.appname))
        missing.push(`${w.email}: profile ${profile.status}, apps ${apps.status} ${names.join(',')}`);
    });
    expect(missing).toEqual([]);
    // A write cut off in flight is whole or absent: never a customer without their site.
    let landed = 0;
    await eachLimit(inFlight, 8, async (w) => {
      const found = await call('searchCustomer', { session, query: { emailid: w.email } });
      if (found.status === 404) return;
      expect(found.status).toBe(200);
      landed++;
      const uid = found.body.Data[0].Uid;
      const apps = await call('customerApps', { session, query: { uid } });
      expect(apps.body.Data.map((s: { AppName: string }) => s.AppName)).toContain(w.appname);
    });
    timings.push(
      `round ${round + 1}: killed after ${killMs} ms with ${acked.length} acknowledged in all (${inFlight.length} in flight, ${landed} of them landed), restart ready in ${server.readyMs} ms`,
    );
  }

  // The demo staff exist once each, and the server answers normally.
  const team = await call('teamList', { session });
  expect(team.status).toBe(200);
  const emails = team.body.Data.map((u: { Email: Array<{ Value: string }> }) => u.Email[0]!.Value).sort();
  expect(emails).toEqual(DEMO_STAFF.map((s) => s.email).sort());
  const again = await call('login', {
    body: { email: 'admin@example.com', password: DEMO_PASSWORD },
  });
  expect(again.status).toBe(200);

  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  return timings;
}

// The two engines run at once: each spends most of its time starting a server.
describe.skipIf(postgresLeg).concurrent('kill -9 during concurrent writes', () => {
  it('PGlite: no acknowledged write is lost, and the server restarts on the same directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-crash-'));
    try {
      const timings = await crashAndRestart({ DATA_DIR: dataDir }, path.join(dataDir, 'pglite.lock'));
      console.log(`crash, PGlite: ${timings.join('; ')}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 400_000);

  it.skipIf(!pgUp && !ci)(
    'PostgreSQL: no acknowledged write is lost, and the server restarts on the same database',
    async () => {
      const url = testDatabaseUrl();
      const name = `sac_crash_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sac-crash-'));
      try {
        const timings = await crashAndRestart(
          {
            DATA_DIR: dataDir,
            DATABASE_URL: withDatabase(url, name),
          },
          undefined,
        );
        console.log(`crash, PostgreSQL: ${timings.join('; ')}`);
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
