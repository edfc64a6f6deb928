import type { StaffNotificationKind } from '@sac/contract/staff-notifications';
import type { Queryable } from '../../db/db.ts';

export interface NotificationRow {
  id: number;
  recipient_uid: string;
  kind: StaffNotificationKind;
  request_id: number | null;
  app_name: string | null;
  actor_email: string | null;
  details: { status?: string; expiresAt?: string; count?: number };
  created_at: Date;
  read_at: Date | null;
}

const COLUMNS = 'id, recipient_uid, kind, request_id, app_name, actor_email, details, created_at, read_at';

/** Staff members by uid or email (case-insensitively), each once. */
export async function findRecipients(
  db: Queryable,
  uids: string[],
  emails: string[],
): Promise<Array<{ uid: string; email: string }>> {
  const r = await db.query<{ uid: string; email: string }>(
    `SELECT uid, email FROM staff WHERE uid = ANY($1::uuid[]) OR lower(email) = ANY($2::text[])`,
    [uids, emails.map((e) => e.toLowerCase())],
  );
  return r.rows;
}

/** One row per recipient, in the caller's transaction; answers the rows. */
export async function insertNotifications(
  db: Queryable,
  n: {
    recipients: string[];
    kind: StaffNotificationKind;
    requestId: number | null;
    appName: string | null;
    actorEmail: string | null;
    details: Record<string, unknown>;
    at: Date;
  },
): Promise<NotificationRow[]> {
  const r = await db.query<NotificationRow>(
    `INSERT INTO staff_notifications (recipient_uid, kind, request_id, app_name, actor_email, details, created_at)
     SELECT u, $2, $3, $4, $5, $6, $7 FROM unnest($1::uuid[]) AS u
     RETURNING ${COLUMNS}`,
    [n.recipients, n.kind, n.requestId, n.appName, n.actorEmail, JSON.stringify(n.details), n.at],
  );
  return r.rows;
}

/** A page of a recipient's notifications, newest first, before an id; one more tells of a next page. */
export async function pageNotifications(
  db: Queryable,
  uid: string,
  beforeId: number | null,
  limit: number,
): Promise<NotificationRow[]> {
  const r = await db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM staff_notifications
     WHERE recipient_uid = $1 AND ($2::bigint IS NULL OR id < $2)
     ORDER BY id DESC LIMIT $3`,
    [uid, beforeId, limit],
  );
  return r.rows;
}

/** What the stream has not sent yet: a recipient's notifications after an id, oldest first. */
export async function notificationsAfter(
  db: Queryable,
  uid: string,
  afterId: number,
  limit: number,
): Promise<NotificationRow[]> {
  const r = await db.query<NotificationRow>(
    `SELECT ${COLUMNS} FROM staff_notifications WHERE recipient_uid = $1 AND id > $2 ORDER BY id LIMIT $3`,
    [uid, afterId, limit],
  );
  return r.rows;
}

/** The newest notification id of a recipient (0 without one): where a fresh stream starts. */
export async function lastNotificationId(db: Queryable, uid: string): Promise<number> {
  const r = await db.query<{ id: number | null }>(
    'SELECT max(id) AS id FROM staff_notifications WHERE recipient_uid = $1',
    [uid],
  );
  return Number(r.rows[0]?.id ?? 0);
}

export async function unreadCount(db: Queryable, uid: string): Promise<number> {
  const r = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM staff_notifications WHERE recipient_uid = $1 AND read_at IS NULL',
    [uid],
  );
  return r.rows[0]?.n ?? 0;
}

/** Marks the recipient's own unread ones (ids, or every one) read; answers how many changed. */
export async function markRead(db: Queryable, uid: string, ids: number[] | 'all', at: Date): Promise<number> {
  const r = await db.query(
    `UPDATE staff_notifications SET read_at = $3
     WHERE recipient_uid = $1 AND read_at IS NULL AND ($2::bigint[] IS NULL OR id = ANY($2::bigint[]))
     RETURNING id`,
    [uid, ids === 'all' ? null : ids, at],
  );
  return r.rows.length;
}

export async function preferencesOf(
  db: Queryable,
  uids: string[],
  kind?: StaffNotificationKind,
): Promise<Array<{ uid: string; kind: StaffNotificationKind; email: boolean }>> {
  const r = await db.query<{ uid: string; kind: StaffNotificationKind; email: boolean }>(
    `SELECT uid, kind, email FROM staff_notification_preferences
     WHERE uid = ANY($1::uuid[]) AND ($2::text IS NULL OR kind = $2)`,
    [uids, kind ?? null],
  );
  return r.rows;
}

export async function savePreferences(
  db: Queryable,
  uid: string,
  prefs: Array<{ kind: StaffNotificationKind; email: boolean }>,
): Promise<void> {
  await db.query(
    `INSERT INTO staff_notification_preferences (uid, kind, email)
     SELECT $1, k, e FROM unnest($2::text[], $3::boolean[]) AS p(k, e)
     ON CONFLICT (uid, kind) DO UPDATE SET email = EXCLUDED.email`,
    [uid, prefs.map((p) => p.kind), prefs.map((p) => p.email)],
  );
}

/** Session ids among `ids` still live (not ended, not idle too long, not past their lifetime). */
export async function liveSessionIds(
  db: Queryable,
  ids: number[],
  now: Date,
  policy: { idleMs: number; absoluteMs: number },
): Promise<Set<number>> {
  const r = await db.query<{ id: number }>(
    `SELECT id FROM staff_sessions
     WHERE id = ANY($1::bigint[]) AND revoked_at IS NULL AND last_used_at > $2 AND created_at > $3`,
    [ids, new Date(now.getTime() - policy.idleMs), new Date(now.getTime() - policy.absoluteMs)],
  );
  return new Set(r.rows.map((x) => Number(x.id)));
}

/** Deletes up to `limit` notifications written before `before`, oldest first; answers how many. */
export async function deleteOlderThan(db: Queryable, before: Date, limit: number): Promise<number> {
  const r = await db.query<{ n: number }>(
    `WITH gone AS (DELETE FROM staff_notifications WHERE id IN (
       SELECT id FROM staff_notifications WHERE created_at < $1 ORDER BY created_at LIMIT $2) RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [before, limit],
  );
  return r.rows[0]?.n ?? 0;
}
