import type { SiteScope } from '@sac/contract/role-scopes';
import type { NotNull } from 'kysely';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { qb, rows } from '../../db/sql.ts';
import { siteRowInScope } from '../../lib/site-scope.ts';

/* The whole list behind the dashboard's trials card (dashboard.repo.ts reads the card's sample). */

/** Where a page of trials starts: the last row's end (as PostgreSQL writes it) and site. */
export interface TrialKey {
  at: string;
  appId: string;
}

/**
 * A page of the trials ending in [now, until), by their end then site, either way, after `after`:
 * a walk of the trials' partial index (sites_trial_ends_idx: trial_ends_at, app_id), cut at
 * `limit` before it is joined to the owners and data centers, so a page costs its rows whatever
 * the window holds. One statement.
 */
export function trialsEndingPage(
  db: Queryable,
  q: {
    now: Date;
    until: Date;
    after: TrialKey | undefined;
    limit: number;
    descending: boolean;
    /** The caller's scope: its sites alone, tested on each trial the walk reads; absent: all. */
    scope?: readonly SiteScope[] | undefined;
  },
) {
  const dir = q.descending ? 'desc' : 'asc';
  const after = q.after;
  const inScope = siteRowInScope(q.scope, 'sites');
  const page = qb
    .selectFrom('sites')
    .select(['app_id', 'app_name', 'owner_uid', 'plan', 'data_center', 'trial_ends_at'])
    .select((eb) => eb.cast<string>('trial_ends_at', 'text').as('at_key'))
    .where('plan_status', '=', sql.lit('Trial'))
    .where('trial_ends_at', '>=', q.now)
    .where('trial_ends_at', '<', q.until)
    .$if(after !== undefined, (s) =>
      s.where(
        q.descending
          ? sql<boolean>`(trial_ends_at, app_id) < (${after?.at}::timestamptz, ${after?.appId}::bigint)`
          : sql<boolean>`(trial_ends_at, app_id) > (${after?.at}::timestamptz, ${after?.appId}::bigint)`,
      ),
    )
    .$if(inScope !== undefined, (s) => s.where(inScope!))
    .orderBy('trial_ends_at', dir)
    .orderBy('app_id', dir)
    .limit(q.limit);
  return rows(
    db,
    qb
      .selectFrom(page.as('t'))
      .innerJoin('customers as c', 'c.uid', 't.owner_uid')
      .leftJoin('data_centers as d', 'd.code', 't.data_center')
      .select([
        't.app_id',
        't.app_name',
        't.owner_uid',
        'c.first_name',
        'c.last_name',
        't.plan',
        't.data_center',
        'd.name as data_center_name',
        't.trial_ends_at',
        't.at_key',
      ])
      .orderBy('t.trial_ends_at', dir)
      .orderBy('t.app_id', dir)
      // Within the range, so not null.
      .$narrowType<{ trial_ends_at: NotNull }>(),
  );
}
