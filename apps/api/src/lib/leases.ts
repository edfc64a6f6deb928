import type { Redis } from 'ioredis';
import type { Queryable } from '../db/db.ts';
import { execute, qb, rows } from '../db/sql.ts';
import type { Clock } from './clock.ts';

/**
 * A named lease with an expiry: of all instances, only the holder runs a periodic job. The
 * holder renews its own lease; another instance takes it only once it has expired (its holder
 * stopped or died).
 */
export interface LeaseStore {
  readonly kind: 'redis' | 'database';
  /** True when `holder` now holds `name` for `ttlMs` (newly or renewed). */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if `holder` holds it, so another instance need not wait for its expiry. */
  release(name: string, holder: string): Promise<void>;
}

// GET, then SET … PX only when free or ours: atomic, as Redis runs a script alone.
const ACQUIRE = `local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Leases as Redis keys `<prefix>lease:<name>` holding the holder's id, expiring by PX. */
export function redisLeases(redis: Redis, prefix: string): LeaseStore {
  const key = (name: string) => `${prefix}lease:${name}`;
  return {
    kind: 'redis',
    async acquire(name, holder, ttlMs) {
      return (await redis.eval(ACQUIRE, 1, key(name), holder, String(Math.ceil(ttlMs)))) === 1;
    },
    async release(name, holder) {
      await redis.eval(RELEASE, 1, key(name), holder);
    },
  };
}

/**
 * Leases as rows of `job_leases`: one upsert takes a free, expired or own lease, atomically (on
 * PostgreSQL the conflicting row is locked, so two instances cannot both win). Expiry follows the
 * API's clock, so tests move it.
 */
export function databaseLeases(db: Queryable, clock: Clock): LeaseStore {
  return {
    kind: 'database',
    async acquire(name, holder, ttlMs) {
      const now = clock.now();
      const r = await rows(
        db,
        qb
          .insertInto('job_leases')
          .values({ name, holder, expires_at: new Date(now.getTime() + ttlMs) })
          .onConflict((oc) =>
            oc
              .column('name')
              .doUpdateSet((eb) => ({
                holder: eb.ref('excluded.holder'),
                expires_at: eb.ref('excluded.expires_at'),
              }))
              .where((eb) =>
                eb.or([
                  eb('job_leases.expires_at', '<=', now),
                  eb('job_leases.holder', '=', eb.ref('excluded.holder')),
                ]),
              ),
          )
          .returning('holder'),
      );
      return r.length === 1;
    },
    async release(name, holder) {
      await execute(db, qb.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder));
    },
  };
}
