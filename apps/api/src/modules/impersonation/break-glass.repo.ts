import { DASHBOARD_ITEMS } from '@sac/contract/dashboard';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';
import type { RequestWhy } from './impersonation.repo.ts';

/** The SQL of break-glass access: its grant, its review, the review queue. */

/**
 * A break-glass grant: an impersonation request stored Approved from the start, its holder the
 * opener, its consent given by the break-glass rule (consent_at NULL: never asked); its id.
 */
export async function insertBreakGlassGrant(
  db: Queryable,
  g: {
    appId: number;
    opener: { uid: string; email: string };
    description: string;
    why: RequestWhy;
    /** Those told, to whom the review falls: every other SuperAdmin. */
    assignees: string[];
    roles: string[];
    permissions: string[];
    minutes: number;
    at: Date;
  },
): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .insertInto('impersonation_requests')
      .values({
        app_id: g.appId,
        initiator_uid: g.opener.uid,
        initiator_email: g.opener.email,
        is_customer_request: false,
        consent: 'granted',
        priority: 'Critical',
        description: g.description,
        reason_code: g.why.reasonCode,
        case_reference: g.why.caseReference,
        assignees: g.assignees,
        proxy_roles: g.roles,
        additional_permissions: g.permissions,
        duration_minutes: g.minutes,
        status: 'Approved',
        action_taken_by: g.opener.email,
        action_taken_at: g.at,
        expires_at: new Date(g.at.getTime() + g.minutes * 60_000),
        approved_roles: g.roles,
        approved_permissions: g.permissions,
        holder_uid: g.opener.uid,
        holder_email: g.opener.email,
        break_glass: true,
        created_at: g.at,
        modified_at: g.at,
      })
      .returning('id'),
  );
  return Number(r!.id);
}

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
