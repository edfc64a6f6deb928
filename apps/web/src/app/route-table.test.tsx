import { consolePaths } from '@sac/contract/console-paths';
import { describe, expect, it } from 'vitest';
import type { AppRoute } from '../lib/app-route.ts';
import { pathLabels, publicRoutes, sections, sectionTabs, shellRoutes } from './route-table.tsx';

/** Every path the route table mounts (sections, their screens, and screens nested in screens). */
function mountedPaths(): string[] {
  const out: string[] = [];
  const walk = (routes: readonly AppRoute[]) => {
    for (const r of routes) {
      if (r.path) out.push(r.path);
      if (r.children) walk(r.children);
    }
  };
  walk(publicRoutes);
  walk(shellRoutes);
  for (const s of sections) {
    out.push(s.path);
    walk(s.children);
  }
  return out;
}

/** Entries of the table that name no screen: '/account' only names the account screens' crumb. */
const NOT_SCREENS: readonly string[] = [consolePaths.account.path];

describe('the route table and the contract’s console paths', () => {
  it('mounts every screen of consolePaths, and only those, each once', () => {
    const mounted = mountedPaths();
    expect(new Set(mounted).size).toBe(mounted.length);
    const table = Object.values(consolePaths)
      .map((s) => s.path)
      .filter((p) => !NOT_SCREENS.includes(p));
    expect([...mounted].sort()).toEqual([...table].sort());
  });

  it('gives the sidebar tabs and the breadcrumb the same addresses', () => {
    const customers = sections.find((s) => s.path === consolePaths.customers.path)!;
    expect(sectionTabs(customers).map((t) => t.to)).toEqual([
      consolePaths.customerSearch(),
      consolePaths.createCustomer(),
      consolePaths.customDomains(),
      consolePaths.trialsEnding(),
    ]);
    const team = sections.find((s) => s.path === consolePaths.team.path)!;
    expect(sectionTabs(team).map((t) => t.to)).toEqual([
      consolePaths.superusers(),
      consolePaths.createSuperuser(),
      consolePaths.singleSignOn(),
      consolePaths.impersonationLogs(),
      consolePaths.impersonationRequests(),
      consolePaths.auditTrail(),
      consolePaths.webhooks(),
    ]);
    const labels = pathLabels();
    expect(labels[consolePaths.superuserProfile.path]).toEqual({ ns: 'screens', key: 'superuserProfile' });
    expect(labels[consolePaths.account.path]).toEqual({ ns: 'chrome', key: 'account' });
    expect(labels[consolePaths.team.path]).toEqual({ ns: 'chrome', key: 'manageSuperuser' });
  });
});
