import { PLANS } from '@sac/contract/customers';
import { DASHBOARD_DAYS, type Dashboard, TRIAL_ENDING_DAYS } from '@sac/contract/dashboard';
import { ROLE_SUPER_ADMIN } from '@sac/contract/permissions';
import type { AppContext, StaffSession } from '../../app-context.ts';
import * as repo from './dashboard.repo.ts';
import { recentViews } from './recent-views.ts';

const DAY_MS = 86_400_000;

/** The last DASHBOARD_DAYS UTC dates, oldest first, as YYYY-MM-DD. */
function lastDays(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: DASHBOARD_DAYS }, (_, i) =>
    new Date(today - (DASHBOARD_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/**
 * GET /admin/dashboard: each part only when the viewer holds the permission of the list behind
 * it; a part left out is not computed either.
 */
export async function dashboard(ctx: AppContext, viewer: StaffSession): Promise<Dashboard> {
  const { db } = ctx;
  const now = ctx.clock.now();
  const can = (p: string) => viewer.permissions.has(p);
  const out: Dashboard = { GeneratedAt: now.toISOString() };

  const approver = can('impersonation.approve');
  if (approver || can('impersonation.request')) {
    const [awaiting, mine, grants] = await Promise.all([
      approver ? repo.awaitingDecision(db, viewer.uid, viewer.email) : undefined,
      repo.minePending(db, viewer.email),
      repo.liveGrants(db, now, viewer, approver ? null : viewer.uid),
    ]);
    out.Impersonation = {
      ...(awaiting
        ? {
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
        })),
      },
    };
  }

  const customers = can('customers.read');
  const sites = can('sites.read');
  if (customers || sites) {
    const days = lastDays(now);
    const counted = await repo.creationDays(db, days[0]!);
    const byDay = new Map(counted.days.map((d) => [d.day, d]));
    const series = (k: 'customers' | 'sites') =>
      days.map((Day) => ({ Day, Count: byDay.get(Day)?.[k] ?? 0 }));
    if (customers) out.Customers = { Total: counted.customers, NewByDay: series('customers') };
    if (sites) {
      const [counts, trials] = await Promise.all([
        repo.siteCounts(db),
        repo.trialsEnding(db, now, new Date(now.getTime() + TRIAL_ENDING_DAYS * DAY_MS)),
      ]);
      const plans = new Map<string, number>(PLANS.map((p) => [p, 0]));
      const centers = new Map<string, { Code: string; Name: string; Count: number }>();
      for (const c of counts) {
        plans.set(c.plan, (plans.get(c.plan) ?? 0) + c.sites);
        const dc = centers.get(c.data_center) ?? { Code: c.data_center, Name: c.name ?? '', Count: 0 };
        dc.Count += c.sites;
        centers.set(c.data_center, dc);
      }
      out.Sites = {
        Total: counted.sites,
        NewByDay: series('sites'),
        ByPlan: [...plans].map(([Plan, Count]) => ({ Plan, Count })),
        ByDataCenter: [...centers.values()].sort((a, b) => b.Count - a.Count || a.Code.localeCompare(b.Code)),
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
  }

  if (can('site-settings.read')) {
    const d = await repo.domainTrouble(db);
    out.CustomDomains = { PendingVerification: d.pending, FailingRechecks: d.failing };
  }
  if (can('audit.read')) {
    const t = await repo.signInTrouble(db, new Date(now.getTime() - DAY_MS));
    out.StaffSignIns = { Failures: t.failures, Lockouts: t.lockouts };
  }
  // Only a SuperAdmin may reset a colleague's factors (mfa.service), so only they are shown the count.
  if (viewer.roles.includes(ROLE_SUPER_ADMIN) && can('team.read')) {
    out.StaffWithoutSecondFactor = { Count: await repo.staffWithoutFactor(db) };
  }
  if (customers) {
    const pending = recentViews(ctx).of(viewer.uid);
    out.RecentCustomers = (await repo.recentCustomers(db, viewer.uid, pending)).map((c) => ({
      Uid: c.uid,
      Name: `${c.first_name} ${c.last_name}`.trim(),
      Email: c.email,
      ViewedAt: c.viewed_at.toISOString(),
    }));
  }
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
