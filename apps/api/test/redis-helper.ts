import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { answers } from './postgres-url.ts';

/** The Redis server the tests use: TEST_REDIS_URL, else 127.0.0.1:6379. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Whether the Redis tests run: when Redis answers, and always in CI (where a missing Redis then
 * fails them rather than skipping them quietly).
 */
export async function redisTestsRun(): Promise<boolean> {
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  return ci || (await answers(TEST_REDIS_URL));
}

/** A client and a key prefix of this test's own; cleanup deletes every key under the prefix. */
export function redisScope(): { redis: Redis; prefix: string; cleanup(): Promise<void> } {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  const prefix = `sac-test:${randomUUID()}:`;
  return {
    redis,
    prefix,
    async cleanup() {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    },
  };
}
