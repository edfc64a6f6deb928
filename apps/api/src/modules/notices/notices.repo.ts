import type { NoticeAudience, NoticeKind, NoticeStatus } from '@sac/contract/notices';
import type { Queryable } from '../../db/db.ts';

export interface NoticeRow {
  id: number;
  kind: NoticeKind;
  subject: string;
  body_text: string;
  audience: NoticeAudience;
  status: NoticeStatus;
  send_at: Date;
  created_at: Date;
  created_by_uid: string | null;
  created_by_email: string;
  started_at: Date | null;
  queued_at: Date | null;
  finished_at: Date | null;
  cancelled_by_email: string | null;
  failure_reason: string | null;
  total: number;
}

export interface Progress {
  total: number;
  sent: number;
  failed: number;
  skipped: number;
}

/** The sites' owners an audience names (a WHERE over sites s JOIN customers c), with its parameters. */
function audienceFilter(a: NoticeAudience, first: number): { where: string; params: unknown[] } {
  const alive = "c.status <> 'Deleted'";
  switch (a.Type) {
    case 'plan':
      return { where: `${alive} AND s.plan = ANY($${first}::text[])`, params: [a.Plans ?? []] };
    case 'data-center':
      return { where: `${alive} AND s.data_center = ANY($${first}::text[])`, params: [a.DataCenters ?? []] };
    case 'sites':
      return { where: `${alive} AND s.app_id = ANY($${first}::bigint[])`, params: [a.AppIds ?? []] };
    default:
      return { where: alive, params: [] };
  }
}

/** Distinct owner addresses an audience reaches, counted up to `cap` + 1 (beyond the cap the exact figure does not matter). */
export async function countAudience(db: Queryable, a: NoticeAudience, cap: number): Promise<number> {
  const f = audienceFilter(a, 2);
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT DISTINCT lower(c.email) FROM sites s JOIN customers c ON c.uid = s.owner_uid
        WHERE ${f.where} LIMIT $1) x`,
    [cap + 1, ...f.params],
  );
  return r.rows[0]?.n ?? 0;
}

/** One row per owner address of the audience; answers how many. */
export async function resolveRecipients(q: Queryable, noticeId: number, a: NoticeAudience): Promise<number> {
  const f = audienceFilter(a, 2);
  const r = await q.query<{ id: number }>(
    `INSERT INTO customer_notice_recipients (notice_id, email, first_name)
     SELECT DISTINCT ON (lower(c.email)) $1::bigint, lower(c.email), c.first_name
       FROM sites s JOIN customers c ON c.uid = s.owner_uid
      WHERE ${f.where}
      ORDER BY lower(c.email), c.first_name
     ON CONFLICT (notice_id, email) DO NOTHING
     RETURNING id`,
    [noticeId, ...f.params],
  );
  return r.rows.length;
}

export async function insertNotice(
  q: Queryable,
  n: {
    kind: NoticeKind;
    subject: string;
    text: string;
    audience: NoticeAudience;
    sendAt: Date;
    now: Date;
    byUid: string;
    byEmail: string;
  },
): Promise<NoticeRow> {
  const r = await q.query<NoticeRow>(
    `INSERT INTO customer_notices (kind, subject, body_text, audience, send_at, created_at, created_by_uid, created_by_email)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
    [n.kind, n.subject, n.text, JSON.stringify(n.audience), n.sendAt, n.now, n.byUid, n.byEmail],
  );
  return r.rows[0]!;
}

export async function dataCenters(q: Queryable): Promise<Array<{ code: string; name: string }>> {
  return (await q.query<{ code: string; name: string }>('SELECT code, name FROM data_centers ORDER BY code'))
    .rows;
}

