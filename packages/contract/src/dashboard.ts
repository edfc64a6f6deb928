import { z } from 'zod';
import { breakGlassReviewPart } from './break-glass.ts';
import { sortQueryField, TRIAL_SORT_KEYS } from './list-sort.ts';
import { reasonWireShape } from './reason-wire.ts';
import { decimalInteger } from './validation.ts';

/**
 * GET /admin/dashboard: what needs the viewer and how the platform stands, in one answer. Each
 * part is present only when the viewer holds the permission of the list behind it (the checks in
 * apps/api/src/modules/dashboard/dashboard.service.ts); the console shows a card per part present.
 */

/** Items a card lists at most; its count says how many there are in all. */
export const DASHBOARD_ITEMS = 5;
/** Live grants listed at most. */
export const DASHBOARD_GRANTS = 10;
/** Recently viewed customers kept and shown per staff member. */
export const RECENT_CUSTOMERS_KEPT = 10;
/** Days of the "new" charts, today included. */
export const DASHBOARD_DAYS = 30;
/** A trial "ends soon" within this many days. */
export const TRIAL_ENDING_DAYS = 7;

/** The StaffActivity window of exports, in days. */
export const STAFF_EXPORTS_DAYS = 7;
/** The trail's actions the Auditor's home counts as failed (besides sign-ins, counted on their own card). */
export const STAFF_FAILED_ACTIONS = [
  'password.change.failed',
  'password.reset.failed',
  'stepup.failed',
] as const;
/** The trail's actions that are exports. */
export const STAFF_EXPORT_ACTIONS = [
  'audit.export',
  'customers.export',
  'impersonation-requests.export',
  'impersonation-logs.export',
  'access-review.export',
] as const;

const pendingItem = z.object({
  Id: z.number().int(),
  AppName: z.string(),
  Priority: z.string(),
  Initiator: z.string(),
  RequestCreatedDate: z.string(),
  /** The owner has consented (approval needs it). */
  Consent: z.boolean(),
  /** The viewer is one of the request's assignees. */
  AssignedToMe: z.boolean(),
  /** Why it is asked: what the approver decides on (null on requests made before codes). */
  ...reasonWireShape,
});

const grantItem = z.object({
  Id: z.number().int(),
  AppName: z.string(),
  /** Who holds the grant (is inside the customer's site). */
  Holder: z.string(),
  Roles: z.array(z.string()),
  AdditionalPermissions: z.array(z.string()),
  ExpiresAt: z.string(),
  /** The viewer may revoke it (impersonation.approve, not their own). */
  CanRevoke: z.boolean(),
  /** Break-glass access (break-glass.ts): opened without consent; shown with its reason and case. */
  BreakGlass: z.boolean(),
  ...reasonWireShape,
});

const dayCount = z.object({ Day: z.string(), Count: z.number().int() });

