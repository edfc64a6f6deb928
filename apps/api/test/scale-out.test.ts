import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Db, openPostgres } from '../src/db/db.ts';
import {
  type ApiProcess,
  apiCall,
  metricValue,
  PROCESS_TEST_MS,
  PROCESS_WAIT_MS,
  startApi,
} from './api-process.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { insertGrant } from './impersonation-fixtures.ts';
import { withDatabase } from './postgres-url.ts';
import { redisScope, redisTestsRun, TEST_REDIS_URL } from './redis-helper.ts';
import { startSmtpListener } from './smtp-listener.ts';

// Two real API processes on one PostgreSQL database and one Redis. It runs in the PostgreSQL leg
// only: the embedded database is one process's by design (a second is refused), and running the
// same processes again in the PGlite leg would test nothing more.
const run = inject('testDb') === 'postgres' && (await redisTestsRun());

const DEMO_PASSWORD = 'Scale#Out-2026';
const JOB = 'impersonation-expiry-notices';

describe.runIf(run)('two API instances behind a load balancer', () => {
  const dbName = `sac_scale_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let admin: pg.Client;
  let db: Db;
  let smtp: Awaited<ReturnType<typeof startSmtpListener>>;
  let scope: ReturnType<typeof redisScope>;
  let a: ApiProcess;
  let b: ApiProcess;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: inject('pgUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = withDatabase(inject('pgUrl'), dbName);
    smtp = await startSmtpListener();
    scope = redisScope();
    const env = {
      DATABASE_URL: url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: scope.prefix,
      FIELD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DEMO_PASSWORD,
      SMTP_URL: smtp.url,
      // the test is the load balancer: it says which client it forwards
      TRUST_PROXY: '127.0.0.1',
      LOGIN_ADDRESS_DAILY_FAILURES: '4',
      DOMAIN_RECHECK_MINUTES: '0.005',
      EXPIRY_NOTICE_MINUTES: '0.005',
    };
    // Both start at once on an empty database: one migrates and seeds, the other waits and
    // finds the work done.
    [a, b] = await Promise.all([
      startApi(env, { readyTimeoutMs: PROCESS_WAIT_MS }),
      startApi(env, { readyTimeoutMs: PROCESS_WAIT_MS }),
    ]);
    db = openPostgres(url, 2);
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    let codes: Array<number | null | undefined> = [];
    try {
      codes = await Promise.all([a?.stop(), b?.stop()]);
    } finally {
      await db?.close();
      await smtp?.close();
      await scope?.cleanup();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
    // both stopped cleanly on SIGTERM
    if (a && b) expect(codes).toEqual([0, 0]);
  }, PROCESS_WAIT_MS);

  it('share sessions: signed in on one, the session works on the other and ends on both', async () => {
    const login = await apiCall(a.url, 'login', {
      body: { email: 'superadmin@example.com', password: DEMO_PASSWORD },
    });
    expect(login.status).toBe(200);
    const session = (await login.json()) as { xtoken: string; xsign: string };
    const onB = await apiCall(b.url, 'session', { session });
    expect(onB.status).toBe(200);
    expect(((await onB.json()) as { Email: string }).Email).toBe('superadmin@example.com');
    expect((await apiCall(b.url, 'logout', { session })).status).toBe(200);
    expect((await apiCall(a.url, 'session', { session })).status).toBe(401);
  });

  it('share a step-up: confirmed on one, the other lets the sensitive action through', async () => {
    const login = await apiCall(a.url, 'login', {
      body: { email: 'superadmin@example.com', password: DEMO_PASSWORD },
    });
    const session = (await login.json()) as { xtoken: string; xsign: string };
    // the sign-in is older than STEP_UP_MINUTES (10)
    await db.query("UPDATE staff_sessions SET created_at = now() - interval '11 minutes'");
    const exportOn = async (api: ApiProcess) => {
      const r = await apiCall(api.url, 'auditExport', {
        session,
        query: { format: 'csv', action: 'team.create' },
      });
      await r.arrayBuffer();
      return r.status;
    };
    expect(await exportOn(b)).toBe(403); // 911: B now keeps the session as it read it
    const up = await apiCall(a.url, 'stepUp', {
      session,
      body: { Method: 'password', Password: DEMO_PASSWORD },
    });
    expect(up.status).toBe(200);
    // B was told (staff_sessions.verified_at tells every instance) and reads the session again
    const until = Date.now() + 5000;
    let status = await exportOn(b);
    while (status !== 200 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      status = await exportOn(b);
    }
    expect(status).toBe(200);
  });

  it('share the per-address sign-in limit through Redis', async () => {
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });
    const fail = (api: ApiProcess, ip: string) =>
      apiCall(api.url, 'login', {
        body: { email: 'nobody@example.com', password: 'Wrong#123' },
        headers: from(ip),
      });
    for (const api of [a, b, a, b]) expect((await fail(api, '203.0.113.77')).status).toBe(401);
    const refusedA = await fail(a, '203.0.113.77');
    expect(refusedA.status).toBe(429);
    expect(((await refusedA.json()) as { ErrorCode: number }).ErrorCode).toBe(904);
    expect((await fail(b, '203.0.113.77')).status).toBe(429);
    // another client, and the balancer's own address, are not limited
    expect((await fail(b, '203.0.113.78')).status).toBe(401);
    const ok = await apiCall(b.url, 'login', {
      body: { email: 'support@example.com', password: DEMO_PASSWORD },
    });
    expect(ok.status).toBe(200);
    // the counts are in Redis, not in the database
    expect((await db.query('SELECT * FROM login_failures_by_address')).rows).toEqual([]);
    expect(await scope.redis.keys(`${scope.prefix}login-fail:*:203.0.113.77`)).toHaveLength(1);
  });

  it('run periodic work once: one instance holds each job, and an expiry notice is mailed once', async () => {
    const staff = await db.query<{ uid: string }>(
      "SELECT uid FROM staff WHERE email = 'support@example.com'",
    );
    const owner = await insertCustomer(db, { first: 'Sam', last: 'Scale', email: 'sam.scale@example.com' });
    const { appId } = await insertSite(db, { owner, name: 'scale-out-site' });
    const id = await insertGrant(db, {
      appId,
      initiatorUid: staff.rows[0]!.uid,
      initiatorEmail: 'support@example.com',
      roles: ['Developer'],
      now: new Date(Date.now() - 2 * 60_000),
      minutes: 1,
    });
    const about = () => smtp.messages.filter((m) => m.text.includes(`request ${id}`));
    await smtp.waitFor(
      (m) => m.text.includes(`request ${id}`) && m.to.includes('sam.scale@example.com'),
      20_000,
    );
    await smtp.waitFor(
      (m) => m.text.includes(`request ${id}`) && m.to.includes('support@example.com'),
      20_000,
    );

    // let both instances tick several more times
    const metrics = async () => [
      await (await fetch(`${a.url}/metrics`)).text(),
      await (await fetch(`${b.url}/metrics`)).text(),
    ];
    const ticks = (text: string, job: string) =>
      metricValue(text, 'sac_job_runs_total', { job, outcome: 'ran' }) +
      metricValue(text, 'sac_job_runs_total', { job, outcome: 'skipped' });
    let texts = await metrics();
    while (texts.some((t) => ticks(t, JOB) < 4 || ticks(t, 'domain-recheck') < 4)) {
      await new Promise((r) => setTimeout(r, 200));
      texts = await metrics();
    }
    // A duplicate notice would be in the outbox by now; once nothing there waits, each is delivered.
    while (
      Number(
        (
          await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL',
          )
        ).rows[0]!.n,
      ) > 0
    )
      await new Promise((r) => setTimeout(r, 100));

    expect(
      about()
        .map((m) => m.to[0])
        .sort(),
    ).toEqual(['sam.scale@example.com', 'support@example.com']);
    for (const job of [JOB, 'domain-recheck']) {
      const ran = texts.map((t) => metricValue(t, 'sac_job_runs_total', { job, outcome: 'ran' }));
      const skipped = texts.map((t) => metricValue(t, 'sac_job_runs_total', { job, outcome: 'skipped' }));
      // exactly one instance runs the job; the other's ticks find the lease taken
      expect(
        ran.filter((n) => n > 0),
        `${job} ran on ${ran}`,
      ).toHaveLength(1);
      expect(skipped[ran.indexOf(0)]).toBeGreaterThanOrEqual(4);
      expect(texts.map((t) => metricValue(t, 'sac_job_runs_total', { job, outcome: 'failed' }))).toEqual([
        0, 0,
      ]);
    }
    const notices = texts.map((t) => metricValue(t, 'sac_impersonation_expiry_notices_total'));
    expect(notices.reduce((x, y) => x + y)).toBe(1);
    // the leases are in Redis (the database's lease table stays empty)
    expect(await scope.redis.exists(`${scope.prefix}lease:${JOB}`)).toBe(1);
    expect((await db.query('SELECT * FROM job_leases')).rows).toEqual([]);
  }, 60_000);

  it('report ready with the database and Redis, and serve metrics with pool gauges', async () => {
    for (const api of [a, b]) {
      const r = await fetch(`${api.url}/readyz`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
      const text = await (await fetch(`${api.url}/metrics`)).text();
      expect(metricValue(text, 'sac_db_pool_connections', { state: 'max' })).toBe(10);
    }
  });
});
