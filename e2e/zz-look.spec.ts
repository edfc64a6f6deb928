import { test } from '@playwright/test';
import { signIn } from './support/sign-in.ts';
test('look', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  const shots: Array<[string, string]> = [
    ['requests', '/manage-superuser/impersonation/assigned-requests?sort=-priority'],
    ['logs', '/manage-superuser/impersonation/logs?sort=app'],
    ['search', '/manage-customer/search-customer?customerName=ada&sort=-created'],
    ['audit', '/manage-superuser/audit-trail'],
  ];
  for (const [name, path] of shots) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await page.getByRole('table').first().locator('tbody tr td').first().waitFor();
    await page.waitForTimeout(300);
    for (const w of [360, 1024, 1920]) {
      await page.setViewportSize({ width: w, height: 800 });
      await page.screenshot({ path: `/tmp/look/${name}-${w}.png`, fullPage: true });
    }
  }
});