export const dashboardResponse = z.object({
  /** When the figures were read (the countdowns count from it). */
  GeneratedAt: z.string(),
  /** impersonation.request or impersonation.approve. */
  Impersonation: z
    .object({
      /**
       * Pending requests the viewer may decide now (approvers only; not their own; the owner has
       * consented, which approval needs).
       */
      AwaitingMyDecision: z.object({ Count: z.number().int(), Items: z.array(pendingItem) }).optional(),
      /** Approvers only: the pending requests (not their own) still waiting for the owner's consent. */
      AwaitingCustomer: z.object({ Count: z.number().int() }).optional(),
      /** The viewer's own pending requests. */
      MineAwaitingOthers: z.object({ Count: z.number().int() }),
      /** Unexpired approved grants: every one for approvers, else the viewer's own. */
      LiveGrants: z.object({ Count: z.number().int(), Items: z.array(grantItem) }),
    })
    .optional(),
  /** customers.read. */
  Customers: z
    .object({
      Total: z.number().int(),
      /** The last DASHBOARD_DAYS UTC days, oldest first, every day present. */
      NewByDay: z.array(dayCount),
    })
    .optional(),
  /** sites.read. */
  Sites: z
    .object({
      Total: z.number().int(),
      NewByDay: z.array(dayCount),
      ByPlan: z.array(z.object({ Plan: z.string(), Count: z.number().int() })),
      /** Code '' counts sites without a data center yet. */
      ByDataCenter: z.array(z.object({ Code: z.string(), Name: z.string(), Count: z.number().int() })),
      TrialsEndingSoon: z.object({
        Count: z.number().int(),
        Items: z.array(
          z.object({
            AppId: z.number().int(),
            AppName: z.string(),
            OwnerUid: z.string(),
            TrialEndsAt: z.string(),
          }),
        ),
      }),
    })
    .optional(),
  /**
   * site-settings.read: domains awaiting verification, and verified ones whose latest periodic
   * re-check failed (the DNS records no longer point here).
   */
  CustomDomains: z
    .object({ PendingVerification: z.number().int(), FailingRechecks: z.number().int() })
    .optional(),
  /**
   * audit.read: the activity log's failed sign-in steps of the last 24 hours, the password
   * (login.failed) and the second factor (mfa.failed: a wrong code after a right password) apart,
   * and the lockouts. Failures is their sum.
   */
  StaffSignIns: z
    .object({
      Failures: z.number().int(),
      PasswordFailures: z.number().int(),
      SecondFactorFailures: z.number().int(),
      Lockouts: z.number().int(),
    })
    .optional(),
  /**
   * audit.read: what staff did lately, for those who read the trail: the newest events, the
   * refused calls and failed changes of the last 24 hours, and the exports of the last 7 days.
   */
  StaffActivity: z
    .object({
      Recent: z.array(
        z.object({
          Id: z.string(),
          At: z.string(),
          ActorEmail: z.string().nullable(),
          Action: z.string(),
        }),
      ),
      /** Rows of every refused action (REFUSED_ACTIONS: the trail's result filter), a folded row once. */
      Refused: z.number().int(),
      /** Failed changes: STAFF_FAILED_ACTIONS. */
      Failed: z.array(z.object({ Action: z.string(), Count: z.number().int() })),
      /** Exports by kind: STAFF_EXPORT_ACTIONS, every one present. */
      Exports: z.array(z.object({ Action: z.string(), Count: z.number().int() })),
    })
    .optional(),
  /** SuperAdmins (who may reset factors): staff members with no confirmed authenticator app or passkey. */
  StaffWithoutSecondFactor: z.object({ Count: z.number().int() }).optional(),
  /**
   * SuperAdmins (who alone decide reviews): the periodic access review (access-review.ts): how many
   * members are due and overdue, the most urgent first (DASHBOARD_ITEMS), the period in days and
   * whether overdue roles are removed automatically (never the last SuperAdmin's).
   */
  /**
   * SuperAdmins: the break-glass review queue (break-glass.ts): the open reviews, the oldest first
   * (DASHBOARD_ITEMS), how many are overdue (past 24 hours), and whether break-glass is on.
   */
  BreakGlassReview: breakGlassReviewPart.optional(),
  AccessReview: z
    .object({
      Days: z.number().int(),
      AutoRevoke: z.boolean(),
      Due: z.number().int(),
      Overdue: z.number().int(),
      Items: z.array(
        z.object({
          Uid: z.string(),
          FullName: z.string(),
          Email: z.string(),
          Roles: z.array(z.string()),
          State: z.enum(['due', 'overdue']),
          DueAt: z.string(),
        }),
      ),
    })
    .optional(),
  /** customers.read: the customers the viewer opened last, newest first. */
  RecentCustomers: z
    .array(z.object({ Uid: z.string(), Name: z.string(), Email: z.string(), ViewedAt: z.string() }))
    .optional(),
});
export type Dashboard = z.output<typeof dashboardResponse>;

/** GET /admin/dashboard/trials-ending: the whole list behind the card's trials ending soon. */
/** The widest window the list takes, in days. */
const TRIAL_WINDOW_DAYS_MAX = 90;
export const TRIALS_PAGE_SIZE = 50;
const TRIALS_PAGE_MAX = 200;
const TRIAL_DAYS_MESSAGE = `days must be a whole number from 1 to ${TRIAL_WINDOW_DAYS_MAX}.`;
const TRIAL_LIMIT_MESSAGE = `limit must be a whole number from 1 to ${TRIALS_PAGE_MAX}.`;
const TRIAL_CURSOR_MESSAGE = 'cursor is not a cursor of this list.';
export const trialsEndingQuery = z.object({
  /** Trials ending from now to this many days ahead (TRIAL_ENDING_DAYS when absent). */
  days: decimalInteger(
    z
      .number({ error: TRIAL_DAYS_MESSAGE })
      .int(TRIAL_DAYS_MESSAGE)
      .min(1, TRIAL_DAYS_MESSAGE)
      .max(TRIAL_WINDOW_DAYS_MAX, TRIAL_DAYS_MESSAGE),
  ).optional(),
  /** NextCursor of the previous page, as answered. */
  cursor: z
    .string()
    .max(200, TRIAL_CURSOR_MESSAGE)
    .regex(/^[A-Za-z0-9_-]+$/, TRIAL_CURSOR_MESSAGE)
    .optional(),
  limit: decimalInteger(
    z
      .number({ error: TRIAL_LIMIT_MESSAGE })
      .int(TRIAL_LIMIT_MESSAGE)
      .min(1, TRIAL_LIMIT_MESSAGE)
      .max(TRIALS_PAGE_MAX, TRIAL_LIMIT_MESSAGE),
  ).optional(),
  /** `ends` soonest first (the default), `-ends` latest first. */
  sort: sortQueryField(TRIAL_SORT_KEYS),
});
export const trialsEndingResponse = z.object({
  Data: z.array(
    z.object({
      AppId: z.number().int(),
      AppName: z.string(),
      OwnerUid: z.string(),
      /** The owner's first and last name. */
      CustomerName: z.string(),
      Plan: z.string(),
      /** The data center's code and name; null before the site has one. */
      DataCenter: z.string().nullable(),
      DataCenterName: z.string().nullable(),
      TrialEndsAt: z.string(),
    }),
  ),
  /** Pass as `cursor` for the next page; null on the last page. */
  NextCursor: z.string().nullable(),
});
