import { STORAGE_KEYS } from '@sac/contract/constants';
import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { audit } from '../i18n/en/audit.ts';
import { customers } from '../i18n/en/customers.ts';
import { impersonation } from '../i18n/en/impersonation.ts';
import { screens } from '../i18n/en/screens.ts';
import { siteSettings } from '../i18n/en/site-settings.ts';
import { team } from '../i18n/en/team.ts';
import { webhooks } from '../i18n/en/webhooks.ts';
import { setApiBase } from '../lib/api-base.ts';

/**
 * What words a view downloads. The test setup loads every namespace; these tests take fresh copies
 * of the modules, as the browser has them before signing in.
 */
const EAGER = ['auth', 'chrome', 'common', 'dashboard', 'notifications'];
const SHELL = ['screens', 'staffNotifications'];

async function fresh() {
  vi.resetModules();
  const i18n = await import('../lib/i18n.tsx');
  const table = await import('./route-table.tsx');
  const navigation = await import('./navigation.ts');
  const router = await import('./router.tsx');
  const { createQueryClient } = await import('../lib/query-client.ts');
  return { i18n, table, navigation, router, createQueryClient };
}

beforeEach(() => setApiBase(''));

describe('the signed-in shell’s words', () => {
  it('are the sign-in screen’s and its own namespaces, and no section’s', async () => {
    const { i18n } = await fresh();
    expect(i18n.loadedNamespaces()).toEqual(EAGER);
    expect([...i18n.SHELL_NAMESPACES].sort()).toEqual(SHELL);
    await i18n.loadPhrases(i18n.SHELL_NAMESPACES);
    expect(i18n.loadedNamespaces()).toEqual([...EAGER, ...SHELL].sort());
  });

  it('name every screen of the route table and the navigation, with no section loaded', async () => {
    const { i18n, table, navigation } = await fresh();
    await i18n.loadPhrases(i18n.SHELL_NAMESPACES);
    const labels = [
      ...Object.values(table.pathLabels()),
      ...navigation.NAVIGATION.map((e) => e.label),
      ...table.sections.flatMap((s) => table.sectionTabs(s).flatMap((t) => [t.label, t.parent ?? t.label])),
    ];
    const unnamed = labels.filter((ref) => i18n.translatePhrase('en', ref) === ref.key);
    expect(unnamed.map((ref) => `${ref.ns}.${ref.key}`)).toEqual([]);
  });
});

describe('the customer search’s first view', () => {
  it('loads the customers’ words with its route, and no other section’s', async () => {
    const { i18n, router, createQueryClient } = await fresh();
    const { QueryClientProvider } = await import('@tanstack/react-query');
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 's');
    localStorage.setItem(STORAGE_KEYS.loginState, JSON.stringify({ Email: 'ada@example.com', Name: 'Ada' }));
    const session = {
      Email: 'ada@example.com',
      Name: 'Ada',
      Role: ['SuperAdmin'],
      Permissions: ['customers.read', 'team.read', 'impersonation.request', 'audit.read', 'webhooks.manage'],
      Uid: 'u1',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(session)),
    );
    const memory = createMemoryRouter(router.buildRoutes(), {
      initialEntries: ['/manage-customer/search-customer'],
    });
    // Every text the page shows as it changes: a key in place of its words would be caught here.
    const shown: string[] = [];
    const observer = new MutationObserver(() => shown.push(document.body.textContent ?? ''));
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    await act(async () => {
      render(
        <i18n.I18nProvider initial="en">
          <QueryClientProvider client={createQueryClient()}>
            <RouterProvider router={memory} />
          </QueryClientProvider>
        </i18n.I18nProvider>,
      );
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Search Customer' })).toBeTruthy();
    observer.disconnect();
    expect(i18n.loadedNamespaces()).toEqual([...EAGER, ...SHELL, 'customers'].sort());
    // The top navigation's menus name the other sections' screens all the same.
    expect(screen.getByRole('navigation', { name: 'Main navigation' }).textContent).toContain(
      'Manage Superuser',
    );
    expect(shown.some((text) => /\bsearchCustomer\b|\bsectionNav\b/.test(text))).toBe(false);
  });
});

describe('the screens’ names in the shell', () => {
  it('are the words of each screen’s heading in its section', () => {
    const headings: Record<keyof typeof screens, string> = {
      searchCustomer: customers.searchCustomer,
      createCustomer: customers.createCustomer,
      editSite: customers.editSite,
      addSite: customers.addSite,
      viewCustomer: customers.viewCustomer,
      bulkJob: customers.bulkJobCrumb,
      siteConfiguration: siteSettings.siteConfiguration,
      customDomains: siteSettings.everySiteDomains,
      impersonateSite: impersonation.impersonateSite,
      impersonatedSite: impersonation.impersonatedSite,
      impersonation: impersonation.impersonation,
      impersonationLogs: impersonation.logs,
      assignedRequests: impersonation.assignedRequests,
      createSuperuser: team.createSuperuser,
      singleSignOn: team.singleSignOn,
      permissionList: team.permissionList,
      roleDetails: team.roleDetails,
      superuserProfile: team.profile,
      auditTrail: audit.auditTrail,
      webhooks: webhooks.heading,
      webhookSubscription: webhooks.subscription,
      consent: impersonation.consentTitle,
      siteAccess: impersonation.siteAccessTitle,
    };
    expect(screens).toEqual(headings);
  });
});
