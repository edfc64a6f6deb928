import {
  DASHBOARD_DAYS,
  DASHBOARD_GRANTS,
  DASHBOARD_ITEMS,
  RECENT_CUSTOMERS_KEPT,
} from '@sac/contract/dashboard';
import type { Queryable } from '../../db/db.ts';

/*
 * The dashboard's reads. Every one walks an index or a counter table (migration 0042), never a
 * table of customers or sites: the call answers in milliseconds at a million customers.
 */

/** The expression of impersonation_requests_pending_priority_idx (migration 0042), word for word. */
const PRIORITY_RANK = `CASE priority WHEN 'Critical' THEN 4 WHEN 'High' THEN 3 WHEN 'Moderate' THEN 2 ELSE 1 END`;
/** Not the viewer's own request ($1 uid, $2 email): nobody decides their own. */
const NOT_MINE = `r.initiator_uid IS DISTINCT FROM $1 AND lower(r.initiator_email) <> lower($2)`;

export interface PendingRow {
  id: number;
  app_name: string;
  priority: string;
  initiator_email: string;
  created_at: Date;
  consent: boolean;
  assigned: boolean;
}

/**
 * Pending requests an approver may decide, most urgent first, then oldest: a walk of the pending
 * requests' priority index, cut at five (a sort of the whole pile took 15 ms at 2,000 on PGlite).
 */
export async function awaitingDecision(
  db: Queryable,
  uid: string,
  email: string,
): Promise<{ count: number; items: PendingRow[] }> {
  const where = `r.status = 'Pending' AND r.deleted_at IS NULL AND ${NOT_MINE}`;
  const [count, items] = await Promise.all([
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM impersonation_requests r WHERE ${where}`, [
      uid,
      email,
    ]),
    // The page is cut first and only then joined to its sites: a join first hashed every site.
    db.query<PendingRow>(
      `SELECT p.id, s.app_name, p.priority, p.initiator_email, p.created_at, p.consent, p.assigned
         FROM (SELECT r.id, r.app_id, r.priority, r.initiator_email, r.created_at,
                      (r.consent = 'granted' OR r.is_customer_request) AS consent,
                      r.assignees @> ARRAY[lower($2)] OR r.assignees @> ARRAY[$2::text] AS assigned,
                      ${PRIORITY_RANK} AS rank
                 FROM impersonation_requests r
                WHERE ${where}
                ORDER BY ${PRIORITY_RANK} DESC, r.created_at, r.id
                LIMIT ${DASHBOARD_ITEMS}) p
         JOIN sites s ON s.app_id = p.app_id
        ORDER BY p.rank DESC, p.created_at, p.id`,
      [uid, email],
    ),
  ]);
  return { count: count.rows[0]?.n ?? 0, items: items.rows };
}

/** The viewer's own requests still pending (what they asked for: the initiator index). */
export async function minePending(db: Queryable, email: string): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM impersonation_requests
      WHERE lower(initiator_email) = lower($1) AND status = 'Pending' AND deleted_at IS NULL`,
    [email],
  );
  return r.rows[0]?.n ?? 0;
}

export interface GrantRow {
  id: number;
  app_name: string;
  holder_email: string | null;
  approved_roles: string[];
  approved_permissions: string[];
  expires_at: Date;
  mine: boolean;
}

/** Unexpired grants, soonest to end first: all of them, or those `holderUid` holds. */
export async function liveGrants(
  db: Queryable,
  now: Date,
  viewer: { uid: string; email: string },
  holderUid: string | null,
): Promise<{ count: number; items: GrantRow[] }> {
  const live = (now: string, holder: string) =>
    `r.status = 'Approved' AND r.deleted_at IS NULL AND r.expires_at > ${now}
     AND (${holder}::uuid IS NULL OR r.holder_uid = ${holder})`;
  const [count, items] = await Promise.all([
    db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM impersonation_requests r WHERE ${live('$1', '$2')}`,
      [now, holderUid],
    ),
    db.query<GrantRow>(
      `SELECT g.id, s.app_name, g.holder_email, g.approved_roles, g.approved_permissions, g.expires_at, g.mine
         FROM (SELECT r.id, r.app_id, r.holder_email, r.approved_roles, r.approved_permissions, r.expires_at,
                      NOT (${NOT_MINE}) AS mine
                 FROM impersonation_requests r
                WHERE ${live('$3', '$4')}
                ORDER BY r.expires_at, r.id
                LIMIT ${DASHBOARD_GRANTS}) g
         JOIN sites s ON s.app_id = g.app_id
        ORDER BY g.expires_at, g.id`,
      [viewer.uid, viewer.email, now, holderUid],
    ),
  ]);
  return { count: count.rows[0]?.n ?? 0, items: items.rows };
}

export interface DayRow {
  day: string;
  customers: number;
  sites: number;
}

/** Totals (the sum of the daily counters) and the days since `from` (a UTC date). */
export async function creationDays(
  db: Queryable,
  from: string,
): Promise<{ customers: number; sites: number; days: DayRow[] }> {
  const [totals, days] = await Promise.all([
    db.query<{ customers: number; sites: number }>(
      'SELECT coalesce(sum(customers), 0)::bigint AS customers, coalesce(sum(sites), 0)::bigint AS sites FROM dashboard_days',
    ),
    db.query<DayRow>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, customers, sites FROM dashboard_days
        WHERE day >= $1::date ORDER BY day LIMIT ${DASHBOARD_DAYS + 1}`,
      [from],
    ),
  ]);
  return {
    customers: Number(totals.rows[0]?.customers ?? 0),
    sites: Number(totals.rows[0]?.sites ?? 0),
    days: days.rows.map((d) => ({ ...d, customers: Number(d.customers), sites: Number(d.sites) })),
  };
}

