import { type ConsoleLink, consolePaths } from '@sac/contract/console-paths';
import {
  MARK_READ_MAX_IDS,
  STAFF_NOTIFICATION_EMAIL_DEFAULT,
  STAFF_NOTIFICATION_KINDS,
  STAFF_NOTIFICATIONS_PAGE_DEFAULT,
  type StaffNotification,
  type StaffNotificationKind,
} from '@sac/contract/staff-notifications';
import type { AppContext, StaffSession } from '../../app-context.ts';
import { afterCommit, type Queryable } from '../../db/db.ts';
import { consolePageFor } from '../../lib/console-url.ts';
import type { StaffCall } from '../../lib/endpoint-route.ts';
import { EVERY_STAFF_MEMBER } from '../../lib/staff-event-bus.ts';
import { runWrite } from '../../lib/write-path.ts';
import { writeActivity } from '../activity/activity.service.ts';
import { claimGrantsExpiringSoon } from '../impersonation/expiry-notices.service.ts';
import { staffNotificationMail } from './staff-notifications.mails.ts';
import * as repo from './staff-notifications.repo.ts';

/**
 * Staff notifications: written by the module whose change causes them, in that change's
 * transaction (notifyStaff), announced on the bus once it commits, read and marked by their
 * recipient. What other modules may use of this module is notifyStaff and the kinds' mail rule.
 */

export const notificationOut = (r: repo.NotificationRow): StaffNotification => ({
  Id: Number(r.id),
  Kind: r.kind,
  RequestId: r.request_id === null ? null : Number(r.request_id),
  AppName: r.app_name,
  Actor: r.actor_email,
  Status: r.details.status ?? null,
  ExpiresAt: r.details.expiresAt ?? null,
  Count: r.details.count ?? null,
  JobId: r.details.job ?? null,
  CreatedAt: new Date(r.created_at).toISOString(),
  ReadAt: r.read_at ? new Date(r.read_at).toISOString() : null,
});

export interface StaffNotice {
  kind: StaffNotificationKind;
  /** Recipients by uid or email; unknown ones and the actor are left out. */
  to: Array<{ uid?: string | null; email?: string | null }>;
  /** Who did it: never told of their own action. Null: the customer or the platform. */
  actorEmail: string | null;
  /** Shown as the actor when no staff member acted (the owner who consented). */
  shownActor?: string;
  requestId?: number;
  appName?: string;
  details?: { status?: string; expiresAt?: string; count?: number; job?: number };
  /**
   * The kinds mailed before notifications (assignment, decision, revocation) keep their own mails:
   * notifyStaff then mails nothing and answers who chose in-app only, for the caller to leave out.
   * Otherwise it mails `mail` to those who chose email.
   */
  mail?: { subject: string; lines: string[]; path: ConsoleLink };
}

/**
 * Tells staff members of a change, in the change's transaction `tx`: one row each, announced on
 * the bus after the commit (nothing when it rolls back). Answers the lower-cased emails of the
 * recipients who chose in-app only for this kind.
 */
