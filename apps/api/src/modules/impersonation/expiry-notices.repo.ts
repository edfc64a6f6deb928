import type { Queryable } from '../../db/db.ts';

/** An approved grant whose time is up, claimed for its expiry notice. */
export interface ExpiredGrant {
  id: number;
  app_name: string;
  holder_email: string | null;
  owner_email: string;
  owner_first_name: string;
  expires_at: Date;
}

/**
 * Claims up to `batch` approved grants that ended by `now` and were not noticed yet, stamping
 * them in the one UPDATE that selects them: two runs at once never claim the same row, and a row
 * locked by another run is skipped rather than waited for.
 */
export async function claimExpiredGrants(db: Queryable, now: Date, batch: number): Promise<ExpiredGrant[]> {
  return (
    await db.query<ExpiredGrant>(
      `WITH due AS (
       SELECT id FROM impersonation_requests
       WHERE status = 'Approved' AND expiry_notified_at IS NULL AND expires_at <= $1 AND deleted_at IS NULL
       ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE impersonation_requests r SET expiry_notified_at = $1
     FROM due, sites s JOIN customers c ON c.uid = s.owner_uid
     WHERE r.id = due.id AND s.app_id = r.app_id AND r.expiry_notified_at IS NULL
     RETURNING r.id, s.app_name, (SELECT h.email FROM staff h WHERE h.uid = r.holder_uid) AS holder_email,
       c.email AS owner_email, c.first_name AS owner_first_name, r.expires_at`,
      [now, batch],
    )
  ).rows;
}

export interface ExpiringGrant {
  id: number;
  app_name: string;
  holder_uid: string | null;
  expires_at: Date;
}

/**
 * Approved grants that end within `withinMs` and were not told yet, claimed and stamped in the one
 * UPDATE that selects them (rows another run holds are skipped): a grant is told once, whatever
 * runs at once.
 */
export async function claimExpiringGrants(
  db: Queryable,
  now: Date,
  withinMs: number,
  batch: number,
): Promise<ExpiringGrant[]> {
  const r = await db.query<ExpiringGrant>(
    `WITH due AS (
       SELECT id FROM impersonation_requests
       WHERE status = 'Approved' AND expiring_notified_at IS NULL AND deleted_at IS NULL
         AND expires_at > $1 AND expires_at <= $2
       ORDER BY expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
     UPDATE impersonation_requests r SET expiring_notified_at = $1
     FROM due, sites s
     WHERE r.id = due.id AND s.app_id = r.app_id AND r.expiring_notified_at IS NULL
     RETURNING r.id, s.app_name, r.holder_uid, r.expires_at`,
    [now, new Date(now.getTime() + withinMs), batch],
  );
  return r.rows;
}
