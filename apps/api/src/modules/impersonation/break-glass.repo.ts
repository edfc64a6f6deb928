import { DASHBOARD_ITEMS } from '@sac/contract/dashboard';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, qb, rows } from '../../db/sql.ts';

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
      .select([
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
