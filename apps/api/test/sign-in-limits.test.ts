import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressFailureStore } from '../src/app-context.ts';
import type { Db, Queryable } from '../src/db/db.ts';
import { databaseAddressStore, redisAddressStore } from '../src/modules/auth/login-throttle.ts';
import { createTestApp, freshDb, PASSWORD, type TestApp } from './harness.ts';
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
      t.call('login', {
        remoteAddress,
        body: { email: 'nobody@example.com', password: 'Wrong#123' },
      });

    it('share one per-address limit, kept in Redis and not in the database', async () => {
      expect((await fail(a, '198.51.100.20')).status).toBe(401);
      expect((await fail(b, '198.51.100.20')).status).toBe(401);
      expect((await fail(a, '198.51.100.20')).status).toBe(401);
      const refused = await fail(b, '198.51.100.20');
      expect(refused.status).toBe(429);
      expect(refused.error.ErrorCode).toBe(904);
      expect((await fail(a, '198.51.100.20')).status).toBe(429);
      expect((await fail(a, '198.51.100.21')).status).toBe(401);
      expect((await a.db.query('SELECT * FROM login_failures_by_address')).rows).toEqual([]);
      expect((await b.db.query('SELECT * FROM login_failures_by_address')).rows).toEqual([]);
      expect(a.ctx.addressFailures.kind).toBe('redis');
    });

    it('take a count back from Redis when the database fails a sign-in before or after its check', async () => {
      const email = 'unlucky@example.com';
      const address = '198.51.100.30';
      await a.addStaff(email, ['Support']);
      const signIn = () => a.call('login', { remoteAddress: address, body: { email, password: PASSWORD } });
      await a.db.query(`CREATE FUNCTION refuse_unlucky() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
      // before: the statement that admits the attempt; after: the sign-in's trail row
      for (const [table, when] of [
        ['staff', `BEFORE UPDATE ON staff FOR EACH ROW WHEN (NEW.email = '${email}')`],
        [
          'activity_log',
          `BEFORE INSERT ON activity_log FOR EACH ROW WHEN (NEW.actor_email = '${email}' AND NEW.action = 'login.success')`,
        ],
      ]) {
        await a.db.query(`CREATE TRIGGER refuse_unlucky ${when} EXECUTE FUNCTION refuse_unlucky()`);
        try {
          // more than the address's budget of 3: each counted and never taken back would end in 904
          for (let i = 0; i < 5; i++) expect((await signIn()).status, table).toBe(500);
        } finally {
          await a.db.query(`DROP TRIGGER refuse_unlucky ON ${table}`);
        }
      }
      expect((await signIn()).status).toBe(200);
      expect(await a.ctx.addressFailures.failuresToday(address, a.clock.now())).toBe(0);
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
      const login = await t.call('login', {
        body: { email: 'nobody@example.com', password: 'Wrong#123' },
      });
      expect(login.status).toBe(503);
      expect(login.error.ErrorCode).toBe(952);
      expect(login.headers['retry-after']).toBe('5');
    });
  });
});

/**
 * What one call sends to the database, in order: each statement outside a transaction is a unit
 * of its own (its own commit), each transaction one unit with its statements. A unit writes when
 * one of its statements inserts, updates or deletes.
 */
interface Unit {
  transaction: boolean;
  statements: string[];
  writes: boolean;
}
const writes = (sql: string) => /\b(INSERT|UPDATE|DELETE)\b/i.test(sql);

function recordUnits(db: Db): { units: Unit[]; stop(): void } {
  const units: Unit[] = [];
  const { query, transaction } = db;
  db.query = ((sql: string, params?: unknown[]) => {
    units.push({ transaction: false, statements: [sql], writes: writes(sql) });
    return query.call(db, sql, params);
  }) as Db['query'];
  db.transaction = <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
    const unit: Unit = { transaction: true, statements: [], writes: false };
    units.push(unit);
    return transaction.call(db, (tx: Queryable) =>
      fn(
        new Proxy(tx, {
          get(target, key, receiver) {
            if (key !== 'query') return Reflect.get(target, key, receiver);
            return ((sql: string, params?: unknown[]) => {
              unit.statements.push(sql);
              unit.writes ||= writes(sql);
              return target.query(sql, params);
            }) as Queryable['query'];
          },
        }),
      ),
    ) as Promise<T>;
  };
  return {
    units,
    stop() {
      db.query = query;
      db.transaction = transaction;
    },
  };
}

describe.each([
  ['the session', 'optional'],
  ['the ticket to a second step (STAFF_MFA=required)', 'required'],
] as const)('the statements of one sign-in, answering %s', (_, staffMfa) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ staffMfa });
    await t.addStaff('counted@example.com', ['Support']);
  });
  afterAll(() => t.close());

  const signIn = async (password: string) => {
    const rec = recordUnits(t.ctx.db);
    try {
      const r = await t.call('login', {
        body: { email: 'counted@example.com', password },
        remoteAddress: '192.0.2.77',
      });
      return { status: r.status, units: rec.units };
    } finally {
      rec.stop();
    }
  };
  const summary = (units: Unit[]) => ({
    statements: units.reduce((n, u) => n + u.statements.length, 0),
    writeCommits: units.filter((u) => u.writes).length,
  });

  it.each([
    ['a right password', PASSWORD, 200],
    ['a wrong password', 'Wrong#123', 401],
  ])(
    '%s: the settings read, one statement counts the attempt before the hash, then one write transaction of two',
    async (_what, password, status) => {
      const { status: got, units } = await signIn(password);
      expect(got).toBe(status);
      expect(summary(units).writeCommits).toBe(2);
      // first, reads only: the single sign-on settings (is password sign-in off?) and, after a
      // change to sessions, staff or roles since it was last read, the staff address allowlist
      const reads = units.slice(0, -2);
      expect(reads.map((u) => [u.transaction, u.statements.length, u.writes])).toEqual(
        reads.map(() => [false, 1, false]),
      );
      expect(reads.length).toBeGreaterThanOrEqual(1);
      expect(reads.length).toBeLessThanOrEqual(2);
      // before the hash: the address's count, the account read, its attempt admitted (and its
      // factors read), one statement committed on its own; after it: the change (the account's
      // count; with a right password the session or the ticket and the address's count taken
      // back) and its trail row, one transaction
      expect(units.slice(-2).map((u) => [u.transaction, u.statements.length, u.writes])).toEqual([
        [false, 1, true],
        [true, 2, true],
      ]);
    },
  );
});
