import { test } from '@playwright/test';
import { signIn } from './support/sign-in.ts';
test('look', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto('/manage-superuser/manage-superuser?sort=-created');
    await page.getByRole('table').getByRole('row').nth(1).waitFor();
    for (const w of [360, 1024, 1920]) {
      await page.setViewportSize({ width: w, height: 800 });
      await page.screenshot({ path: `/tmp/look/team-${theme}-${w}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.route('**/admin/team*', async (r) => { await new Promise((f) => setTimeout(f, 4000)); await r.continue(); });
  await page.goto('/manage-superuser/manage-superuser');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: '/tmp/look/team-loading-1024.png' });
});
