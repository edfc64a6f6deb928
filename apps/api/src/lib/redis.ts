import type { Redis } from 'ioredis';

interface Logger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * A Redis client for REDIS_URL. Commands fail after two reconnect attempts rather than wait for
 * ever (a sign-in while Redis is away answers 950, and /readyz answers 503); the client keeps
 * reconnecting in the background. The first error after each good spell is logged, not every retry.
 */
export async function openRedis(url: string, log?: Logger): Promise<Redis> {
  // Loaded only when REDIS_URL is set: ~60 ms of every start otherwise.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 2000 });
  let healthy = true;
  redis.on('error', (err: Error) => {
    if (!healthy) return;
    healthy = false;
    log?.warn({ err: { message: err.message } }, 'Redis unavailable');
  });
  redis.on('ready', () => {
    if (!healthy) log?.info({}, 'Redis available again');
    healthy = true;
  });
  return redis;
}

/** The address of a Redis URL without its password, for the start-up banner. */
export function describeRedis(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
}
