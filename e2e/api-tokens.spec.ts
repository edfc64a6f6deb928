import { expect, test } from '@playwright/test';
import { createStaff } from './support/api.ts';
import { signIn } from './support/sign-in.ts';

test('an API token is made in the console, copied once, used against the API, and revoked', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const staff = await createStaff(request, { email: 'token-maker@example.com', roles: ['Support'] });
  await signIn(page, staff.email, staff.password);

  await page.getByRole('button', { name: /token-maker@example.com/ }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'API tokens' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible();

  // Only the maker's own permissions are offered (a Support user holds no team permission).
  const permissions = page.getByRole('group', { name: 'Permissions' });
  await expect(permissions.getByRole('checkbox', { name: /customers\.read/ })).toBeVisible();
  await expect(permissions.getByRole('checkbox', { name: /team\.read/ })).toHaveCount(0);
  await page.getByLabel('Name').fill('Nightly report');
  await page.getByLabel('Expires in').selectOption('7');
  await permissions.getByRole('checkbox', { name: /customers\.read/ }).check();
  await page.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByRole('status').filter({ hasText: 'Your new token' });
  await expect(shown).toContainText('shown only this once');
  await shown.getByRole('button', { name: 'Copy token' }).click();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^sac_/);
  await expect(shown.locator('code')).toHaveText(token);

  const bearer = { 'X-Requested-With': 'XMLHttpRequest', Authorization: `Bearer ${token}` };
  const me = await request.get('/admin/session', { headers: bearer });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { Permissions: string[] }).Permissions).toEqual(['customers.read']);
  // A permission the token was not given is refused.
  expect((await request.get('/admin/team', { headers: bearer })).status()).toBe(403);

  await shown.getByRole('button', { name: 'Done, I copied it' }).click();
  await expect(page.getByText(token)).toHaveCount(0);
  const table = page.getByRole('table', { name: 'Tokens' });
  const row = table.getByRole('row').filter({ hasText: 'Nightly report' });
  await expect(row).toContainText('Active');

  const shots = process.env.E2E_SHOTS_DIR;
  if (shots)
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [360, 1024, 1920]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${shots}/api-tokens-${width}-${scheme}.png`, fullPage: true });
      }

  await row.getByRole('button', { name: 'Revoke Nightly report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “Nightly report”?' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('The token was revoked.')).toBeVisible();
  await expect(row).toContainText('Revoked');
  expect((await request.get('/admin/session', { headers: bearer })).status()).toBe(401);
});

test('a SuperAdmin cannot save an address allowlist that locks out their own address', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/account/api-tokens');
  const card = page.getByRole('region', { name: 'Address allowlist' });
  await expect(card).toContainText('Your address, as the server sees it: 127.0.0.1');
  const entries = card.getByLabel('Allowed addresses');
  await entries.fill('10.0.0.0/8');
  await card.getByRole('button', { name: 'Save allowlist' }).click();
  await expect(page.getByText('does not include your current address (127.0.0.1)')).toBeVisible();
  await entries.fill('10.0.0.0/8\n127.0.0.1\n2001:db8::/32');
  await card.getByRole('button', { name: 'Save allowlist' }).click();
  await expect(page.getByText('The address allowlist was saved.')).toBeVisible();

  const shots = process.env.E2E_SHOTS_DIR;
  if (shots)
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [360, 1024, 1920]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({
          path: `${shots}/api-tokens-superadmin-${width}-${scheme}.png`,
          fullPage: true,
        });
      }
  // Everyone may come in again: the other specs sign in from this address too.
  await entries.fill('');
  await card.getByRole('button', { name: 'Save allowlist' }).click();
  await expect(page.getByText('The address allowlist was saved.').first()).toBeVisible();
  await page.reload();
  await expect(card.getByLabel('Allowed addresses')).toHaveValue('');
});
