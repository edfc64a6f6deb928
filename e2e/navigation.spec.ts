import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createStaff } from './support/api.ts';
import { signIn } from './support/sign-in.ts';

/**
 * Issue 32: every role walks every navigation entry it is shown (the top navigation's links and
 * every item of its menus, never an empty menu) and every link of its dashboard; none leads to a
 * screen that refuses it.
 */

const REFUSED = /You do not have permission to open this screen|You do not have the Access for Impersonation/;

async function signInAs(page: Page, request: APIRequestContext, role: string) {
  if (role === 'SuperAdmin') return signIn(page, 'superadmin@example.com');
  const staff = await createStaff(request, {
    email: `nav-${role.toLowerCase()}-${Date.now()}@example.com`,
    roles: [role],
  });
  await signIn(page, staff.email, staff.password);
}

/** The addresses of the top navigation: its links, and each menu's items (each menu opened once). */
async function navigationTargets(page: Page): Promise<{ entries: string[]; targets: string[] }> {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const entries: string[] = [];
  const targets: string[] = [];
  for (const link of await nav.locator(':scope > a').all()) {
    entries.push((await link.textContent()) ?? '');
    targets.push((await link.getAttribute('href')) ?? '');
  }
  for (const button of await nav.getByRole('button').all()) {
    entries.push((await button.textContent()) ?? '');
    await button.click();
    const menu = page.locator(`#${await button.getAttribute('aria-controls')}`);
    const items = menu.getByRole('link');
    await expect(items.first(), `the ${await button.textContent()} menu is empty`).toBeVisible();
    for (const a of await items.all()) targets.push((await a.getAttribute('href')) ?? '');
    await page.keyboard.press('Escape');
  }
  return { entries, targets };
}

/** Opens each address and checks the screen shows, not a refusal. */
async function walk(page: Page, hrefs: string[]) {
  for (const href of new Set(hrefs)) {
    await page.goto(href);
    const main = page.getByRole('main');
    // The screen or its refusal (the route's guard answers as it renders, with a heading of its own).
    await expect(main.getByRole('heading', { level: 1 }).first(), href).toBeAttached();
    await expect(main.getByText(REFUSED), href).toHaveCount(0);
  }
}

const SHOWN: Record<string, string[]> = {
  SuperAdmin: ['Dashboard', 'Manage Notfications', 'Manage Customer', 'Manage Superuser'],
  Admin: ['Dashboard', 'Manage Notfications', 'Manage Customer', 'Manage Superuser'],
  Support: ['Dashboard', 'Manage Customer', 'Manage Superuser'],
  Auditor: ['Dashboard', 'Manage Superuser'],
};

for (const role of Object.keys(SHOWN)) {
  test(`${role}: every navigation entry and dashboard link opens a screen they may see`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await signInAs(page, request, role);
    const { entries, targets } = await navigationTargets(page);
    expect(entries).toEqual(SHOWN[role]);
    await page.goto('/dashboard');
    await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first()).toBeVisible();
    const dashboardLinks = await page
      .getByRole('main')
      .getByRole('link')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    await walk(page, [...targets, ...dashboardLinks.filter((h) => h.startsWith('/'))]);
  });
}
