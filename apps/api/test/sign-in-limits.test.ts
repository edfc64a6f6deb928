import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressFailureStore } from '../src/app-context.ts';
import { databaseAddressStore, redisAddressStore } from '../src/modules/auth/login-throttle.ts';
import { createTestApp, freshDb, type TestApp } from './harness.ts';
import { redisScope, redisTestsRun, TEST_REDIS_URL } from './redis-helper.ts';

const withRedis = await redisTestsRun();

/** What every store must do: count per address and UTC day, atomically. */
function storeContract(
  name: string,
  open: () => Promise<{ store: AddressFailureStore; close(): Promise<void> }>,
) {
  describe(`${name} store`, () => {
    let s: Awaited<ReturnType<typeof open>>;
    beforeAll(async () => {
      s = await open();
    });
    afterAll(() => s.close());
    const day1 = new Date('2026-03-01T23:59:00Z');
    const day2 = new Date('2026-03-02T00:01:00Z');

    it('counts failures per address', async () => {
      expect(await s.store.failuresToday('192.0.2.1', day1)).toBe(0);
      expect(await s.store.recordFailure('192.0.2.1', day1)).toBe(1);
      expect(await s.store.recordFailure('192.0.2.1', day1)).toBe(2);
      expect(await s.store.failuresToday('192.0.2.1', day1)).toBe(2);
      expect(await s.store.failuresToday('192.0.2.2', day1)).toBe(0);
    });

    it('starts again at 0 on the next UTC day', async () => {
      expect(await s.store.failuresToday('192.0.2.1', day2)).toBe(0);
      expect(await s.store.recordFailure('192.0.2.1', day2)).toBe(1);
      expect(await s.store.failuresToday('192.0.2.1', day1)).toBe(2);
    });

    it('loses no count when failures arrive at once', async () => {
      await Promise.all(Array.from({ length: 25 }, () => s.store.recordFailure('2001:db8::5', day1)));
      expect(await s.store.failuresToday('2001:db8::5', day1)).toBe(25);
    });
  });
}

storeContract('database', async () => {
  const { db, drop } = await freshDb();
  return { store: databaseAddressStore(db), close: drop };
});

describe.runIf(withRedis)('with Redis', () => {
  storeContract('Redis', async () => {
    const scope = redisScope();
    return { store: redisAddressStore(scope.redis, scope.prefix), close: scope.cleanup };
  });

  it('keeps each counter with an expiry a little past the end of its UTC day', async () => {
    const scope = redisScope();
    try {
      const store = redisAddressStore(scope.redis, scope.prefix);
      await store.recordFailure('192.0.2.9', new Date('2026-03-01T12:00:00Z'));
      const [key] = await scope.redis.keys(`${scope.prefix}*`);
      expect(key).toBe(`${scope.prefix}login-fail:2026-03-01:192.0.2.9`);
      const ttl = await scope.redis.pttl(key!);
      // 12 hours to the end of the day plus a day of margin
      expect(ttl).toBeGreaterThan(35 * 3_600_000);
      expect(ttl).toBeLessThanOrEqual(36 * 3_600_000);
    } finally {
      await scope.cleanup();
    }
  });

  describe('two API instances with their own databases but one Redis', () => {
    let a: TestApp;
    let b: TestApp;
    let scope: ReturnType<typeof redisScope>;
    beforeAll(async () => {
      scope = redisScope();
      const shared = { redisUrl: TEST_REDIS_URL, redisKeyPrefix: scope.prefix, loginAddressDailyFailures: 3 };
      a = await createTestApp(shared);
      b = await createTestApp(shared);
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await scope.cleanup();
    });

    const fail = (t: TestApp, remoteAddress: string) =>
      t.call({
        method: 'POST',
        url: '/admin/login',
        remoteAddress,
        payload: { email: 'nobody@example.com', password: 'Wrong#123' },
      });

    it('share one per-address limit, kept in Redis and not in the database', async () => {
      expect((await fail(a, '198.51.100.20')).statusCode).toBe(401);
      expect((await fail(b, '198.51.100.20')).statusCode).toBe(401);
      expect((await fail(a, '198.51.100.20')).statusCode).toBe(401);
      const refused = await fail(b, '198.51.100.20');
      expect(refused.statusCode).toBe(429);
      expect(refused.json().ErrorCode).toBe(904);
      expect((await fail(a, '198.51.100.20')).statusCode).toBe(429);
      expect((await fail(a, '198.51.100.21')).statusCode).toBe(401);
      expect((await a.db.query('SELECT * FROM login_failures_by_address')).rows).toEqual([]);
      expect((await b.db.query('SELECT * FROM login_failures_by_address')).rows).toEqual([]);
      expect(a.ctx.addressFailures.kind).toBe('redis');
    });

    it('report Redis in readiness', async () => {
      const r = await a.app.inject({ method: 'GET', url: '/readyz' });
      expect(r.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });
    });
  });

  describe('when Redis does not answer', () => {
    let t: TestApp;
    beforeAll(async () => {
      // the discard port on loopback: refused at once
      t = await createTestApp({ redisUrl: 'redis://127.0.0.1:9', redisKeyPrefix: 'unused:' });
    });
    afterAll(() => t.close());

    it('is not ready, and a sign-in fails closed (503, 952) rather than skip the limit', async () => {
      const r = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(r.statusCode).toBe(503);
      expect(r.json().checks).toEqual({ database: 'ok', redis: 'failed' });
      const login = await t.call({
        method: 'POST',
        url: '/admin/login',
        payload: { email: 'nobody@example.com', password: 'Wrong#123' },
      });
      expect(login.statusCode).toBe(503);
      expect(login.json().ErrorCode).toBe(952);
      expect(login.headers['retry-after']).toBe('5');
    });
  });
});
