import os from 'node:os';
import path from 'node:path';
import { HEADERS } from '@sac/contract/constants';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openPostgres } from '../src/db/db.ts';
import { errorEnvelope, isStoreUnavailable } from '../src/plugins/error-envelope.ts';
import { createTestApp, freshDb, type TestApp } from './harness.ts';

/**
 * When the database or Redis cannot be reached, calls answer 503 with Retry-After and
 * the envelope (952), so clients and balancers retry; other server errors stay 500 (950).
 */

const marker = { [HEADERS.ajaxMarker]: HEADERS.ajaxMarkerValue, 'content-type': 'application/json' };
const login = { email: 'nobody@example.com', password: 'Wrong#123' };

function expectUnavailable(r: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(r.statusCode).toBe(503);
  expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(30);
  expect(r.json()).toMatchObject({
    ErrorCode: 952,
    Description: 'The service cannot reach its database right now. Please try again in a few seconds.',
    RequestId: expect.any(String),
  });
}

describe('which errors mean the store is unreachable', () => {
  it('reads connection errors of pg and ioredis, and nothing else', () => {
    const errno = (code: string, syscall = 'connect') => Object.assign(new Error(code), { code, syscall });
    for (const e of [
      errno('ECONNREFUSED'),
      errno('ECONNRESET', 'read'),
      errno('ETIMEDOUT'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('database "x" does not exist'), { code: '3D000' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('Reached the max retries per request limit (which is 2).'), {
        name: 'MaxRetriesPerRequestError',
      }),
      new Error('Connection is closed.'),
      new Error('wrapped', { cause: errno('ECONNREFUSED') }),
      new AggregateError([errno('ECONNREFUSED'), errno('ECONNREFUSED')], 'x'),
    ]) {
      expect(isStoreUnavailable(e), e.message).toBe(true);
    }
    for (const e of [
      new Error('boom'),
      new TypeError('x is undefined'),
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      Object.assign(new Error('protocol violation'), { code: '08P01' }),
      errno('ECONNREFUSED', 'queryCname'),
      undefined,
      'text',
    ]) {
      expect(isStoreUnavailable(e), String(e)).toBe(false);
    }
  });

  it('answers 503 with Retry-After for an unreachable store and 500 for any other failure', async () => {
    const app = Fastify();
    errorEnvelope(app);
    app.get('/down', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
        syscall: 'connect',
      });
    });
    app.get('/bug', async () => {
      throw new Error('boom');
    });
    expectUnavailable(await app.inject({ method: 'GET', url: '/down' }));
    const bug = await app.inject({ method: 'GET', url: '/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.json().ErrorCode).toBe(950);
    expect(bug.headers['retry-after']).toBeUndefined();
    await app.close();
  });
});

describe('PostgreSQL on a closed port', () => {
  it('answers 503 with Retry-After to calls that need the database', async () => {
    // the discard port on loopback: refused at once
    const db = openPostgres('postgres://sac@127.0.0.1:9/sac', 2);
    const config = {
      ...loadConfig({}),
      dataDir: path.join(os.tmpdir(), `sac-outage-${process.pid}`),
      webDistDir: path.join(os.tmpdir(), 'sac-no-console'),
    };
    const { app } = await buildApp({ config, db, logger: false });
    try {
      expectUnavailable(
        await app.inject({ method: 'POST', url: '/admin/login', headers: marker, payload: login }),
      );
      expectUnavailable(
        await app.inject({
          method: 'GET',
          url: '/admin/session',
          headers: { ...marker, [HEADERS.token]: 'a'.repeat(43), [HEADERS.sign]: 'b'.repeat(43) },
        }),
      );
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
    } finally {
      await app.close();
      await db.close();
    }
  });
});

describe.skipIf(inject('testDb') !== 'postgres')('PostgreSQL going away under a running app', () => {
  it('answers 503 with Retry-After once its database is terminated and dropped', async () => {
    const fresh = await freshDb();
    const name = new URL(fresh.url!).pathname.slice(1);
    const config = {
      ...loadConfig({}),
      dataDir: path.join(os.tmpdir(), `sac-outage-${process.pid}`),
      webDistDir: path.join(os.tmpdir(), 'sac-no-console'),
    };
    const { app } = await buildApp({ config, db: fresh.db, logger: false });
    const admin = new pg.Client({ connectionString: inject('pgUrl') });
    await admin.connect();
    try {
      const before = await app.inject({
        method: 'POST',
        url: '/admin/login',
        headers: marker,
        payload: login,
      });
      expect(before.statusCode).toBe(401);
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      for (let i = 0; i < 3; i++) {
        expectUnavailable(
          await app.inject({ method: 'POST', url: '/admin/login', headers: marker, payload: login }),
        );
      }
    } finally {
      await app.close();
      await admin.end();
      await fresh.drop();
    }
  });
});

describe.skipIf(inject('testDb') !== 'postgres')('PostgreSQL with every pooled connection taken', () => {
  it('answers 503 with Retry-After when no connection frees up in time', async () => {
    const fresh = await freshDb();
    const db = openPostgres(fresh.url!, 1, 200);
    const config = {
      ...loadConfig({}),
      dataDir: path.join(os.tmpdir(), `sac-outage-${process.pid}`),
      webDistDir: path.join(os.tmpdir(), 'sac-no-console'),
    };
    const { app } = await buildApp({ config, db, logger: false });
    try {
      const busy = db.transaction((tx) => tx.query('SELECT pg_sleep(1.5)'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expectUnavailable(
        await app.inject({ method: 'POST', url: '/admin/login', headers: marker, payload: login }),
      );
      await busy;
      const after = await app.inject({
        method: 'POST',
        url: '/admin/login',
        headers: marker,
        payload: login,
      });
      expect(after.statusCode).toBe(401);
    } finally {
      await app.close();
      await db.close();
      await fresh.drop();
    }
  });
});

describe('Redis on a closed port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ redisUrl: 'redis://127.0.0.1:9', redisKeyPrefix: 'unused:' });
  });
  afterAll(() => t.close());

  it('answers a sign-in 503 with Retry-After (it fails closed: no unthrottled sign-in)', async () => {
    expectUnavailable(await t.call({ method: 'POST', url: '/admin/login', payload: login }));
  });
});
