import type { BreakGlassReviewState } from '@sac/contract/break-glass';
import { DASHBOARD_ITEMS } from '@sac/contract/dashboard';
import type { SiteScope } from '@sac/contract/role-scopes';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, qb, rows } from '../../db/sql.ts';
import { siteRowInScope } from '../../lib/site-scope.ts';

/**
 * The SQL of break-glass access: its review and the review queue (the grant itself is a request,
 * impersonation.repo.ts insertRequest with `breakGlass`).
 */

/** Closes a review: who, when, the note; the request's version is raised as every change does. */
export async function closeReview(
  db: Queryable,
  id: number,
  r: { by: string; at: Date; note: string },
): Promise<void> {
  await execute(
    db,
    qb
      .updateTable('impersonation_requests')
      .set((eb) => ({
        review_closed_at: r.at,
        review_closed_by: r.by,
        review_note: r.note,
        modified_at: r.at,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id),
  );
}

/** A break-glass access's columns as its review shows it. */
const REVIEW_COLUMNS = [
  'r.id',
  'r.app_id',
  's.app_name',
  'r.initiator_email',
  'r.created_at',
  'r.reason_code',
  'r.case_reference',
  'r.duration_minutes',
  'r.status',
  'r.expires_at',
  'r.review_closed_at',
  'r.review_closed_by',
  'r.review_note',
] as const;

/**
 * The open reviews, the oldest first (DASHBOARD_ITEMS of them), each row with how many are open
 * and how many were opened before `overdueBefore` (one statement).
 */
export function openReviews(db: Queryable, overdueBefore: Date) {
  return rows(
    db,
    qb
      .selectFrom('impersonation_requests as r')
      .innerJoin('sites as s', 's.app_id', 'r.app_id')
      .select(REVIEW_COLUMNS)
      .select([
        sql<string>`count(*) over ()`.as('open_count'),
        sql<string>`count(*) filter (where r.created_at <= ${overdueBefore}) over ()`.as('overdue_count'),
      ])
      .where('r.break_glass', '=', true)
      .where('r.review_closed_at', 'is', null)
      .orderBy('r.created_at')
      .orderBy('r.id')
      .limit(DASHBOARD_ITEMS),
  );
}

/** Where a page of reviews starts: the last row's opening (as PostgreSQL writes it) and id. */
export interface ReviewKey {
  at: string;
  id: string;
}

/**
 * A page of the reviews page: the open ones oldest first (their partial index), or those closed
 * since `closedSince` (`closed`), or both (`all`), newest opening first (break-glass rows' partial
 * index, migration 0075), after `after`, at most `limit`, the caller's sites only. One statement.
 */
export function reviewsPage(
  db: Queryable,
  q: {
    state: BreakGlassReviewState;
    closedSince: Date;
    after: ReviewKey | undefined;
    limit: number;
    scope: readonly SiteScope[] | undefined;
  },
) {
  const oldestFirst = q.state === 'open';
  const dir = oldestFirst ? 'asc' : 'desc';
  const after = q.after;
  const inScope = siteRowInScope(q.scope, 's');
  return rows(
    db,
    qb
      .selectFrom('impersonation_requests as r')
      .innerJoin('sites as s', 's.app_id', 'r.app_id')
      .select(REVIEW_COLUMNS)
      .select((eb) => eb.cast<string>('r.created_at', 'text').as('at_key'))
      .where('r.break_glass', '=', true)
      .where((eb) => {
        const open = eb('r.review_closed_at', 'is', null);
        const closed = eb('r.review_closed_at', '>=', q.closedSince);
        return q.state === 'open' ? open : q.state === 'closed' ? closed : eb.or([open, closed]);
      })
      .$if(after !== undefined, (s) =>
        s.where(
          oldestFirst
            ? sql<boolean>`(r.created_at, r.id) > (${after?.at}::timestamptz, ${after?.id}::bigint)`
            : sql<boolean>`(r.created_at, r.id) < (${after?.at}::timestamptz, ${after?.id}::bigint)`,
        ),
      )
      .$if(inScope !== undefined, (s) => s.where(inScope!))
      .orderBy('r.created_at', dir)
      .orderBy('r.id', dir)
      .limit(q.limit),
  );
}
