import type { NotNull } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { qb, rows } from '../../db/sql.ts';

/**
 * The ids of up to `batch` live approved grants not yet stamped in `stamp`, soonest end first,
 * locked for the claim that stamps them (rows another run holds are skipped).
 */
const unstampedGrants = (stamp: 'expiry_notified_at' | 'expiring_notified_at', batch: number) =>
  qb
    .selectFrom('impersonation_requests')
    .select('id')
    .where('status', '=', 'Approved')
    .where(stamp, 'is', null)
    .where('deleted_at', 'is', null)
    .orderBy('expires_at')
    .limit(batch)
    .forUpdate()
    .skipLocked();

/**
 * Claims up to `batch` approved grants that ended by `now` (for their expiry notices) and were not noticed yet, stamping
 * them in the one UPDATE that selects them: two runs at once never claim the same row, and a row
 * locked by another run is skipped rather than waited for.
 */
export function claimExpiredGrants(db: Queryable, now: Date, batch: number) {
  return rows(
    db,
    qb
      .with('due', () => unstampedGrants('expiry_notified_at', batch).where('expires_at', '<=', now))
      .updateTable('impersonation_requests as r')
      .set({ expiry_notified_at: now })
      .from(['due', 'sites as s'])
      .innerJoin('customers as c', 'c.uid', 's.owner_uid')
      .whereRef('r.id', '=', 'due.id')
      .whereRef('s.app_id', '=', 'r.app_id')
      .where('r.expiry_notified_at', 'is', null)
      .returning((eb) => [
        'r.id',
        's.app_name',
        eb
          .selectFrom('staff as h')
          .select('h.email')
          .whereRef('h.uid', '=', 'r.holder_uid')
          .as('holder_email'),
        'c.email as owner_email',
        'c.first_name as owner_first_name',
        'r.expires_at',
      ])
      // A claimed grant has ended, so it has its expiry.
      .$narrowType<{ expires_at: NotNull }>(),
  );
}

/**
 * Approved grants that end within `withinMs` and were not told yet, claimed and stamped in the one
 * UPDATE that selects them (rows another run holds are skipped): a grant is told once, whatever
 * runs at once.
 */
export function claimExpiringGrants(db: Queryable, now: Date, withinMs: number, batch: number) {
  return rows(
    db,
    qb
      .with('due', () =>
        unstampedGrants('expiring_notified_at', batch)
          .where('expires_at', '>', now)
          .where('expires_at', '<=', new Date(now.getTime() + withinMs)),
      )
      .updateTable('impersonation_requests as r')
      .set({ expiring_notified_at: now })
      .from(['due', 'sites as s'])
      .whereRef('r.id', '=', 'due.id')
      .whereRef('s.app_id', '=', 'r.app_id')
      .where('r.expiring_notified_at', 'is', null)
      .returning(['r.id', 's.app_name', 'r.holder_uid', 'r.expires_at'])
      .$narrowType<{ expires_at: NotNull }>(),
  );
}

export type ExpiringGrant = Awaited<ReturnType<typeof claimExpiringGrants>>[number];
