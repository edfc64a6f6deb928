import { expect, type Page, test } from '@playwright/test';
import { ADA } from './support/demo-sites.ts';
import { signIn } from './support/sign-in.ts';

/**
 * Issue 32, names and words: data centers by name with the code on hover, a site picker for
 * notices to chosen sites, the empty-audience hint and plural forms, a title per sign-in mode.
 * Each screen is photographed at 360, 1024 and 1920 px in light and dark (E2E_SHOTS_DIR).
 */
const SHOTS = process.env.E2E_SHOTS_DIR;

async function shoot(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [360, 1024, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      // nothing scrolls sideways at any width
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(size);
}

test('a site shows its data center by name, the code on hover, as the dashboard does', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  // the dashboard's breakdown names them the same way (one component)
  const dashboardName = page.getByText('EU West (Ireland)', { exact: true }).first();
  await expect(dashboardName).toBeVisible();
  await expect(dashboardName).toHaveAttribute('title', 'Code: eu-west');
  await shoot(page, 'dashboard-data-centers');
  await page.goto(`/manage-customer/view-customer?uid=${ADA.uid}`);
  await page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('row')
    .filter({ hasText: 'analytical-engine' })
    .getByRole('button', { name: 'Details' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Site details: analytical-engine' });
  const name = dialog.getByText('EU West (Ireland)');
  await expect(name).toBeVisible();
  await expect(name).toHaveAttribute('title', 'Code: eu-west');
  await expect(dialog.getByText('eu-west', { exact: true })).toHaveCount(0);
  await shoot(page, 'site-details-data-center');
});

test('a notice to chosen sites: found by customer name, chosen as chips, counted in words', async ({
  page,
}) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-notifications/compose');
  await page.getByRole('radio', { name: 'By plan' }).check();
  await expect(page.getByText('Tick at least one plan to see how many owners it reaches.')).toBeVisible();
  await page.getByRole('radio', { name: 'Chosen sites' }).check();
  await expect(page.getByText('Choose at least one site to see how many owners it reaches.')).toBeVisible();
  await page.getByLabel('Find a site by customer or site name').fill('Ada Lovelace');
  const results = page.getByRole('list', { name: 'Sites found' });
  await results.getByRole('button', { name: /^Add analytical-engine/ }).click();
  await expect(page.getByText('1 chosen site', { exact: true })).toBeVisible();
  const chip = page.getByRole('list', { name: '1 chosen site' }).getByRole('listitem');
  await expect(chip).toContainText('analytical-engine');
  await expect(page.getByText('Owner addresses this audience reaches: 1.')).toBeVisible();
  await shoot(page, 'notice-site-picker');
  // the confirmation names one address in the singular
  await page.getByLabel('Subject').fill('Words check');
  await page.getByLabel('Text').fill('Only a check of the words.');
  await page.getByRole('button', { name: 'Send notice' }).click();
  const confirm = page.getByRole('dialog', { name: 'Send this notice now?' });
  await expect(confirm).toContainText('It goes to 1 owner address at once');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await chip.getByRole('button', { name: 'Remove analytical-engine' }).click();
  await expect(page.getByText('No site chosen yet.')).toBeVisible();
});

test('each mode of the sign-in screen has its own title', async ({ page }) => {
  await page.goto('/login?vtype=reset&vtoken=abc');
  await expect(page).toHaveTitle('Reset password | Super Admin Console');
  await page.goto('/login?vtype=invite&vtoken=abc');
  await expect(page).toHaveTitle('Set your password | Super Admin Console');
  await page.goto('/login');
  await expect(page).toHaveTitle('Login | Super Admin Console');
});
