import { ADDRESS_LIMITS, type AddressLimitName, addressLimitOf } from '@sac/contract/address-limits';
import type { Queryable } from '../db/db.ts';
import { firstRow, qb } from '../db/sql.ts';
import { AppError } from './app-error.ts';

/** Addresses over a budget remembered at once (a few hundred KiB at most). */
const REFUSED_KEPT = 10_000;

/** 429 (953), to try again when the window ends. */
const refusal = (windowEnd: number, now: number) =>
  Object.assign(new AppError('tooManyRequests'), {
    retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)),
  });

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
 *
 * A window's count only grows, so an address seen past its budget stays refused until the window
 * ends: this instance remembers that in memory and refuses its later calls without a statement.
 * A flood past its budget then costs no database or Redis work, and a sign-in does not wait for
 * the single embedded connection behind it.
 */
export class AddressLimits {
  private readonly counter: WindowCounter;
  private readonly budgets: AddressLimitBudgets;
  /** `bucket address` → the end (ms) of the window it is over budget in; oldest first. */
  private readonly refusedUntil = new Map<string, number>();

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
    const now = at.getTime();
    const key = `${name} ${address}`;
    const until = this.refusedUntil.get(key);
    if (until !== undefined) {
      if (now < until) throw refusal(until, now);
      this.refusedUntil.delete(key);
    }
    const start = Math.floor(now / windowMs) * windowMs;
    const calls = await this.counter.hit(name, address, new Date(start), windowMs);
    if (calls > this.budgets[name]) {
      this.remember(key, start + windowMs, now);
      throw refusal(start + windowMs, now);
    }
  }

  /** Notes an address over budget until `until`; past REFUSED_KEPT, the ended and then the oldest go. */
  private remember(key: string, until: number, now: number): void {
    if (this.refusedUntil.size >= REFUSED_KEPT) {
      for (const [k, end] of this.refusedUntil) if (end <= now) this.refusedUntil.delete(k);
      // still full: forgetting the oldest only costs their next call a statement again
      while (this.refusedUntil.size >= REFUSED_KEPT) {
        const oldest = this.refusedUntil.keys().next().value;
        if (oldest === undefined) break;
        this.refusedUntil.delete(oldest);
      }
    }
    this.refusedUntil.set(key, until);
  }
}