export async function notifyStaff(tx: Queryable, ctx: AppContext, n: StaffNotice): Promise<Set<string>> {
  const uids = n.to.flatMap((t) => (t.uid ? [t.uid] : []));
  const emails = n.to.flatMap((t) => (t.email ? [t.email] : []));
  const inAppOnly = new Set<string>();
  if (uids.length === 0 && emails.length === 0) return inAppOnly;
  const actor = n.actorEmail?.toLowerCase();
  const staff = (await repo.findRecipients(tx, uids, emails)).filter((s) => s.email.toLowerCase() !== actor);
  if (staff.length === 0) return inAppOnly;
  const rows = await repo.insertNotifications(tx, {
    recipients: staff.map((s) => s.uid),
    kind: n.kind,
    requestId: n.requestId ?? null,
    appName: n.appName ?? null,
    actorEmail: n.actorEmail ?? n.shownActor ?? null,
    details: n.details ?? {},
    at: ctx.clock.now(),
  });
  const chosen = new Map(
    (
      await repo.preferencesOf(
        tx,
        staff.map((s) => s.uid),
        n.kind,
      )
    ).map((p) => [p.uid, p.email]),
  );
  for (const s of staff) {
    const email = chosen.get(s.uid) ?? STAFF_NOTIFICATION_EMAIL_DEFAULT[n.kind];
    if (!email) inAppOnly.add(s.email.toLowerCase());
    else if (n.mail) {
      const url = consolePageFor(ctx.config, undefined, n.mail.path).toString();
      await ctx.mailer.send(
        tx,
        staffNotificationMail({ to: s.email, subject: n.mail.subject, lines: n.mail.lines, url }),
      );
    }
  }
  const told = [...new Set(rows.map((r) => r.recipient_uid))];
  afterCommit(tx, () => {
    for (const uid of told) ctx.staffEvents.publish(uid);
  });
  return inAppOnly;
}

/**
 * An impersonation request was asked for, consented to, decided, edited or deleted, in `tx`: once
 * it commits, every console that may see requests reads its dashboard again (the stream's
 * STAFF_CHANGE_EVENT).
 */
export function announceImpersonationChange(tx: Queryable, ctx: AppContext): void {
  afterCommit(tx, () => ctx.staffEvents.publish(EVERY_STAFF_MEMBER));
}

/**
 * "My sessions ended by someone else": a SuperAdmin ended them, changed the member's roles or
 * reset their second factors. `because` says which change ended them (absent: ended as such);
 * `mailed`: the change sends its own mail, so this one is in-app only.
 */
export async function notifySessionsEnded(
  tx: Queryable,
  ctx: AppContext,
  e: { uid: string; actorEmail: string; count: number; because?: string; mailed?: boolean },
): Promise<void> {
  if (e.count <= 0) return;
  const what = e.count === 1 ? 'one of your sessions' : `${e.count} of your sessions`;
  await notifyStaff(tx, ctx, {
    kind: 'sessions-ended',
    to: [{ uid: e.uid }],
    actorEmail: e.actorEmail,
    details: { count: e.count },
    ...(e.mailed
      ? {}
      : {
          mail: {
            subject:
              e.count === 1 ? 'One of your sessions was ended' : `${e.count} of your sessions were ended`,
            lines: [
              e.because
                ? `${e.actorEmail} ${e.because}, which ended ${what} of the Super Admin Console.`
                : `${e.actorEmail} ended ${what} of the Super Admin Console.`,
            ],
            path: consolePaths.mySessions(),
          },
        }),
  });
}

/** GET /admin/notifications: a page, newest first, and the unread count. */
export async function list(ctx: AppContext, me: StaffSession, q: { cursor?: string; limit?: number }) {
  const limit = q.limit ?? STAFF_NOTIFICATIONS_PAGE_DEFAULT;
  const [rows, unread] = await Promise.all([
    repo.pageNotifications(ctx.db, me.uid, q.cursor ? Number(q.cursor) : null, limit + 1),
    repo.unreadCount(ctx.db, me.uid),
  ]);
  const page = rows.slice(0, limit);
  return {
    Data: page.map(notificationOut),
    NextCursor: rows.length > limit ? String(page.at(-1)!.id) : null,
    UnreadCount: unread,
  };
}

/**
 * POST /admin/notifications/read: only the caller's own, only unread ones change. Through the
 * write path without a trail row: marking one's own notifications read is no one's business but
 * the reader's.
 */
export async function markRead(ctx: AppContext, call: StaffCall, input: { Ids?: number[]; All?: true }) {
  const me = call.session;
  const ids = input.All ? 'all' : [...new Set(input.Ids ?? [])].slice(0, MARK_READ_MAX_IDS);
  const now = ctx.clock.now();
  const marked = await runWrite(ctx.db, {
    change: (tx) => repo.markRead(tx, me.uid, ids, now),
    trail: { none: "marking one's own notifications read concerns only the reader" },
  });
  return { Marked: marked, UnreadCount: await repo.unreadCount(ctx.db, me.uid) };
}

