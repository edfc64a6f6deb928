import { z } from 'zod';
import {
  BUILT_IN_REASON_CODES,
  caseReferenceField,
  type ReasonSettings,
  reasonCodeField,
} from './access-reasons.ts';
import { DISPLAY_STATUSES, impersonationRequest } from './impersonation-api.ts';
import { reasonWireShape } from './reason-wire.ts';
import { decimalInteger } from './validation.ts';

/**
 * Break-glass access (issue 35; docs/decisions.md "Break-glass access"): when consent cannot be
 * had, a SuperAdmin opens access to a site at once, with a reason code of its own short list and a
 * case reference (always required), for at most BREAK_GLASS_MAX_MINUTES, never extended. Every
 * other SuperAdmin and the site's owner are told at once; another SuperAdmin must close its review
 * with a note within BREAK_GLASS_REVIEW_HOURS. The operator may turn it off (BREAK_GLASS_ENABLED).
 */

/** The only reasons break-glass takes (the shared codes' own labels). */
const BREAK_GLASS_CODES = ['production-incident', 'security-incident', 'legal-request'] as const;
export const BREAK_GLASS_MAX_MINUTES = 60;
/** The review is due this many hours after the opening; overdue after. */
export const BREAK_GLASS_REVIEW_HOURS = 24;
/** The longest review note. */
export const BREAK_GLASS_NOTE_MAX = 1000;

/**
 * Break-glass's reason rule, as access-reasons.ts applies it (reasonProblem, withReasonRule): its
 * three codes only, the case always required; the case's link is the operator's.
 */
export const breakGlassReasons = (settings: Pick<ReasonSettings, 'caseUrlPattern'>): ReasonSettings => ({
  codes: BUILT_IN_REASON_CODES.filter((c) => (BREAK_GLASS_CODES as readonly string[]).includes(c.Code)),
  caseRequired: true,
  caseUrlPattern: settings.caseUrlPattern,
});

export const BREAK_GLASS_MESSAGES = {
  durationRange: `Break-glass access lasts from 1 to ${BREAK_GLASS_MAX_MINUTES} minutes.`,
  opened: (id: number, app: string, expires: string) =>
    `Break-glass access ${id} to ${app} is open until ${expires}. Every other SuperAdmin and the site's owner have been told; another SuperAdmin must review it within ${BREAK_GLASS_REVIEW_HOURS} hours.`,
  reviewClosed: (id: number) => `The review of break-glass access ${id} is closed.`,
  noteRequired: 'Please write a note on what was done and why.',
  noteTooLong: `The note can be at most ${BREAK_GLASS_NOTE_MAX} characters.`,
} as const;

const durationMessage = BREAK_GLASS_MESSAGES.durationRange;

/**
 * POST /admin/impersonation/break-glass: open access at once. Duration is bounded loosely here (a
 * request's bounds) so that more than 60 minutes is refused by its own error (1181).
 */
export const openBreakGlassBody = z.object({
  AppId: decimalInteger(z.number().int().positive('AppId must be a number.')),
  /** production-incident, security-incident or legal-request; else 1140. */
  ReasonCode: reasonCodeField,
  /** Always required (1141); printable, at most 100 characters (1142). */
  CaseReference: caseReferenceField,
  /** What is happening, in a few words (optional). */
  Description: z.string().trim().max(2000).optional().default(''),
  ProxyRoles: z.array(z.string().trim().min(1).max(100)).min(1, 'Please choose at least one role.').max(50),
  AdditionalPermissions: z.array(z.string().trim().min(1).max(100)).max(100).default([]),
  Duration: decimalInteger(
    z
      .number({ error: durationMessage })
      .int(durationMessage)
      .min(1, durationMessage)
      .max(43_200, durationMessage),
  ),
});

export const openBreakGlassResponse = z.object({ Data: impersonationRequest, Message: z.string() });

/** GET /admin/impersonation/break-glass: whether it is on, its reasons, and who an opening tells. */
export const breakGlassOptionsResponse = z.object({
  Data: z.object({
    /** BREAK_GLASS_ENABLED: false, the operator turned it off (an opening is refused, 1180). */
    Enabled: z.boolean(),
    ReasonCodes: z.array(z.object({ Code: z.string(), Label: z.string() })),
    MaxMinutes: z.number().int(),
    ReviewHours: z.number().int(),
    /** The other SuperAdmins an opening tells (mail, bell), by email; the site's owner is told too. */
    SuperAdmins: z.array(z.string()),
  }),
});