/** Sites by plan and data center, with the data centers' names. */
export async function siteCounts(
  db: Queryable,
): Promise<Array<{ plan: string; data_center: string; name: string | null; sites: number }>> {
  const r = await db.query<{ plan: string; data_center: string; name: string | null; sites: number }>(
    `SELECT c.plan, c.data_center, d.name, c.sites FROM dashboard_site_counts c
       LEFT JOIN data_centers d ON d.code = c.data_center WHERE c.sites <> 0`,
  );
  return r.rows.map((x) => ({ ...x, sites: Number(x.sites) }));
}

export interface TrialRow {
  app_id: number;
  app_name: string;
  owner_uid: string;
  trial_ends_at: Date;
}

/** Trials ending in [now, until), soonest first. */
export async function trialsEnding(
  db: Queryable,
  now: Date,
  until: Date,
): Promise<{ count: number; items: TrialRow[] }> {
  const where = `plan_status = 'Trial' AND trial_ends_at >= $1 AND trial_ends_at < $2`;
  const [count, items] = await Promise.all([
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sites WHERE ${where}`, [now, until]),
    db.query<TrialRow>(
      `SELECT app_id, app_name, owner_uid, trial_ends_at FROM sites WHERE ${where}
        ORDER BY trial_ends_at, app_id LIMIT ${DASHBOARD_ITEMS}`,
      [now, until],
    ),
  ]);
  return { count: count.rows[0]?.n ?? 0, items: items.rows.map((t) => ({ ...t, app_id: Number(t.app_id) })) };
}

/** Pending and failing custom domains: each count walks its partial index (0008, 0045). */
export async function domainTrouble(db: Queryable): Promise<{ pending: number; failing: number }> {
  const r = await db.query<{ pending: number; failing: number }>(
    `SELECT (SELECT count(*) FROM custom_domains WHERE status = 'Pending Verification')::int AS pending,
            (SELECT count(*) FROM custom_domains WHERE failing_since IS NOT NULL)::int AS failing`,
  );
  return { pending: r.rows[0]?.pending ?? 0, failing: r.rows[0]?.failing ?? 0 };
}

/** login.failed and login.lockout since `since` (the activity log's action index). */
export async function signInTrouble(
  db: Queryable,
  since: Date,
): Promise<{ failures: number; lockouts: number }> {
  const r = await db.query<{ failures: number; lockouts: number }>(
    `SELECT (SELECT count(*) FROM activity_log WHERE action = 'login.failed' AND at > $1)::int AS failures,
            (SELECT count(*) FROM activity_log WHERE action = 'login.lockout' AND at > $1)::int AS lockouts`,
    [since],
  );
  return { failures: r.rows[0]?.failures ?? 0, lockouts: r.rows[0]?.lockouts ?? 0 };
}

/** Staff members with neither a confirmed authenticator app nor a passkey (the team is small). */
export async function staffWithoutFactor(db: Queryable): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM staff s
      WHERE NOT EXISTS (SELECT 1 FROM staff_totp t WHERE t.uid = s.uid AND t.confirmed_at IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM staff_passkeys p WHERE p.uid = s.uid)`,
  );
  return r.rows[0]?.n ?? 0;
}

export interface RecentRow {
  uid: string;
  first_name: string;
  last_name: string;
  email: string;
  viewed_at: Date;
}

/** A view of a customer by a staff member not yet written (recent-views.ts). */
export interface PendingView {
  staffUid: string;
  customerUid: string;
  at: Date;
}

/** A staff member's newest RECENT_CUSTOMERS_KEPT views: the table's, and `pending` ones of this instance. */
export async function recentCustomers(
  db: Queryable,
  staffUid: string,
  pending: PendingView[] = [],
): Promise<RecentRow[]> {
  if (pending.length === 0) {
    const r = await db.query<RecentRow>(
      `SELECT c.uid, c.first_name, c.last_name, c.email, v.viewed_at
         FROM staff_recent_customers v JOIN customers c ON c.uid = v.customer_uid
        WHERE v.staff_uid = $1 ORDER BY v.viewed_at DESC, c.uid LIMIT ${RECENT_CUSTOMERS_KEPT}`,
      [staffUid],
    );
    return r.rows;
  }
  const r = await db.query<RecentRow>(
    `SELECT c.uid, c.first_name, c.last_name, c.email, v.viewed_at
       FROM (SELECT customer_uid, max(viewed_at) AS viewed_at
               FROM (SELECT customer_uid, viewed_at FROM staff_recent_customers WHERE staff_uid = $1
                     UNION ALL
                     SELECT * FROM unnest($2::uuid[], $3::timestamptz[]) AS p (customer_uid, viewed_at)) a
              GROUP BY customer_uid) v
       JOIN customers c ON c.uid = v.customer_uid
      ORDER BY v.viewed_at DESC, c.uid LIMIT ${RECENT_CUSTOMERS_KEPT}`,
    [staffUid, pending.map((p) => p.customerUid), pending.map((p) => p.at)],
  );
  return r.rows;
}

/**
 * Writes a batch of views (one per staff member and customer) in one statement: each staff
 * member's list becomes the newest RECENT_CUSTOMERS_KEPT of what it held and what the batch adds.
 * Views of a customer or staff member since deleted are left out. Two instances writing one
 * member's views at once may leave a few more rows until the next batch; the read takes the newest.
 */
export async function recordCustomerViews(db: Queryable, views: PendingView[]): Promise<void> {
  await db.query(
    `WITH batch AS (
       SELECT b.staff_uid, b.customer_uid, b.viewed_at
         FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) AS b (staff_uid, customer_uid, viewed_at)
        WHERE EXISTS (SELECT 1 FROM staff s WHERE s.uid = b.staff_uid)
          AND EXISTS (SELECT 1 FROM customers c WHERE c.uid = b.customer_uid)
     ), ranked AS (
       SELECT staff_uid, customer_uid,
              row_number() OVER (PARTITION BY staff_uid ORDER BY max(viewed_at) DESC, customer_uid) AS n
         FROM (SELECT staff_uid, customer_uid, viewed_at FROM staff_recent_customers
                WHERE staff_uid IN (SELECT staff_uid FROM batch)
               UNION ALL
               SELECT staff_uid, customer_uid, viewed_at FROM batch) a
        GROUP BY staff_uid, customer_uid
     ), kept AS (
       INSERT INTO staff_recent_customers (staff_uid, customer_uid, viewed_at)
       SELECT b.staff_uid, b.customer_uid, b.viewed_at
         FROM batch b JOIN ranked r ON r.staff_uid = b.staff_uid AND r.customer_uid = b.customer_uid
        WHERE r.n <= ${RECENT_CUSTOMERS_KEPT}
       ON CONFLICT (staff_uid, customer_uid)
       DO UPDATE SET viewed_at = GREATEST(staff_recent_customers.viewed_at, EXCLUDED.viewed_at)
       RETURNING 1
     )
     DELETE FROM staff_recent_customers o USING ranked r
      WHERE o.staff_uid = r.staff_uid AND o.customer_uid = r.customer_uid AND r.n > ${RECENT_CUSTOMERS_KEPT}`,
    [views.map((v) => v.staffUid), views.map((v) => v.customerUid), views.map((v) => v.at)],
  );
}