async function preferencesAnswer(db: Queryable, uid: string) {
  const chosen = new Map((await repo.preferencesOf(db, [uid])).map((p) => [p.kind, p.email]));
  return {
    Data: STAFF_NOTIFICATION_KINDS.map((k) => ({
      Kind: k,
      Delivery:
        (chosen.get(k) ?? STAFF_NOTIFICATION_EMAIL_DEFAULT[k]) ? ('email' as const) : ('in-app' as const),
    })),
  };
}

export const preferences = (ctx: AppContext, me: StaffSession) => preferencesAnswer(ctx.db, me.uid);

/** PUT /admin/notifications/preferences: the kinds named change, with their staff-trail row. */
export async function savePreferences(
  ctx: AppContext,
  call: StaffCall,
  input: { Preferences: Array<{ Kind: StaffNotificationKind; Delivery: 'in-app' | 'email' }> },
) {
  const me = call.session;
  const prefs = input.Preferences;
  return runWrite(ctx.db, {
    change: async (tx) => {
      await repo.savePreferences(
        tx,
        me.uid,
        prefs.map((p) => ({ kind: p.Kind, email: p.Delivery === 'email' })),
      );
    },
    trail: async (tx) => {
      await writeActivity(tx, {
        at: ctx.clock.now(),
        action: 'notifications.preferences',
        actorUid: me.uid,
        actorEmail: me.email,
        targetType: 'staff',
        targetId: me.uid,
        clientAddress: call.clientAddress,
        details: Object.fromEntries(prefs.map((p) => [p.Kind, p.Delivery])),
      });
    },
  }).then(() => preferencesAnswer(ctx.db, me.uid));
}

/**
 * The periodic job: "grant expiring in 15 minutes", once per grant, to its holder. Through the
 * write path: the grants claimed and stamped (locked, skipping those another run holds), and the
 * notifications and mails they cause, in one transaction.
 */
export async function notifyExpiringGrants(ctx: AppContext, withinMs: number, batch = 100): Promise<number> {
  const grants = await runWrite(ctx.db, {
    change: (tx) => claimGrantsExpiringSoon(tx, ctx.clock.now(), withinMs, batch),
    trail: async (tx, grants) => {
      for (const g of grants) {
        const expiresAt = new Date(g.expires_at).toISOString();
        await notifyStaff(tx, ctx, {
          kind: 'expiring',
          to: [{ uid: g.holder_uid }],
          actorEmail: null,
          requestId: Number(g.id),
          appName: g.app_name,
          details: { expiresAt },
          mail: {
            subject: `Your access to ${g.app_name} ends soon (request ${g.id})`,
            lines: [`Your impersonation grant on ${g.app_name} (request ${g.id}) ends at ${expiresAt}.`],
            path: consolePaths.impersonationRequests({ request: Number(g.id) }),
          },
        });
      }
    },
  });
  return grants.length;
}

/** Rows the retention job deletes per statement: each delete is a short transaction of its own. */
const PRUNE_BATCH = 5_000;

/**
 * The periodic job: deletes staff notifications older than STAFF_NOTIFICATION_RETENTION_DAYS,
 * read or not, a batch at a time until none is left; answers how many.
 */
export async function pruneNotifications(ctx: AppContext, batch = PRUNE_BATCH): Promise<number> {
  const keepMs = ctx.config.staffNotificationRetentionMs;
  if (keepMs <= 0) return 0;
  const before = new Date(ctx.clock.now().getTime() - keepMs);
  let total = 0;
  for (;;) {
    const n = await repo.deleteOlderThan(ctx.db, before, batch);
    total += n;
    if (n < batch) return total;
  }
}
