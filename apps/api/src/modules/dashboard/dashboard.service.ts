import { type ReasonSettings, reasonOut } from '@sac/contract/access-reasons';
import { REFUSED_ACTIONS } from '@sac/contract/audit';
import { PLANS } from '@sac/contract/customers';
import {
  DASHBOARD_DAYS,
  type Dashboard,
  STAFF_EXPORT_ACTIONS,
  STAFF_EXPORTS_DAYS,
  STAFF_FAILED_ACTIONS,
  TRIAL_ENDING_DAYS,
  TRIALS_PAGE_SIZE,
  type trialsEndingQuery,
} from '@sac/contract/dashboard';
import { sortParam } from '@sac/contract/list-sort';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import { type SiteScope, scopeFor } from '@sac/contract/role-scopes';
import type { z } from 'zod';
import type { AppContext, StaffSession } from '../../app-context.ts';
import type { Queryable } from '../../db/db.ts';
import { DIGITS, decodeCursor, encodeCursor, literal, PG_TIMESTAMP } from '../../lib/keyset-cursor.ts';
import { reviewQueue } from '../impersonation/break-glass.service.ts';
import { reviewSummary } from '../team/access-review.service.ts';
import * as repo from './dashboard.repo.ts';
import { recentViews } from './recent-views.ts';
import * as scopedRepo from './scoped-counts.repo.ts';
import * as staff from './staff-counts.repo.ts';
import * as trialsRepo from './trials-ending.repo.ts';

const DAY_MS = 86_400_000;

