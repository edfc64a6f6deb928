import { z } from 'zod';

/**
 * GET /admin/dashboard: what needs the viewer and how the platform stands, in one answer. Each
 * part is present only when the viewer holds the permission of the list behind it (see
 * DASHBOARD_CARD_ACCESS); the console shows a card per part present.
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
});

const dayCount = z.object({ Day: z.string(), Count: z.number().int() });

export const dashboardResponse = z.object({
  /** When the figures were read (the countdowns count from it). */
  GeneratedAt: z.string(),
  /** impersonation.request or impersonation.approve. */
  Impersonation: z
    .object({
      /** Pending requests the viewer may decide (approvers only; not their own). */
      AwaitingMyDecision: z.object({ Count: z.number().int(), Items: z.array(pendingItem) }).optional(),
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
  /** audit.read: the activity log's login.failed and login.lockout of the last 24 hours. */
  StaffSignIns: z.object({ Failures: z.number().int(), Lockouts: z.number().int() }).optional(),
  /** SuperAdmins (who may reset factors): staff members with no confirmed authenticator app or passkey. */
  StaffWithoutSecondFactor: z.object({ Count: z.number().int() }).optional(),
  /** customers.read: the customers the viewer opened last, newest first. */
  RecentCustomers: z
    .array(z.object({ Uid: z.string(), Name: z.string(), Email: z.string(), ViewedAt: z.string() }))
    .optional(),
});
export type Dashboard = z.output<typeof dashboardResponse>;
