import { z } from 'zod';
import { decimalInteger } from './validation.ts';

/**
 * Staff notifications (issue 18 item 2): what happened to a staff member's requests, grants and
 * sessions, kept per recipient with its read state, told live over Server-Sent Events
 * (GET /admin/notifications/stream) and, per kind as each chooses, by mail too.
 */

/** The kinds, in the order the preferences list them. */
export const STAFF_NOTIFICATION_KINDS = [
  'assigned',
  'consent',
  'decided',
  'revoked',
  'expiring',
  'sessions-ended',
  // a webhook subscription its staff member made was paused after failing too long
  'webhook-paused',
  // SuperAdmins: another SuperAdmin opened break-glass access to a site (break-glass.ts)
  'break-glass',
  // the opener: another SuperAdmin closed the review of their break-glass access
  'break-glass-reviewed',
  // SuperAdmins: another staff member's bulk job waits for a second SuperAdmin's approval
  'bulk-approval',
] as const;
export type StaffNotificationKind = (typeof STAFF_NOTIFICATION_KINDS)[number];

/**
 * Whether a kind is also mailed when its staff member has not chosen: the kinds that were mailed
 * before notifications existed (assignment, decision, revocation) stay mailed; the rest are in-app.
 */
export const STAFF_NOTIFICATION_EMAIL_DEFAULT: Record<StaffNotificationKind, boolean> = {
  assigned: true,
  consent: false,
  decided: true,
  revoked: true,
  expiring: false,
  'sessions-ended': false,
  'webhook-paused': true,
  // told at once, by mail too unless the SuperAdmin chose in-app only
  'break-glass': true,
  'break-glass-reviewed': false,
  // an approval waits on them: mailed, as an impersonation request assigned to them is
  'bulk-approval': true,
};

/** "Grant expiring": told this long before a grant ends. */
export const GRANT_EXPIRING_NOTICE_MS = 15 * 60_000;
/** Notifications a page at most (the bell's panel shows the first). */
const STAFF_NOTIFICATIONS_PAGE_MAX = 50;
export const STAFF_NOTIFICATIONS_PAGE_DEFAULT = 20;
/** Ids one mark-read call names at most. */
export const MARK_READ_MAX_IDS = 100;
/** The stream's event names. */
export const STAFF_NOTIFICATION_EVENT = 'notification';
/**
 * "Something the dashboard shows changed" (an impersonation request asked for, consented to,
 * decided, edited or deleted): sent to every stream of a staff member who may request or approve
 * impersonation, without an id (it is no notification and is not replayed); the console reads
 * its dashboard again.
 */
export const STAFF_CHANGE_EVENT = 'changed';
export interface StaffChangeEventData {
  Topic: 'impersonation';
}

const kind = z.enum(STAFF_NOTIFICATION_KINDS);

const staffNotification = z.object({
  Id: z.number().int(),
  Kind: kind,
  /** The impersonation request it is about (the console links to it); null for sessions ended and webhooks. */
  RequestId: z.number().int().nullable(),
  /** The site; webhook-paused: the endpoint URL of the paused subscription. */
  AppName: z.string().nullable(),
  /** Who did it; null for the customer's consent and the expiry reminder. */
  Actor: z.string().nullable(),
  /** decided: Approved or Rejected; revoked: Revoked or PartlyRevoked. */
  Status: z.string().nullable(),
  /** expiring: when the grant ends. */
  ExpiresAt: z.string().nullable(),
  /** sessions-ended: how many; bulk-approval: the job's items. */
  Count: z.number().int().nullable(),
  /** bulk-approval: the bulk job waiting (the console links to its page). */
  JobId: z.number().int().nullable(),
  CreatedAt: z.string(),
  ReadAt: z.string().nullable(),
});
export type StaffNotification = z.infer<typeof staffNotification>;

/** GET /admin/notifications: newest first; cursor is the NextCursor of the page before. */
export const staffNotificationsQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, 'cursor is not a cursor of this list.')
    .optional(),
  limit: decimalInteger(z.number().int().min(1).max(STAFF_NOTIFICATIONS_PAGE_MAX)).optional(),
});

export const staffNotificationsResponse = z.object({
  Data: z.array(staffNotification),
  NextCursor: z.string().nullable(),
  UnreadCount: z.number().int(),
});

/** POST /admin/notifications/read: some (Ids) or all (All: true) of mine. */
export const markNotificationsReadBody = z
  .object({
    Ids: z.array(z.number().int().positive()).min(1).max(MARK_READ_MAX_IDS).optional(),
    All: z.literal(true).optional(),
  })
  .strict()
  .refine((b) => (b.Ids === undefined) !== (b.All === undefined), {
    message: 'Name the notifications (Ids) or all of them (All: true), not both.',
  });

export const markNotificationsReadResponse = z.object({
  /** How many were unread and are read now. */
  Marked: z.number().int(),
  UnreadCount: z.number().int(),
});

const delivery = z.enum(['in-app', 'email']);

/** GET and PUT /admin/notifications/preferences: every kind, in-app only or also email. */
export const notificationPreferencesResponse = z.object({
  Data: z.array(z.object({ Kind: kind, Delivery: delivery })),
});

/** PUT: the kinds to change (others keep theirs). */
export const notificationPreferencesBody = z
  .object({
    Preferences: z
      .array(z.object({ Kind: kind, Delivery: delivery }).strict())
      .min(1)
      .max(STAFF_NOTIFICATION_KINDS.length)
      .refine((a) => new Set(a.map((p) => p.Kind)).size === a.length, 'Name each kind once.'),
  })
  .strict();

/** GET /admin/notifications/stream: text/event-stream (see the endpoint's summary). */
export const notificationStreamResponse = z.string();

/** What each event's data carries. */
export interface StaffNotificationEventData {
  Notification: StaffNotification;
  UnreadCount: number;
}
