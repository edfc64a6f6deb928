import { expect, test } from '@playwright/test';
import { signIn } from './support/sign-in.ts';

test('the theme follows the system, and the user menu chooses system, light or dark, kept across reloads', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, 'superadmin@example.com');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');

  const menu = page.getByRole('button', { name: 'superadmin@example.com' });
  await menu.click();
  const dark = page.getByRole('menuitemradio', { name: 'Dark' });
  await expect(page.getByRole('menuitemradio', { name: 'As the system' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await dark.click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await menu.click();
  await expect(dark).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.goto('/manage-customer/view-customer?uid=ada00000-0000-4000-8000-000000001815');
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: test.info().outputPath(`customer-view-dark-${width}.png`),
      fullPage: true,
    });
  }
  await page.goto('/manage-superuser/audit-trail');
  await expect(page.getByRole('table', { name: 'Audit trail events' }).getByRole('row').nth(1)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('audit-trail-dark-1280.png'), fullPage: true });

  await menu.click();
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'light');
  await menu.click();
  await page.getByRole('menuitemradio', { name: 'As the system' }).click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
});

test("before any script runs, the page is painted in the system's scheme", async ({ page }) => {
  // The console's scripts never arrive: what shows is the stylesheet's own choice.
  await page.route('**/*.js', (route) => route.abort());
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  for (const [scheme, colour] of [
    ['dark', 'rgb(14, 19, 30)'],
    ['light', 'rgb(244, 246, 250)'],
  ] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/login');
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
    expect(await background()).toBe(colour);
  }
});

test.describe('times', () => {
  test.use({ timezoneId: 'Europe/Paris' });

  test('times read relative, exact in my zone on focus, or in UTC when chosen in the user menu', async ({
    page,
  }) => {
    await signIn(page, 'superadmin@example.com');
    await page.goto('/account/sessions');
    const used = page.getByRole('table').getByRole('row').nth(1).locator('time').last();
    await expect(used).toContainText(/now|ago/);
    await expect(used).toHaveAttribute('title', /^\d\d-\d\d-\d{4} \d\d:\d\d:\d\d \(Europe\/Paris\)$/);
    await used.focus();
    await page.screenshot({ path: test.info().outputPath('my-sessions-time-focused.png') });

    const menu = page.getByRole('button', { name: 'superadmin@example.com' });
    await menu.click();
    await expect(page.getByRole('menuitemradio', { name: 'My time zone (Europe/Paris)' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await page.getByRole('menuitemradio', { name: 'UTC' }).click();
    await expect(used).toHaveAttribute('title', /\(UTC\)$/);
    await page.reload();
    await expect(page.getByRole('table').getByRole('row').nth(1).locator('time').last()).toHaveAttribute(
      'title',
      /\(UTC\)$/,
    );
  });
});
