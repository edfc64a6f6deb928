import { DASHBOARD_ITEMS } from '@sac/contract/dashboard';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, qb, rows } from '../../db/sql.ts';

/*
 * The dashboard's reads of the staff trail and the team (the trail readers' and the SuperAdmin's
 * parts): each walks an index of the trail or reads the small staff tables.
 */

/** A fixed value written into the statement: the trail's action index is matched on it. */
const lit = <V extends string | number>(v: V) => sql.lit(v);
const counted = sql<number>`count(*)::int`;

/**
 * How many rows of each action the trail holds since `since` (one count per action, each a walk of
 * the activity log's action index (action, at)), in one statement.
 */
export async function trailCounts<A extends string>(
  db: Queryable,
  windows: ReadonlyArray<{ since: Date; actions: readonly A[] }>,
): Promise<Map<A, number>> {
  const columns = windows.flatMap((w) => w.actions.map((action) => ({ action, since: w.since })));
  const r = await firstRow(
    db,
    qb.selectNoFrom((eb) =>
      columns.map((c, i) =>
        sql<number>`(${eb.selectFrom('activity_log').select(eb.fn.countAll().as('n')).where('action', '=', lit(c.action)).where('at', '>', c.since)})::int`.as(
          `c${i}`,
        ),
      ),
    ),
  );
  const row = (r ?? {}) as Record<string, number>;
  return new Map(columns.map((c, i) => [c.action, row[`c${i}`] ?? 0]));
}

/** The trail's newest rows (its time index, cut at DASHBOARD_ITEMS). */
export function recentTrail(db: Queryable) {
  return rows(
    db,
    qb
      .selectFrom('activity_log')
      .select(['id', 'at', 'actor_email', 'action'])
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(lit(DASHBOARD_ITEMS)),
  );
}

/** Staff members with neither a confirmed authenticator app nor a passkey (the team is small). */
export async function staffWithoutFactor(db: Queryable): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('staff as s')
      .select(counted.as('n'))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('staff_totp as t')
              .select(sql.lit(1).as('one'))
              .whereRef('t.uid', '=', 's.uid')
              .where('t.confirmed_at', 'is not', null),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('staff_passkeys as p').select(sql.lit(1).as('one')).whereRef('p.uid', '=', 's.uid'),
          ),
        ),
      ),
  );
  return r?.n ?? 0;
}
