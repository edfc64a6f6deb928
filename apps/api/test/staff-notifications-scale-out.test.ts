import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Db, openPostgres } from '../src/db/db.ts';
import { type ApiProcess, apiCall, PROCESS_TEST_MS, PROCESS_WAIT_MS, startApi } from './api-process.ts';
import { insertCustomer, insertSite } from './customer-fixtures.ts';
import { withDatabase } from './postgres-url.ts';
import { redisScope, redisTestsRun, TEST_REDIS_URL } from './redis-helper.ts';
import { openSse } from './sse-client.ts';

// Two real API processes on one PostgreSQL database: a notification made on A reaches a stream
// held by B, once through PostgreSQL's LISTEN/NOTIFY (no REDIS_URL) and once through Redis
// pub/sub. PostgreSQL leg only, like scale-out.test.ts.
const onPostgres = inject('testDb') === 'postgres';
const withRedis = onPostgres && (await redisTestsRun());
const DEMO_PASSWORD = 'Notify#Scale-2026';

describe.each([
  { carrier: 'LISTEN/NOTIFY', redis: false, run: onPostgres },
  { carrier: 'Redis pub/sub', redis: true, run: withRedis },
])('staff notifications across two instances ($carrier)', ({ redis, run }) => {
  const dbName = `sac_notify_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let admin: pg.Client;
  let db: Db;
  let scope: ReturnType<typeof redisScope> | undefined;
  let a: ApiProcess;
  let b: ApiProcess;

  beforeAll(async () => {
    if (!run) return;
    admin = new pg.Client({ connectionString: inject('pgUrl') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = withDatabase(inject('pgUrl'), dbName);
    scope = redis ? redisScope() : undefined;
    const env = {
      DATABASE_URL: url,
      ...(scope ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: scope.prefix } : {}),
      FIELD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      DEMO_PASSWORD,
      SMTP_URL: 'smtp://127.0.0.1:9',
    };
    a = await startApi(env, { readyTimeoutMs: PROCESS_WAIT_MS, untilReady: true });
    b = await startApi(env, { readyTimeoutMs: PROCESS_WAIT_MS });
    db = openPostgres(url, 2);
  }, PROCESS_TEST_MS);

  afterAll(async () => {
    if (!run) return;
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.close();
    await scope?.cleanup();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }, PROCESS_WAIT_MS);

  const signIn = async (api: ApiProcess, email: string) => {
    const r = await apiCall(api.url, 'login', { body: { email, password: DEMO_PASSWORD } });
    expect(r.status).toBe(200);
    return (await r.json()) as { xtoken: string; xsign: string };
  };

  it.runIf(run)(
    'a request made on A reaches the approver’s stream on B, and B still stops at once',
    async () => {
      const approver = await signIn(b, 'superadmin@example.com');
      const stream = openSse(b.url, approver);
      expect((await stream.response).status).toBe(200);
      const asker = await signIn(a, 'admin@example.com');
      const owner = await insertCustomer(db, {
        first: 'Nia',
        last: 'Notify',
        email: `nia-${dbName}@example.com`,
      });
      const { appId } = await insertSite(db, { owner, name: `notify-${dbName.slice(-6)}` });
      const started = Date.now();
      const created = await apiCall(a.url, 'impersonationCreate', {
        session: asker,
        body: {
          data: {
            AppId: appId,
            Priority: 'High',
            Description: 'Across instances',
            ReasonCode: 'support-ticket',
            Assignees: ['superadmin@example.com'],
            ProxyRoles: ['Developer'],
            AdditionalPermissions: [],
            Duration: 60,
          },
        },
      });
      expect(created.status).toBe(200);
      const id = ((await created.json()) as { Data: { Id: number } }).Data.Id;
      const events = await stream.waitFor(1, 5000);
      const ms = Date.now() - started;
      expect(events.map((e) => [e.data.Notification.Kind, e.data.Notification.RequestId])).toContainEqual([
        'assigned',
        id,
      ]);
      expect(ms).toBeLessThan(2000);
      console.log(`notification from A to a stream on B (${redis ? 'Redis' : 'LISTEN/NOTIFY'}): ${ms} ms`);
      // SIGTERM with the stream open: B ends it and exits 0 promptly
      const stopping = Date.now();
      expect(await b.stop()).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(10_000);
      await stream.done;
      expect(stream.ended()).toBe(true);
    },
    60_000,
  );
});