/** POST /admin/impersonation/break-glass/review: another SuperAdmin closes a review with a note. */
export const closeBreakGlassReviewBody = z.object({
  RequestId: decimalInteger(z.number().int().positive('RequestId must be a number.')),
  Note: z
    .string({ error: BREAK_GLASS_MESSAGES.noteRequired })
    .trim()
    .min(1, BREAK_GLASS_MESSAGES.noteRequired)
    .max(BREAK_GLASS_NOTE_MAX, BREAK_GLASS_MESSAGES.noteTooLong),
});

/** One break-glass access as its review shows it. */
const breakGlassReviewItem = z.object({
  RequestId: z.number().int(),
  AppId: z.number().int(),
  AppName: z.string(),
  OpenedBy: z.string(),
  OpenedAt: z.string(),
  ...reasonWireShape,
  Minutes: z.number().int(),
  ExpiresAt: z.string().nullable(),
  /** The grant's display status (Approved while it runs, Expired, Revoked). */
  Status: z.enum(DISPLAY_STATUSES),
  /** The review's deadline (the opening plus BREAK_GLASS_REVIEW_HOURS). */
  DueAt: z.string(),
  Overdue: z.boolean(),
  ClosedAt: z.string().nullable(),
  ClosedBy: z.string().nullable(),
  Note: z.string().nullable(),
});
export type BreakGlassReviewItem = z.infer<typeof breakGlassReviewItem>;

export const closeBreakGlassReviewResponse = z.object({ Data: breakGlassReviewItem, Message: z.string() });

/** A closed review stays on the reviews page's Closed and All filters this many days after closing. */
export const BREAK_GLASS_CLOSED_DAYS = 30;
/** The reviews page's filters: the open reviews (the default), those recently closed, or both. */
export const BREAK_GLASS_REVIEW_STATES = ['open', 'closed', 'all'] as const;
export type BreakGlassReviewState = (typeof BREAK_GLASS_REVIEW_STATES)[number];
export const BREAK_GLASS_REVIEWS_PAGE = 50;
const BREAK_GLASS_REVIEWS_PAGE_MAX = 200;
const REVIEWS_LIMIT_MESSAGE = `limit must be a whole number from 1 to ${BREAK_GLASS_REVIEWS_PAGE_MAX}.`;
const REVIEWS_CURSOR_MESSAGE = 'cursor is not a cursor of this list.';

/**
 * GET /admin/impersonation/break-glass/reviews: every open review, oldest first (`state=open`, the
 * default); or those closed in the last BREAK_GLASS_CLOSED_DAYS days (`closed`), or both (`all`),
 * newest opening first. A page at a time.
 */
export const breakGlassReviewsQuery = z.object({
  state: z
    .enum(BREAK_GLASS_REVIEW_STATES, {
      error: `state must be one of ${BREAK_GLASS_REVIEW_STATES.join(', ')}.`,
    })
    .optional(),
  /** NextCursor of the previous page, as answered. */
  cursor: z
    .string()
    .max(200, REVIEWS_CURSOR_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, REVIEWS_CURSOR_MESSAGE)
    .optional(),
  limit: decimalInteger(
    z
      .number({ error: REVIEWS_LIMIT_MESSAGE })
      .int(REVIEWS_LIMIT_MESSAGE)
      .min(1, REVIEWS_LIMIT_MESSAGE)
      .max(BREAK_GLASS_REVIEWS_PAGE_MAX, REVIEWS_LIMIT_MESSAGE),
  ).optional(),
});

export const breakGlassReviewsResponse = z.object({
  Data: z.array(breakGlassReviewItem),
  NextCursor: z.string().nullable(),
});

/** The dashboard's part (SuperAdmins): the open reviews, the oldest first; overdue ones counted. */
export const breakGlassReviewPart = z.object({
  Enabled: z.boolean(),
  Open: z.number().int(),
  Overdue: z.number().int(),
  Items: z.array(breakGlassReviewItem),
});

const HOUR_MS = 3_600_000;

/** The review's deadline and whether it has passed, for an opening at `openedAt`. */
export function reviewDeadline(openedAt: Date | string, closed: boolean, now: Date) {
  const dueAt = new Date(new Date(openedAt).getTime() + BREAK_GLASS_REVIEW_HOURS * HOUR_MS);
  return { dueAt, overdue: !closed && now.getTime() >= dueAt.getTime() };
}
