import { z } from 'zod';

/**
 * Periodic access review (docs/decisions.md, "Periodic access review"): every ACCESS_REVIEW_DAYS
 * each staff member's roles must be confirmed again by a SuperAdmin other than themselves. The
 * review's clock runs from the last confirmation (a role change by a SuperAdmin counts as one),
 * else from when the account was created.
 */

/** ACCESS_REVIEW_DAYS: the default, and the bounds the API accepts at start. */
export const ACCESS_REVIEW_DEFAULT_DAYS = 90;
export const ACCESS_REVIEW_MIN_DAYS = 7;
export const ACCESS_REVIEW_MAX_DAYS = 730;
/** A member is due this many days before the deadline (at most half the period). */
const ACCESS_REVIEW_DUE_WITHIN_DAYS = 14;

/** ok: confirmed recently; due: the deadline is near; overdue: past it; none: no roles to review. */
const REVIEW_STATES = ['ok', 'due', 'overdue', 'none'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

const DAY_MS = 86_400_000;

/** Where a member stands: the deadline (`since` plus the period) and the state at `now`. */
function reviewStanding(
  since: Date | string,
  now: Date,
  days: number,
  hasRoles: boolean,
): { dueAt: Date; state: ReviewState } {
  const dueAt = new Date(new Date(since).getTime() + days * DAY_MS);
  const window = Math.min(ACCESS_REVIEW_DUE_WITHIN_DAYS, Math.floor(days / 2)) * DAY_MS;
  const left = dueAt.getTime() - now.getTime();
  const state: ReviewState = !hasRoles ? 'none' : left <= 0 ? 'overdue' : left <= window ? 'due' : 'ok';
  return { dueAt, state };
}

/** A member's review as the team list and the export answer it. */
export const memberReview = z.object({
  State: z.enum(REVIEW_STATES),
  /** When the roles were last confirmed (or changed by a SuperAdmin); null: never since created. */
  ConfirmedAt: z.string().nullable(),
  /** Who confirmed them (an email); null: never confirmed. */
  ConfirmedBy: z.string().nullable(),
  /** The deadline of the next confirmation. */
  DueAt: z.string(),
});
export type MemberReview = z.infer<typeof memberReview>;

/** A member's review from their account's columns (the clock runs from `created` until a first confirmation). */
export function memberReviewOf(
  m: {
    created: Date | string;
    confirmedAt: Date | string | null;
    confirmedBy: string | null;
    roles: readonly string[];
  },
  now: Date,
  days: number,
): MemberReview {
  const { dueAt, state } = reviewStanding(m.confirmedAt ?? m.created, now, days, m.roles.length > 0);
  return {
    State: state,
    ConfirmedAt: m.confirmedAt === null ? null : new Date(m.confirmedAt).toISOString(),
    ConfirmedBy: m.confirmedBy,
    DueAt: dueAt.toISOString(),
  };
}

const REVIEW_DECISIONS = ['confirm', 'revoke'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/**
 * POST /admin/team/review: a SuperAdmin's decision on another member's roles, with the Version of
 * the roles they saw as If-Match (a confirmation never confirms roles that changed meanwhile).
 */
export const reviewDecisionBody = z.object({
  Uid: z.string().uuid('Uid is not a valid user id.'),
  Decision: z.enum(REVIEW_DECISIONS, { error: 'Decision must be confirm or revoke.' }),
});

export const reviewDecisionResponse = z.object({
  Data: z.object({
    Uid: z.string(),
    Decision: z.enum(REVIEW_DECISIONS),
    Roles: z.array(z.string()),
    /** The roles' new version, for the next decision or role change. */
    Version: z.number().int(),
    Review: memberReview,
  }),
});

/** The columns of GET /admin/team/review/export, in order. */
export const ACCESS_REVIEW_EXPORT_COLUMNS = [
  'Uid',
  'Name',
  'Email',
  'Service Account',
  'Roles',
  'Account Created',
  'Last Confirmed At',
  'Last Confirmed By',
  'Review Due At',
  'State',
] as const;

/** Access-review exports one instance streams at once; more are refused (429, 979). */
export const ACCESS_REVIEW_EXPORTS_AT_ONCE = 2;

export const ACCESS_REVIEW_MESSAGES = {
  confirmed: 'Roles confirmed.',
  revoked: 'Roles removed.',
  exportBusy: 'Two exports of the access review are already running. Please try again when one has finished.',
  /** The dashboard's and the team screen's words about the automatic removal. */
  autoRevokeOn: (days: number) =>
    `Roles not confirmed within ${days} days are removed automatically, except the last SuperAdmin's.`,
  autoRevokeOff: (days: number) =>
    `Roles are to be confirmed every ${days} days; overdue members keep them until a SuperAdmin decides.`,
} as const;
