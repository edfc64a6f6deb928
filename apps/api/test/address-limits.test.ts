import { ADDRESS_LIMITS } from '@sac/contract/address-limits';
import { ERRORS } from '@sac/contract/errors';
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import { redisScope, redisTestsRun, TEST_REDIS_URL } from './redis-helper.ts';

// The public doors are limited per client address: calls sent at once are counted one by one, the
// call past the budget answers 429 (953) with Retry-After until its window ends, and another
// address is not held back.

const withRedis = await redisTestsRun();
const budgets = {
  passwordReset: 4,
  customerLinks: 3,
  customerRequests: 2,
  singleSignOn: 100_000,
  scim: 100_000,
};

const forgot = (t: TestApp, remoteAddress: string) =>
  t.call('forgotPassword', {
    remoteAddress,
    body: { email: 'nobody@example.com', url: 'http://console.test:3001/login' },
  });
const reset = (t: TestApp, remoteAddress: string) =>
  t.call('resetPassword', {
    remoteAddress,
    body: { password: 'Brand#New1', resettoken: 'bogus-token-123' },
  });
const siteAccess = (t: TestApp, remoteAddress: string) =>
  t.callLoose('siteAccess', { remoteAddress, query: { token: 'nope' } });
const consent = (t: TestApp, remoteAddress: string) =>
  t.callLoose('consentDetails', { remoteAddress, query: { token: 'nope' } });
const customerRequest = (t: TestApp, remoteAddress: string) =>
  t.callLoose('customerRequestsCreate', {
    remoteAddress,
    headers: { apikey: '11111111-2222-4333-8444-555555555555', apisecret: 'wrong' },
    body: { data: {} },
  });

async function limits(open: () => Promise<{ t: TestApp; close(): Promise<void> }>) {
  const { t, close } = await open();
  try {
    // reset and forgot share one budget; 10 at once, exactly `budget` get through
    const mixed = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? forgot(t, '203.0.113.50') : reset(t, '203.0.113.50'))),
    );
    const limited = mixed.filter((r) => r.status === 429);
    expect(limited).toHaveLength(10 - budgets.passwordReset);
    expect(limited[0]!.error.ErrorCode).toBe(ERRORS.tooManyRequests.code);
    const wait = Number(limited[0]!.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(ADDRESS_LIMITS.passwordReset.windowMs / 1000);
    // another address, and another door, are not held back
    expect((await forgot(t, '203.0.113.51')).status).toBe(200);
    expect((await siteAccess(t, '203.0.113.50')).status).toBe(400);
    // the owner's links share theirs
    const links = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => (i % 2 ? siteAccess : consent)(t, '203.0.113.52')),
    );
    expect(links.filter((r) => r.status === 429)).toHaveLength(5 - budgets.customerLinks);
    const requests = await Promise.all([1, 2, 3, 4].map(() => customerRequest(t, '203.0.113.53')));
    expect(requests.filter((r) => r.status === 429)).toHaveLength(4 - budgets.customerRequests);
    // the window passes
    t.clock.advance(ADDRESS_LIMITS.passwordReset.windowMs);
    expect((await reset(t, '203.0.113.50')).status).toBe(400);
  } finally {
    await close();
  }
}

describe('per-address limits of the public doors', () => {
  it('in the database', () =>
    limits(async () => {
      const t = await createTestApp({ addressLimits: budgets });
      expect(t.ctx.addressLimits.kind).toBe('database');
      return { t, close: () => t.close() };
    }));

  it('a flood past the budget is refused without a statement until its window ends', async () => {
    const t = await createTestApp({ addressLimits: budgets });
    /** Database statements run so far (prom-client keeps a counter's values in hashMap). */
    const statements = () =>
      Object.values(
        (t.ctx.metrics.dbQueries as unknown as { hashMap: Record<string, { value: number }> }).hashMap,
      ).reduce((sum, v) => sum + v.value, 0);
    try {
      for (let i = 0; i <= budgets.passwordReset; i++) await reset(t, '203.0.113.60');
      const before = statements();
      const flood = await Promise.all(Array.from({ length: 20 }, () => reset(t, '203.0.113.60')));
      expect(flood.map((r) => r.status)).toEqual(Array(20).fill(429));
      expect(Number(flood[0]!.headers['retry-after'])).toBeGreaterThan(0);
      expect(statements()).toBe(before);
      // another address is still counted, and the window's end lets the address in again
      expect((await reset(t, '203.0.113.61')).status).toBe(400);
      t.clock.advance(ADDRESS_LIMITS.passwordReset.windowMs);
      expect((await reset(t, '203.0.113.60')).status).toBe(400);
    } finally {
      await t.close();
    }
  });

  it.runIf(withRedis)('in Redis', () =>
    limits(async () => {
      const scope = redisScope();
      const t = await createTestApp({
        addressLimits: budgets,
        redisUrl: TEST_REDIS_URL,
        redisKeyPrefix: scope.prefix,
      });
      expect(t.ctx.addressLimits.kind).toBe('redis');
      return {
        t,
        close: async () => {
          await t.close();
          await scope.cleanup();
        },
      };
    }),
  );
});
