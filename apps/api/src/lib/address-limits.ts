import { ADDRESS_LIMITS, type AddressLimitName, addressLimitOf } from '@sac/contract/address-limits';
import type { Queryable } from '../db/db.ts';
import { firstRow, qb } from '../db/sql.ts';
import { AppError } from './app-error.ts';

export type AddressLimitBudgets = Record<AddressLimitName, number>;

/** Counts one call in a fixed window, atomically; answers the count after it. */
interface WindowCounter {
  readonly kind: 'database' | 'redis';
  hit(bucket: string, address: string, windowStart: Date, windowMs: number): Promise<number>;
}

export function databaseWindowCounter(db: Queryable): WindowCounter {
  return {
    kind: 'database',
    async hit(bucket, address, windowStart) {
      const r = await firstRow(
        db,
        qb
          .insertInto('address_limit_counters')
          .values({ bucket, address, window_start: windowStart, calls: 1 })
          .onConflict((oc) =>
            oc
              .columns(['bucket', 'address', 'window_start'])
              .doUpdateSet((eb) => ({ calls: eb('address_limit_counters.calls', '+', 1) })),
          )
          .returning('calls'),
        // every call at a public door counts here first, floods included: parsed and planned once
        { prepared: true },
      );
      return r?.calls ?? 1;
    },
  };
}

/** The Redis commands the counter needs (ioredis provides them). */
interface RedisMulti {
  multi(): {
    incr(key: string): unknown;
    pexpire(key: string, ms: number): unknown;
    exec(): Promise<Array<[Error | null, unknown]> | null>;
  };
}

/** One key per bucket, address and window; INCR and its expiry in one MULTI, as the sign-in limit does. */
export function redisWindowCounter(redis: RedisMulti, prefix: string): WindowCounter {
  return {
    kind: 'redis',
    async hit(bucket, address, windowStart, windowMs) {
      const key = `${prefix}limit:${bucket}:${windowStart.getTime()}:${address}`;
      const tx = redis.multi();
      tx.incr(key);
      tx.pexpire(key, 2 * windowMs);
      const out = await tx.exec();
      const [err, n] = out?.[0] ?? [new Error('Redis MULTI was discarded'), 0];
      if (err) throw err;
      return Number(n);
    },
  };
}

/**
 * Per-address budgets of the public doors (ADDRESS_LIMITS in the contract): a call is counted
 * before anything else is done for it, and past the budget of its window it answers 429 (953)
 * with Retry-After until the window ends. Fixed windows: at most twice the budget can pass around
 * a window's edge, which is enough to stop a flood and simpler to share through Redis.
 */
export class AddressLimits {
  private readonly counter: WindowCounter;
  private readonly budgets: AddressLimitBudgets;

  constructor(counter: WindowCounter, budgets: AddressLimitBudgets) {
    this.counter = counter;
    this.budgets = budgets;
  }

  get kind(): 'database' | 'redis' {
    return this.counter.kind;
  }

  async take(endpointId: string, address: string, at: Date): Promise<void> {
    const name = addressLimitOf(endpointId);
    if (!name) return;
    const { windowMs } = ADDRESS_LIMITS[name];
    const start = Math.floor(at.getTime() / windowMs) * windowMs;
    const calls = await this.counter.hit(name, address, new Date(start), windowMs);
    if (calls > this.budgets[name]) {
      const wait = Math.max(1, Math.ceil((start + windowMs - at.getTime()) / 1000));
      throw Object.assign(new AppError('tooManyRequests'), { retryAfterSeconds: wait });
    }
  }
}