/** One notice; `lock` locks its row FOR UPDATE (a cancel decides under it, the job skips it meanwhile). */
export async function findNotice(q: Queryable, id: number, lock = false): Promise<NoticeRow | undefined> {
  return (
    await q.query<NoticeRow>(`SELECT * FROM customer_notices WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id])
  ).rows[0];
}

/** A page of notices, newest first, before the cursor's id. */
export async function listNotices(
  q: Queryable,
  before: number | undefined,
  limit: number,
): Promise<NoticeRow[]> {
  const r = await q.query<NoticeRow>(
    `SELECT * FROM customer_notices WHERE ($1::bigint IS NULL OR id < $1) ORDER BY id DESC LIMIT $2`,
    [before ?? null, limit],
  );
  return r.rows;
}

/** Delivery counts of notices, from their recipients' outbox rows. */
export async function progressOf(q: Queryable, ids: number[]): Promise<Map<number, Progress>> {
  const out = new Map<number, Progress>();
  if (ids.length === 0) return out;
  const r = await q.query<{
    notice_id: number;
    total: number;
    sent: number;
    failed: number;
    skipped: number;
  }>(
    `SELECT r.notice_id, count(*)::int AS total,
            count(*) FILTER (WHERE o.sent_at IS NOT NULL)::int AS sent,
            count(*) FILTER (WHERE o.failed_at IS NOT NULL)::int AS failed,
            count(*) FILTER (WHERE r.skipped_reason IS NOT NULL)::int AS skipped
       FROM customer_notice_recipients r LEFT JOIN mail_outbox o ON o.id = r.outbox_id
      WHERE r.notice_id = ANY($1::bigint[])
      GROUP BY r.notice_id`,
    [ids],
  );
  for (const row of r.rows) out.set(Number(row.notice_id), row);
  return out;
}

/** Cancels a notice only while it is scheduled; answers the row, or undefined when it was not. */
export async function cancelScheduled(
  q: Queryable,
  id: number,
  now: Date,
  by: string,
): Promise<NoticeRow | undefined> {
  const r = await q.query<NoticeRow>(
    `UPDATE customer_notices SET status = 'cancelled', cancelled_at = $2, cancelled_by_email = $3
      WHERE id = $1 AND status = 'scheduled' RETURNING *`,
    [id, now, by],
  );
  return r.rows[0];
}

export interface DeliveryRow {
  id: number;
  email: string;
  skipped_reason: string | null;
  queued_at: Date | null;
  attempts: number | null;
  sent_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
  next_attempt_at: Date | null;
}

const DELIVERY_STATUS_SQL = `CASE WHEN r.skipped_reason IS NOT NULL THEN 'skipped'
  WHEN r.queued_at IS NULL THEN 'pending'
  WHEN o.sent_at IS NOT NULL THEN 'sent'
  WHEN o.failed_at IS NOT NULL THEN 'failed'
  WHEN o.last_error IS NOT NULL THEN 'retrying'
  ELSE 'queued' END`;

/** A page of a notice's delivery log, by recipient id, optionally of one status. */
export async function deliveries(
  q: Queryable,
  noticeId: number,
  status: string | undefined,
  after: number | undefined,
  limit: number,
): Promise<Array<DeliveryRow & { status: string }>> {
  const r = await q.query<DeliveryRow & { status: string }>(
    `SELECT * FROM (
       SELECT r.id, r.email, r.skipped_reason, r.queued_at, o.attempts, o.sent_at, o.failed_at, o.last_error,
              o.next_attempt_at, ${DELIVERY_STATUS_SQL} AS status
         FROM customer_notice_recipients r LEFT JOIN mail_outbox o ON o.id = r.outbox_id
        WHERE r.notice_id = $1 AND ($2::bigint IS NULL OR r.id > $2)) d
      WHERE ($3::text IS NULL OR d.status = $3)
      ORDER BY d.id LIMIT $4`,
    [noticeId, after ?? null, status ?? null, limit],
  );
  return r.rows;
}

// The sending job's steps.

/** Claims due scheduled notices (another run skips the rows this one holds). */
export async function claimDue(q: Queryable, now: Date, limit: number): Promise<NoticeRow[]> {
  const r = await q.query<NoticeRow>(
    `SELECT * FROM customer_notices WHERE status = 'scheduled' AND send_at <= $1
      ORDER BY send_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, limit],
  );
  return r.rows;
}

