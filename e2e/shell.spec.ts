import { expect, test } from '@playwright/test';
import { signIn } from './support/sign-in.ts';

test('the shell: navigation, dropdowns, sidebar, breadcrumb, title and footer', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Manage Notfications' })).toBeVisible();
  await nav.getByRole('button', { name: 'Manage Superuser' }).click();
  await nav.getByRole('link', { name: 'Create Superuser' }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/create-superuser$/);
  await expect(page).toHaveTitle(/Create Superuser.*Manage Superuser/);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs).toContainText('Manage Superuser');
  await expect(crumbs).toContainText('Create Superuser');
  const sidebar = page.getByRole('navigation', { name: 'Manage Superuser navigation' });
  // The impersonation tabs are the children of a parent: it opens its group on the first child.
  const parent = sidebar.getByRole('button', { name: 'Impersonation' });
  await expect(parent).toHaveAttribute('aria-expanded', 'false');
  await expect(sidebar.getByRole('link', { name: 'Impersonation Logs' })).toBeHidden();
  await parent.click();
  await expect(parent).toHaveAttribute('aria-expanded', 'true');
  await expect(page).toHaveURL(/\/manage-superuser\/impersonation\/logs$/);
  await expect(sidebar.getByRole('link', { name: 'Impersonation Logs' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(sidebar.getByRole('link', { name: 'Assigned Impersonation Requests' })).toBeVisible();
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  for (const link of ['Terms', 'Privacy', 'System Status']) {
    await expect(page.getByRole('contentinfo').getByRole('link', { name: link })).toBeVisible();
  }
});

test('going offline shows the connection overlay, and coming back hides it', async ({ page, context }) => {
  await signIn(page, 'superadmin@example.com');
  await context.setOffline(true);
  await expect(page.getByRole('heading', { name: 'No internet connection' })).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: 'No internet connection' })).toBeHidden();
});

test('a failed start-up shows the initialization failure page', async ({ page }) => {
  await page.route('**/runtime-config.json', (route) => route.abort('internetdisconnected'));
  await page.goto('/login');
  await expect(page.getByText('App initialization failed. Please check your network.')).toBeVisible();
});

test('legacy storage keys are migrated at start-up', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  const pair = await page.evaluate(() => {
    const p = { t: localStorage.getItem('lr-admin-token'), s: localStorage.getItem('lr-admin-sign') };
    localStorage.clear();
    localStorage.setItem('lr-token', p.t ?? '');
    localStorage.setItem('lr-sign', p.s ?? '');
    return p;
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const after = await page.evaluate(() => ({
    t: localStorage.getItem('lr-admin-token'),
    legacy: localStorage.getItem('lr-token'),
  }));
  expect(after).toEqual({ t: pair.t, legacy: null });
});
