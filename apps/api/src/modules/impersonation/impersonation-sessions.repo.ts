import type { NotNull } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { firstRow, qb } from '../../db/sql.ts';

/** The SQL of impersonation sessions: live grants and the sites a customer belongs to. */

/** Approved, consented, undeleted and unexpired impersonation requests, with their sites' names. */
const liveGrants = (now: Date) =>
  qb
    .selectFrom('impersonation_requests as r')
    .innerJoin('sites as s', 's.app_id', 'r.app_id')
    .select([
      'r.id',
      'r.app_id',
      's.app_name',
      'r.holder_uid',
      'r.approved_roles',
      'r.approved_permissions',
      'r.expires_at',
      'r.break_glass',
      'r.reason_code',
      'r.case_reference',
    ])
    .where('r.status', '=', 'Approved')
    .where('r.consent', '=', 'granted')
    .where('r.deleted_at', 'is', null)
    .where('r.expires_at', '>', now)
    // A live grant has its expiry (the condition above).
    .$narrowType<{ expires_at: NotNull }>();

/**
 * Reads the live grant on a site that `holderUid` holds at `now` (the latest expiry first), with
 * its request row locked FOR SHARE when `lock`: a revoke or delete of the grant waits for the
 * caller's commit, and the caller's write made under it sees the grant as it stays.
 */
export function liveGrantOfHolder(db: Queryable, now: Date, appId: number, holderUid: string, lock = false) {
  return firstRow(
    db,
    liveGrants(now)
      .where('r.app_id', '=', appId)
      .where('r.holder_uid', '=', holderUid)
      .orderBy('r.expires_at', 'desc')
      .limit(1)
      .$if(lock, (s) => s.forShare('r')),
  );
}

export type GrantRow = NonNullable<Awaited<ReturnType<typeof liveGrantOfHolder>>>;

/** Reads one request's grant while it is live at `now`; undefined when it is not (or no longer) live. */
export function liveGrantOfRequest(db: Queryable, now: Date, requestId: number) {
  return firstRow(db, liveGrants(now).where('r.id', '=', requestId));
}

/** Reads whether a customer owns the site or is one of its members. */
export async function isOwnerOrMemberOfSite(
  db: Queryable,
  appId: number,
  customerUid: string,
): Promise<boolean> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('sites as s')
      .leftJoin('site_members as m', (j) =>
        j.onRef('m.app_id', '=', 's.app_id').on('m.customer_uid', '=', customerUid),
      )
      .select('s.app_id')
      .where('s.app_id', '=', appId)
      .where((eb) => eb.or([eb('s.owner_uid', '=', customerUid), eb('m.customer_uid', 'is not', null)])),
  );
  return r !== undefined;
}