/** The last DASHBOARD_DAYS UTC dates, oldest first, as YYYY-MM-DD. */
function lastDays(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: DASHBOARD_DAYS }, (_, i) =>
    new Date(today - (DASHBOARD_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

type Can = (permission: string) => boolean;

/**
 * The impersonation part: what awaits the viewer's decision (approvers only), the viewer's own
 * pending requests, and the live grants (an approver sees all, a requester their own).
 */
async function impersonationPart(
  db: Queryable,
  viewer: StaffSession,
  now: Date,
  approver: boolean,
  reasons: ReasonSettings,
): Promise<NonNullable<Dashboard['Impersonation']>> {
  // an approver's view of others' requests and grants keeps to their approval scope
  const scope = approver ? scopeFor(viewer.scopes, 'impersonation.approve') : undefined;
  const [awaiting, mine, grants] = await Promise.all([
    approver ? repo.awaitingDecision(db, viewer.uid, viewer.email, scope) : undefined,
    repo.minePending(db, viewer.email),
    repo.liveGrants(db, now, viewer, approver ? null : viewer.uid, scope),
  ]);
  return {
    ...(awaiting
      ? {
          AwaitingCustomer: { Count: awaiting.awaitingCustomer },
          AwaitingMyDecision: {
            Count: awaiting.count,
            Items: awaiting.items.map((r) => ({
              Id: Number(r.id),
              AppName: r.app_name,
              Priority: r.priority,
              Initiator: r.initiator_email,
              RequestCreatedDate: r.created_at.toISOString(),
              Consent: r.consent,
              AssignedToMe: r.assigned,
              ...reasonOut(reasons, r),
            })),
          },
        }
      : {}),
    MineAwaitingOthers: { Count: mine },
    LiveGrants: {
      Count: grants.count,
      Items: grants.items.map((g) => ({
        Id: Number(g.id),
        AppName: g.app_name,
        Holder: g.holder_email ?? '',
        Roles: g.approved_roles,
        AdditionalPermissions: g.approved_permissions,
        ExpiresAt: g.expires_at.toISOString(),
        CanRevoke: approver && !g.mine,
        BreakGlass: g.break_glass,
        ...reasonOut(reasons, g),
      })),
    },
  };
}

/** Sites by plan (every plan, zero included) and by data center (most sites first). */
function siteBreakdown(counts: Awaited<ReturnType<typeof repo.siteCounts>>) {
  const plans = new Map<string, number>(PLANS.map((p) => [p, 0]));
  const centers = new Map<string, { Code: string; Name: string; Count: number }>();
  for (const c of counts) {
    plans.set(c.plan, (plans.get(c.plan) ?? 0) + c.sites);
    const dc = centers.get(c.data_center) ?? { Code: c.data_center, Name: c.name ?? '', Count: 0 };
    dc.Count += c.sites;
    centers.set(c.data_center, dc);
  }
  return {
    ByPlan: [...plans].map(([Plan, Count]) => ({ Plan, Count })),
    ByDataCenter: [...centers.values()].sort((a, b) => b.Count - a.Count || a.Code.localeCompare(b.Code)),
  };
}

/** What a viewer's scoped roles limit of each part (role-scopes.ts); undefined: everything. */
interface PartScopes {
  customers: readonly SiteScope[] | undefined;
  sites: readonly SiteScope[] | undefined;
}

/**
 * The customers and sites parts, each only when asked for: totals and new ones by day; sites broken
 * down. The day counters (dashboard_days) cannot say whose customers or sites they count, so a part
 * whose permission is scoped reads its totals and days from rows in the scope instead (decisions.md);
 * the counters are read only for an unscoped part, so an unscoped viewer runs what it always did.
 */
async function creationParts(
  db: Queryable,
  now: Date,
  parts: { customers: boolean; sites: boolean },
  scopes: PartScopes,
): Promise<Pick<Dashboard, 'Customers' | 'Sites'>> {
  const out: Pick<Dashboard, 'Customers' | 'Sites'> = {};
  const days = lastDays(now);
  const from = days[0]!;
  const counters =
    (parts.customers && !scopes.customers) || (parts.sites && !scopes.sites)
      ? await repo.creationDays(db, from)
      : undefined;
  const byDay = new Map(counters?.days.map((d) => [d.day, d]));
  const series = (k: 'customers' | 'sites') => days.map((Day) => ({ Day, Count: byDay.get(Day)?.[k] ?? 0 }));
  const scopedSeries = (counted: Map<string, number>) =>
    days.map((Day) => ({ Day, Count: counted.get(Day) ?? 0 }));
  if (parts.customers) {
    if (scopes.customers) {
      const counted = await scopedRepo.scopedCustomerCounts(db, scopes.customers, from);
      out.Customers = { Total: counted.total, NewByDay: scopedSeries(counted.days) };
    } else out.Customers = { Total: counters!.customers, NewByDay: series('customers') };
  }
  if (parts.sites) {
    const scope = scopes.sites;
    const [counts, trials, scopedDays] = await Promise.all([
      repo.siteCounts(db, scope),
      repo.trialsEnding(db, now, new Date(now.getTime() + TRIAL_ENDING_DAYS * DAY_MS), scope),
      scope ? scopedRepo.scopedSiteDays(db, scope, from) : undefined,
    ]);
    out.Sites = {
      // a scoped viewer's total is that of their counters (siteCounts), which sum to the days' total
      Total: scopedDays ? counts.reduce((n, c) => n + c.sites, 0) : counters!.sites,
      NewByDay: scopedDays ? scopedSeries(scopedDays) : series('sites'),
      ...siteBreakdown(counts),
      TrialsEndingSoon: {
        Count: trials.count,
        Items: trials.items.map((t) => ({
          AppId: t.app_id,
          AppName: t.app_name,
          OwnerUid: t.owner_uid,
          TrialEndsAt: t.trial_ends_at.toISOString(),
        })),
      },
    };
  }
  return out;
}

/** The staff member's recently viewed customers, newest first, views not yet written included. */
async function recentCustomersPart(
  ctx: AppContext,
  viewer: StaffSession,
  scope: readonly SiteScope[] | undefined,
): Promise<Dashboard['RecentCustomers']> {
  const pending = recentViews(ctx).of(viewer.uid);
  return (await repo.recentCustomers(ctx.db, viewer.uid, pending, scope)).map((c) => ({
    Uid: c.uid,
    Name: `${c.first_name} ${c.last_name}`.trim(),
    Email: c.email,
    ViewedAt: c.viewed_at.toISOString(),
  }));
}

/**
 * The trail's parts (audit.read): failed sign-in steps (password and second factor apart) and
 * lockouts; the newest events, refused calls and failed changes; exports. Two statements: the
 * counts in one, the newest rows in the other.
 */
async function trailParts(
  db: Queryable,
  now: Date,
): Promise<Pick<Dashboard, 'StaffSignIns' | 'StaffActivity'>> {
  const day = new Date(now.getTime() - DAY_MS);
  const week = new Date(now.getTime() - STAFF_EXPORTS_DAYS * DAY_MS);
  const [counts, recent] = await Promise.all([
    staff.trailCounts(db, [
      {
        since: day,
        actions: ['login.failed', 'mfa.failed', ...REFUSED_ACTIONS, ...STAFF_FAILED_ACTIONS],
      },
      { since: week, actions: STAFF_EXPORT_ACTIONS },
    ]),
    staff.recentTrail(db),
  ]);
  const n = (a: string) => counts.get(a as never) ?? 0;
  return {
    StaffSignIns: {
      Failures: n('login.failed') + n('mfa.failed'),
      PasswordFailures: n('login.failed'),
      SecondFactorFailures: n('mfa.failed'),
      Lockouts: n('login.lockout'),
    },
    StaffActivity: {
      Recent: recent.map((r) => ({
        Id: String(r.id),
        At: new Date(r.at).toISOString(),
        ActorEmail: r.actor_email,
        Action: r.action,
      })),
      // every refused action, as the trail's result filter gathers them
      Refused: REFUSED_ACTIONS.reduce((sum, a) => sum + n(a), 0),
      Failed: STAFF_FAILED_ACTIONS.map((Action) => ({ Action, Count: n(Action) })),
      Exports: STAFF_EXPORT_ACTIONS.map((Action) => ({ Action, Count: n(Action) })),
    },
  };
}

type TroubleParts =
  | 'CustomDomains'
  | 'StaffSignIns'
  | 'StaffActivity'
  | 'StaffWithoutSecondFactor'
  | 'AccessReview'
  | 'BreakGlassReview';

/**
 * The security parts: custom domains in trouble, the trail's parts, and for SuperAdmins staff
 * without a second factor and the access review's due and overdue members.
 */
async function troubleParts(
  ctx: AppContext,
  viewer: StaffSession,
  now: Date,
  can: Can,
): Promise<Pick<Dashboard, TroubleParts>> {
  const { db } = ctx;
  const out: Pick<Dashboard, TroubleParts> = {};
  if (can('site-settings.read')) {
    const d = await repo.domainTrouble(db, scopeFor(viewer.scopes, 'site-settings.read'));
    out.CustomDomains = { PendingVerification: d.pending, FailingRechecks: d.failing };
  }
  if (can('audit.read')) Object.assign(out, await trailParts(db, now));
  // Only a SuperAdmin may reset a colleague's factors (mfa.service), so only they are shown the count.
  if (viewer.roles.includes(ROLE_SUPER_ADMIN) && can('team.read')) {
    out.StaffWithoutSecondFactor = { Count: await staff.staffWithoutFactor(db) };
    // Only a SuperAdmin decides a review (access-review.service), so only they are shown who is due.
    out.AccessReview = await reviewSummary(ctx);
    // Another SuperAdmin closes a break-glass review (break-glass.service), so only they see the queue.
    out.BreakGlassReview = await reviewQueue(ctx);
  }
  return out;
}

/**
 * GET /admin/dashboard: each part only when the viewer holds the permission of the list behind
 * it; a part left out is not computed either.
 */
export async function dashboard(ctx: AppContext, viewer: StaffSession): Promise<Dashboard> {
  const { db } = ctx;
  const now = ctx.clock.now();
  const can: Can = (p) => viewer.permissions.has(p);
  const out: Dashboard = { GeneratedAt: now.toISOString() };

  const approver = can('impersonation.approve');
  if (approver || can('impersonation.request'))
    out.Impersonation = await impersonationPart(db, viewer, now, approver, ctx.config.impersonationReasons);
  const customers = can('customers.read');
  const sites = can('sites.read');
  // Each part counts what the viewer's permission behind it reaches (role-scopes.ts).
  const scopes: PartScopes = {
    customers: scopeFor(viewer.scopes, 'customers.read'),
    sites: scopeFor(viewer.scopes, 'sites.read'),
  };
  if (customers || sites) Object.assign(out, await creationParts(db, now, { customers, sites }, scopes));
  Object.assign(out, await troubleParts(ctx, viewer, now, can));
  if (customers) out.RecentCustomers = await recentCustomersPart(ctx, viewer, scopes.customers);
  return out;
}

/**
 * A staff member (not an impersonation session) opened a customer's profile: kept for their
 * recently-viewed list and written behind the read (recent-views.ts), so the read commits nothing.
 */
export function recordCustomerView(
  ctx: AppContext,
  viewer: StaffSession | undefined,
  customerUid: string,
): void {
  if (!viewer || viewer.impersonation) return;
  recentViews(ctx).add(viewer.uid, customerUid, ctx.clock.now());
}

/** Writes the recently viewed customers not yet written: when the app closes, after the demo data, in tests. */
export const flushCustomerViews = (ctx: AppContext): Promise<void> => recentViews(ctx).flush();

/**
 * The whole list behind the card's trials ending soon: sites whose trial ends within `days` days
 * from now, soonest first or latest first, a page at a time. A cursor carries its order's name
 * ('ends' or '-ends') before the row's key, so a cursor of one order is refused under the other.
 */
export async function trialsEndingList(
  ctx: AppContext,
  q: z.output<typeof trialsEndingQuery>,
  scope: readonly SiteScope[] | undefined,
) {
  const now = ctx.clock.now();
  const order = sortParam(q.sort ?? { key: 'ends', descending: false });
  const descending = order === '-ends';
  let after: trialsRepo.TrialKey | undefined;
  if (q.cursor !== undefined) {
    const [, at, appId] = decodeCursor(q.cursor, [literal(order), PG_TIMESTAMP, DIGITS]);
    after = { at, appId };
  }
  const limit = q.limit ?? TRIALS_PAGE_SIZE;
  const found = await trialsRepo.trialsEndingPage(ctx.db, {
    now,
    until: new Date(now.getTime() + (q.days ?? TRIAL_ENDING_DAYS) * DAY_MS),
    after,
    limit: limit + 1,
    descending,
    scope,
  });
  const page = found.slice(0, limit);
  const last = page.at(-1);
  return {
    Data: page.map((t) => ({
      AppId: Number(t.app_id),
      AppName: t.app_name,
      OwnerUid: t.owner_uid,
      CustomerName: `${t.first_name} ${t.last_name}`.trim(),
      Plan: t.plan,
      DataCenter: t.data_center,
      DataCenterName: t.data_center_name,
      TrialEndsAt: t.trial_ends_at.toISOString(),
    })),
    NextCursor: found.length > limit && last ? encodeCursor([order, last.at_key, String(last.app_id)]) : null,
  };
}
