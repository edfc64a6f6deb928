import { consolePaths } from '@sac/contract/console-paths';
import { BUILT_IN_ROLES, type Permission, permissionsOf } from '@sac/contract/permissions';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { translatePhrase } from '../lib/i18n.tsx';
import { renderScreen, stubApi, viewer } from '../testing/api-stub.tsx';
import { TopNav } from './layout/top-nav.tsx';
import { allowedTabs, mayOpen, NAVIGATION, visibleNavigation } from './navigation.ts';
import { sections, sectionTabs } from './route-table.tsx';

/**
 * Issue 32: a navigation entry shows only when the viewer may open a screen behind it, and a menu
 * lists only the tabs they may open. What each built-in role sees, entry by entry and tab by tab.
 */
const ROLES = ['SuperAdmin', 'Admin', 'Support', 'Auditor'] as const;
type Role = (typeof ROLES)[number];
const permissionsOfRole = (role: Role) => permissionsOf([role]);

const DASHBOARD = consolePaths.dashboard();
const NOTICES = consolePaths.notifications();
const c = {
  search: consolePaths.customerSearch(),
  create: consolePaths.createCustomer(),
  domains: consolePaths.customDomains(),
  trials: consolePaths.trialsEnding(),
};
const team = {
  list: consolePaths.superusers(),
  create: consolePaths.createSuperuser(),
  sso: consolePaths.singleSignOn(),
  logs: consolePaths.impersonationLogs(),
  requests: consolePaths.impersonationRequests(),
  audit: consolePaths.auditTrail(),
  webhooks: consolePaths.webhooks(),
};

/** Entry id -> what the role is shown: a link's address, a menu's tabs, or nothing (absent). */
const EXPECTED: Record<Role, Record<string, string | string[] | undefined>> = {
  SuperAdmin: {
    dashboard: DASHBOARD,
    'manage-customer': [c.search, c.create, c.domains, c.trials],
    'manage-superuser': [
      team.list,
      team.create,
      team.sso,
      team.logs,
      team.requests,
      team.audit,
      team.webhooks,
    ],
    'manage-notifications': NOTICES,
  },
  Admin: {
    dashboard: DASHBOARD,
    'manage-customer': [c.search, c.create, c.domains, c.trials],
    'manage-superuser': [team.list, team.create, team.logs, team.requests],
    'manage-notifications': NOTICES,
  },
  Support: {
    dashboard: DASHBOARD,
    'manage-customer': [c.search, c.domains, c.trials],
    'manage-superuser': [team.logs, team.requests],
    'manage-notifications': undefined,
  },
  Auditor: {
    dashboard: DASHBOARD,
    'manage-customer': undefined,
    'manage-superuser': [team.audit],
    'manage-notifications': undefined,
  },
};

describe('navigation by permission', () => {
  it('names every built-in role and every navigation entry in the table', () => {
    expect(Object.keys(BUILT_IN_ROLES).sort()).toEqual([...ROLES].sort());
    for (const role of ROLES) expect(Object.keys(EXPECTED[role])).toEqual(NAVIGATION.map((e) => e.id));
  });

  const cases = ROLES.flatMap((role) => NAVIGATION.map((entry) => [role, entry.id] as const));
  it.each(cases)('%s: %s', (role, id) => {
    const perms = permissionsOfRole(role);
    const shown = visibleNavigation(perms).find((e) => e.id === id);
    const expected = EXPECTED[role][id];
    if (expected === undefined) {
      expect(shown).toBeUndefined();
      return;
    }
    expect(shown).toBeDefined();
    if (typeof expected === 'string') {
      expect('to' in shown! && shown.to).toBe(expected);
      expect(mayOpen(expected, perms)).toBe(true);
      return;
    }
    // A menu: never empty, every tab openable, and no tab the role may open left out.
    const items = 'items' in shown! ? shown.items : [];
    expect(items.map((i) => i.to)).toEqual(expected);
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) expect(mayOpen(i.to, perms), i.to).toBe(true);
    const entry = NAVIGATION.find((e) => e.id === id)!;
    const section = 'section' in entry ? entry.section : undefined;
    for (const tab of sectionTabs(section!))
      if (!expected.includes(tab.to)) expect(mayOpen(tab.to, perms), tab.to).toBe(false);
  });

  it('answers for addresses with a query, patterns, nested screens and the section roots', () => {
    const auditor = permissionsOfRole('Auditor');
    const support = permissionsOfRole('Support');
    expect(mayOpen(consolePaths.auditTrail({ action: 'login.failed', range: '24h' }), auditor)).toBe(true);
    expect(mayOpen(consolePaths.customerView({ uid: 'c-1' }), auditor)).toBe(false);
    expect(mayOpen(consolePaths.customerView({ uid: 'c-1' }), support)).toBe(true);
    expect(mayOpen(consolePaths.superuserProfile({ uid: 'u-1' }), auditor)).toBe(true);
    expect(mayOpen(consolePaths.impersonatedSite({ uid: 'c', appId: 1 }), auditor)).toBe(false);
    expect(mayOpen(consolePaths.impersonatedSite({ uid: 'c', appId: 1 }), support)).toBe(true);
    // The sections' own addresses: Manage Customer needs customers.read; Manage Superuser a tab.
    expect(mayOpen(consolePaths.customers(), auditor)).toBe(false);
    expect(mayOpen(consolePaths.team(), auditor)).toBe(true);
    expect(mayOpen(consolePaths.team(), new Set<Permission>())).toBe(false);
    // Not a screen: the breadcrumb's name of the account screens.
    expect(mayOpen(consolePaths.account(), auditor)).toBe(false);
    for (const s of sections) expect(allowedTabs(s, new Set())).toEqual([]);
  });
});

describe('the top navigation', () => {
  it('shows the Auditor no Manage Customer nor Manage Notfications, and a Manage Superuser menu of the trail', async () => {
    stubApi(viewer('Auditor', [...permissionsOfRole('Auditor')] as Permission[]), {});
    renderScreen('/dashboard', [{ path: '/dashboard', element: <TopNav /> }]);
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('button', { name: 'Manage Customer' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Manage Notfications' })).toBeNull();
    fireEvent.click(within(nav).getByRole('button', { name: 'Manage Superuser' }));
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', translatePhrase('en', { ns: 'audit', key: 'auditTrail' })]);
  });

  it('shows Support Manage Customer but not Manage Notfications', async () => {
    stubApi(viewer('Support', [...permissionsOfRole('Support')] as Permission[]), {});
    renderScreen('/dashboard', [{ path: '/dashboard', element: <TopNav /> }]);
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('button', { name: 'Manage Customer' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Manage Notfications' })).toBeNull();
  });
});
