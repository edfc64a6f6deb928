import type { StaffNotificationKind } from '@sac/contract/staff-notifications';
import { sql } from 'kysely';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb, rows } from '../../db/sql.ts';

const COLUMNS = [
  'id',
  'recipient_uid',
  'kind',
  'request_id',
  'app_name',
  'actor_email',
  'details',
  'created_at',
  'read_at',
] as const;

/** What notifyStaff writes into a notification's details (JSON). */
type Stored = { details: { status?: string; expiresAt?: string; count?: number; job?: number } };

/** Staff members by uid or email (case-insensitively), each once. */
export function findRecipients(db: Queryable, uids: string[], emails: string[]) {
  return rows(
    db,
    qb
      .selectFrom('staff')
      .select(['uid', 'email'])
      .where((eb) =>
        eb.or([
          eb('uid', '=', sql<string>`ANY(${uids}::uuid[])`),
          eb(eb.fn('lower', ['email']), '=', sql<string>`ANY(${emails.map((e) => e.toLowerCase())}::text[])`),
        ]),
      ),
  );
}

/** One row per recipient, in the caller's transaction; answers the rows. */
export function insertNotifications(
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
) {
  return rows(
    db,
    qb
      .insertInto('staff_notifications')
      .columns(['recipient_uid', 'kind', 'request_id', 'app_name', 'actor_email', 'details', 'created_at'])
      .expression(
        qb
          .selectFrom(sql<{ uid: string }>`unnest(${n.recipients}::uuid[])`.as<'u'>(sql`u (uid)`))
          .select((eb) => [
            'u.uid',
            eb.val(n.kind).as('kind'),
            eb.val(n.requestId).as('request_id'),
            eb.val(n.appName).as('app_name'),
            eb.val(n.actorEmail).as('actor_email'),
            eb.val(JSON.stringify(n.details)).as('details'),
            eb.val(n.at).as('created_at'),
          ]),
      )
      .returning(COLUMNS)
      .$narrowType<Stored>(),
  );
}

export type NotificationRow = Awaited<ReturnType<typeof insertNotifications>>[number];

const notifications = (uid: string) =>
  qb.selectFrom('staff_notifications').select(COLUMNS).where('recipient_uid', '=', uid).$narrowType<Stored>();

/** A page of a recipient's notifications, newest first, before an id; one more tells of a next page. */
export function pageNotifications(db: Queryable, uid: string, beforeId: number | null, limit: number) {
  return rows(
    db,
    notifications(uid)
      .where((eb) =>
        eb.or([eb(sql<number | null>`${beforeId}::bigint`, 'is', null), eb('id', '<', beforeId)]),
      )
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

/** What the stream has not sent yet: a recipient's notifications after an id, oldest first. */
export function notificationsAfter(db: Queryable, uid: string, afterId: number, limit: number) {
  return rows(db, notifications(uid).where('id', '>', afterId).orderBy('id').limit(limit));
}

/** The newest notification id of a recipient (0 without one): where a fresh stream starts. */
export async function lastNotificationId(db: Queryable, uid: string): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('staff_notifications')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('recipient_uid', '=', uid),
  );
  return Number(r?.id ?? 0);
}

export async function unreadCount(db: Queryable, uid: string): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .selectFrom('staff_notifications')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('recipient_uid', '=', uid)
      .where('read_at', 'is', null),
  );
  return r?.n ?? 0;
}

/** Marks the recipient's own unread ones (ids, or every one) read; answers how many changed. */
export async function markRead(db: Queryable, uid: string, ids: number[] | 'all', at: Date): Promise<number> {
  const some = ids === 'all' ? null : ids;
  const r = await rows(
    db,
    qb
      .updateTable('staff_notifications')
      .set({ read_at: at })
      .where('recipient_uid', '=', uid)
      .where('read_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb(sql<number[] | null>`${some}::bigint[]`, 'is', null),
          eb('id', '=', sql<number>`ANY(${some}::bigint[])`),
        ]),
      )
      .returning('id'),
  );
  return r.length;
}

export function preferencesOf(db: Queryable, uids: string[], kind?: StaffNotificationKind) {
  return rows(
    db,
    qb
      .selectFrom('staff_notification_preferences')
      .select(['uid', 'kind', 'email'])
      .where('uid', '=', sql<string>`ANY(${uids}::uuid[])`)
      .where((eb) =>
        eb.or([eb(sql<string | null>`${kind ?? null}::text`, 'is', null), eb('kind', '=', kind ?? null)]),
      ),
  );
}

export async function savePreferences(
  db: Queryable,
  uid: string,
  prefs: Array<{ kind: StaffNotificationKind; email: boolean }>,
): Promise<void> {
  await execute(
    db,
    qb
      .insertInto('staff_notification_preferences')
      .columns(['uid', 'kind', 'email'])
      .expression(
        qb
          .selectFrom(
            sql<{
              k: StaffNotificationKind;
              e: boolean;
            }>`unnest(${prefs.map((p) => p.kind)}::text[], ${prefs.map((p) => p.email)}::boolean[])`.as<'p'>(
              sql`p (k, e)`,
            ),
          )
          .select((eb) => [eb.val(uid).as('uid'), 'p.k', 'p.e']),
      )
      .onConflict((oc) =>
        oc.columns(['uid', 'kind']).doUpdateSet((eb) => ({ email: eb.ref('excluded.email') })),
      ),
  );
}

/**
 * Session ids among `ids` still live (not ended, not idle too long, not past their lifetime), and
 * the staff address allowlist as it stands, read in the same statement (empty: everyone).
 */
export async function liveSessionIds(
  db: Queryable,
  ids: number[],
  now: Date,
  policy: { idleMs: number; absoluteMs: number },
): Promise<{ live: Set<number>; allowlist: string[] }> {
  const r = await rows(
    db,
    qb
      .selectFrom('staff_sessions')
      .select([
        'id',
        sql<string[] | null>`(SELECT entries FROM staff_address_allowlist WHERE id = 1)`.as('allowlist'),
      ])
      .where('id', '=', sql<number>`ANY(${ids}::bigint[])`)
      .where('revoked_at', 'is', null)
      // a deactivated member's streams end with their sessions (migration 0060)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('staff as st')
              .select('st.uid')
              .whereRef('st.uid', '=', 'staff_sessions.uid')
              .where('st.deactivated_at', 'is not', null),
          ),
        ),
      )
      .where('last_used_at', '>', new Date(now.getTime() - policy.idleMs))
      .where('created_at', '>', new Date(now.getTime() - policy.absoluteMs)),
  );
  return { live: new Set(r.map((x) => Number(x.id))), allowlist: r[0]?.allowlist ?? [] };
}

/** Deletes up to `limit` notifications written before `before`, oldest first; answers how many. */
export async function deleteOlderThan(db: Queryable, before: Date, limit: number): Promise<number> {
  const r = await firstRow(
    db,
    qb
      .with('gone', (w) =>
        w
          .deleteFrom('staff_notifications')
          .where(
            'id',
            'in',
            w
              .selectFrom('staff_notifications')
              .select('id')
              .where('created_at', '<', before)
              .orderBy('created_at')
              .limit(limit),
          )
          .returning(sql.lit(1).as('one')),
      )
      .selectFrom('gone')
      .select(sql<number>`count(*)::int`.as('n')),
  );
  return r?.n ?? 0;
}