export async function markStarted(q: Queryable, id: number, now: Date, total: number): Promise<void> {
  await q.query(`UPDATE customer_notices SET status = 'sending', started_at = $2, total = $3 WHERE id = $1`, [
    id,
    now,
    total,
  ]);
}

export async function markFailed(q: Queryable, id: number, now: Date, reason: string): Promise<void> {
  await q.query(
    `UPDATE customer_notices SET status = 'failed', started_at = $2, finished_at = $2, failure_reason = $3 WHERE id = $1`,
    [id, now, reason],
  );
}

/** Notices being sent that still have recipients to queue. */
export async function sendingWithWork(q: Queryable): Promise<NoticeRow[]> {
  const r = await q.query<NoticeRow>(
    `SELECT * FROM customer_notices WHERE status = 'sending' AND queued_at IS NULL ORDER BY started_at, id LIMIT 10`,
  );
  return r.rows;
}

/**
 * Claims the next batch of a notice's unqueued recipients (rows another run holds are skipped),
 * each with whether its address unsubscribed from announcements.
 */
export async function claimBatch(
  q: Queryable,
  noticeId: number,
  limit: number,
): Promise<Array<{ id: number; email: string; first_name: string; unsubscribed: boolean }>> {
  const r = await q.query<{ id: number; email: string; first_name: string; unsubscribed: boolean }>(
    `SELECT r.id, r.email, r.first_name, (u.email IS NOT NULL) AS unsubscribed
       FROM customer_notice_recipients r LEFT JOIN notice_unsubscribes u ON u.email = r.email
      WHERE r.notice_id = $1 AND r.queued_at IS NULL AND r.skipped_reason IS NULL
      ORDER BY r.id LIMIT $2 FOR UPDATE OF r SKIP LOCKED`,
    [noticeId, limit],
  );
  return r.rows;
}

export async function markQueued(q: Queryable, now: Date, ids: number[], outboxIds: number[]): Promise<void> {
  await q.query(
    `UPDATE customer_notice_recipients r SET outbox_id = m.outbox_id, queued_at = $1
       FROM unnest($2::bigint[], $3::bigint[]) AS m (id, outbox_id) WHERE r.id = m.id`,
    [now, ids, outboxIds],
  );
}

export async function markSkipped(q: Queryable, ids: number[], reason: string): Promise<void> {
  if (ids.length > 0)
    await q.query('UPDATE customer_notice_recipients SET skipped_reason = $2 WHERE id = ANY($1::bigint[])', [
      ids,
      reason,
    ]);
}

/** A notice whose every recipient is queued or skipped is marked so (no more batches). */
export async function markAllQueued(q: Queryable, noticeId: number, now: Date): Promise<void> {
  await q.query(
    `UPDATE customer_notices n SET queued_at = $2 WHERE n.id = $1 AND n.queued_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM customer_notice_recipients r
                         WHERE r.notice_id = n.id AND r.queued_at IS NULL AND r.skipped_reason IS NULL)`,
    [noticeId, now],
  );
}

/** Notices whose every queued mail has been sent or given up are sent. */
export async function finishDelivered(q: Queryable, now: Date): Promise<number> {
  const r = await q.query(
    `UPDATE customer_notices n SET status = 'sent', finished_at = $1
      WHERE n.status = 'sending' AND n.queued_at IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM customer_notice_recipients r JOIN mail_outbox o ON o.id = r.outbox_id
                         WHERE r.notice_id = n.id AND o.sent_at IS NULL AND o.failed_at IS NULL)
     RETURNING n.id`,
    [now],
  );
  return r.rows.length;
}

export async function unsubscribed(q: Queryable, email: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM notice_unsubscribes WHERE email = $1', [email])).rows.length > 0;
}

/** True when the address was newly unsubscribed. */
export async function unsubscribe(q: Queryable, email: string, now: Date): Promise<boolean> {
  const r = await q.query(
    'INSERT INTO notice_unsubscribes (email, unsubscribed_at) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING RETURNING email',
    [email, now],
  );
  return r.rows.length === 1;
}
