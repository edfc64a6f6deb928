import type { Queryable } from '../../db/db.ts';

/** The SQL of impersonation sessions: live grants and the sites a customer belongs to. */

/** An approved, consented, undeleted and unexpired impersonation request, with its site's name. */
export interface GrantRow {
  id: number;
  app_id: number;
  app_name: string;
  holder_uid: string | null;
  approved_roles: string[];
  approved_permissions: string[];
  expires_at: Date;
}

const GRANT_SQL = `SELECT r.id, r.app_id, s.app_name, r.holder_uid, r.approved_roles, r.approved_permissions, r.expires_at
  FROM impersonation_requests r JOIN sites s ON s.app_id = r.app_id
  WHERE r.status = 'Approved' AND r.consent = 'granted' AND r.deleted_at IS NULL AND r.expires_at > $1`;

/**
 * Reads the live grant on a site that `holderUid` holds at `now` (the latest expiry first), with
 * its request row locked FOR SHARE when `lock`: a revoke or delete of the grant waits for the
 * caller's commit, and the caller's write made under it sees the grant as it stays.
 */
export async function liveGrantOfHolder(
  db: Queryable,
  now: Date,
  appId: number,
  holderUid: string,
  lock = false,
): Promise<GrantRow | undefined> {
  const r = await db.query<GrantRow>(
    `${GRANT_SQL} AND r.app_id = $2 AND r.holder_uid = $3 ORDER BY r.expires_at DESC LIMIT 1${lock ? ' FOR SHARE OF r' : ''}`,
    [now, appId, holderUid],
  );
  return r.rows[0];
}

/** Reads one request's grant while it is live at `now`; undefined when it is not (or no longer) live. */
export async function liveGrantOfRequest(
  db: Queryable,
  now: Date,
  requestId: number,
): Promise<GrantRow | undefined> {
  const r = await db.query<GrantRow>(`${GRANT_SQL} AND r.id = $2`, [now, requestId]);
  return r.rows[0];
}

/** Reads whether a customer owns the site or is one of its members. */
export async function isOwnerOrMemberOfSite(
  db: Queryable,
  appId: number,
  customerUid: string,
): Promise<boolean> {
  const r = await db.query(
    `SELECT 1 FROM sites s LEFT JOIN site_members m ON m.app_id = s.app_id AND m.customer_uid = $2
     WHERE s.app_id = $1 AND (s.owner_uid = $2 OR m.customer_uid IS NOT NULL)`,
    [appId, customerUid],
  );
  return r.rows.length > 0;
}
