import { expect, test } from '@playwright/test';
import { createStaff } from './support/api.ts';
import { demoSite } from './support/demo-sites.ts';
import { signIn } from './support/sign-in.ts';

test('My sessions lists where I am signed in and ends the others: their next call goes to sign-in', async ({
  browser,
  request,
}) => {
  const staff = await createStaff(request, { email: 'two-desks@example.com', roles: ['Admin'] });
  const laptop = await browser.newPage();
  const desk = await browser.newPage();
  // two browsers of one account (separate contexts: separate storage)
  await signIn(laptop, staff.email, staff.password);
  await signIn(desk, staff.email, staff.password);

  await laptop.getByRole('button', { name: /two-desks@example.com/ }).click();
  await laptop.getByRole('menuitem', { name: 'Account' }).click();
  await laptop.getByRole('menuitem', { name: 'My sessions' }).click();
  const table = laptop.getByRole('table', { name: 'My sessions' });
  await expect(table.getByRole('row')).toHaveCount(3); // the header and two sessions
  await expect(table.getByText('This session')).toHaveCount(1);
  await laptop.getByRole('button', { name: 'End all other sessions' }).click();
  await expect(laptop.getByText('1 session ended.')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(2);

  await desk.goto('/manage-customer/search-customer');
  await expect(desk).toHaveURL(/\/login/);
  // the sign-in screen says why (issue 32)
  await expect(desk.getByRole('status').filter({ hasText: 'You were signed out' })).toContainText(
    'This session was ended from My sessions. Please sign in again.',
  );
  const shots = process.env.E2E_SHOTS_DIR;
  if (shots)
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [360, 1024, 1920]) {
        await desk.emulateMedia({ colorScheme: scheme });
        await desk.setViewportSize({ width, height: 900 });
        await desk.screenshot({
          path: `${shots}/sign-in-session-ended-${width}-${scheme}.png`,
          fullPage: true,
        });
      }
  await laptop.close();
  await desk.close();
});

test('a new site API secret is shown once; the old one stops at once when no grace is chosen', async ({
  page,
  request,
}) => {
  const before = demoSite('difference-engine');
  const customerCall = (apisecret: string) =>
    request.post('/admin/impersonation/customer/requests', {
      headers: { 'X-Requested-With': 'XMLHttpRequest', apikey: before.apiKey, apisecret },
      data: {
        data: {
          Priority: 'Low',
          Description: 'Key check',
          ProxyRoles: ['Analyst'],
          AdditionalPermissions: [],
          Duration: 5,
        },
      },
    });
  expect((await customerCall(before.secret)).status()).not.toBe(401);

  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/view-customer?uid=cba00000-0000-4000-8000-000000001791');
  const owned = page.getByRole('table', { name: 'Owned sites' });
  await owned
    .getByRole('row')
    .filter({ hasText: 'difference-engine' })
    .getByRole('button', { name: 'New API secret' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'New API secret for difference-engine' });
  await dialog.getByRole('radio', { name: 'stops working at once' }).check();
  await dialog.getByRole('button', { name: 'Issue a new secret' }).click();
  const secret = await dialog.getByRole('textbox', { name: 'API Secret' }).inputValue();
  await expect(dialog.getByText('The previous secret no longer works.')).toBeVisible();
  await dialog.getByRole('button', { name: 'I have copied the secret' }).click();
  await expect(dialog).toBeHidden();

  expect((await customerCall(before.secret)).status()).toBe(401);
  expect((await customerCall(secret)).status()).not.toBe(401);
});
