import { expect, type Page, test } from '@playwright/test';
import { signIn } from './support/sign-in.ts';
import { rowOf, showRow } from './support/team-list.ts';

// Screenshots at three widths in two schemes: more than the default 30 s.
test.setTimeout(120_000);

/** Full pages at 360, 1024 and 1920 px, light and dark, when E2E_SHOTS_DIR is set. */
async function shoot(page: Page, name: string) {
  const shots = process.env.E2E_SHOTS_DIR;
  if (!shots) return;
  for (const scheme of ['light', 'dark'] as const)
    for (const width of [360, 1024, 1920]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${shots}/${name}-${width}-${scheme}.png`, fullPage: true });
    }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

const reviewCard = (page: Page) => page.getByRole('region', { name: 'Access review' });
const dueList = (page: Page) =>
  reviewCard(page).getByRole('list', { name: 'Members whose roles are to be confirmed' });

test('a review cycle: a member shown due, a SuperAdmin confirms their roles, the member is no longer due', async ({
  page,
}) => {
  // The demo's Sol Support had their roles last confirmed 80 days ago: due within the 90 days.
  await signIn(page, 'superadmin@example.com');
  await expect(reviewCard(page)).toBeVisible();
  await expect(dueList(page).getByRole('listitem').filter({ hasText: 'Sol Support' })).toContainText('due');
  await expect(reviewCard(page)).toContainText(
    'Roles are to be confirmed every 90 days; overdue members keep them until a SuperAdmin decides.',
  );
  await shoot(page, 'access-review-dashboard');

  await reviewCard(page).getByRole('link', { name: 'Review on the team screen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Superuser' })).toBeVisible();
  const sol = await showRow(page, 'support@example.com');
  await expect(sol).toContainText('Review due');
  await expect(sol).toContainText('Last confirmed by superadmin@example.com');
  // no one confirms their own roles: the SuperAdmin's own row offers no decision
  await expect(page.getByRole('button', { name: 'Confirm roles of superadmin@example.com' })).toHaveCount(0);
  await shoot(page, 'access-review-team');

  await sol.getByRole('button', { name: 'Confirm roles of support@example.com' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Roles confirmed.' })).toBeVisible();
  const confirmed = rowOf(page, 'support@example.com');
  await expect(confirmed).toContainText('Confirmed');
  await expect(confirmed).not.toContainText('Review due');

  // the remove dialog names what goes, and Cancel keeps everything
  await confirmed.getByRole('button', { name: 'Remove roles of support@example.com' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove every role?' });
  await expect(dialog).toContainText('support@example.com loses Support.');
  await shoot(page, 'access-review-remove');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await page.goto('/dashboard');
  await expect(reviewCard(page)).toBeVisible();
  await expect(reviewCard(page).getByText('Sol Support')).toHaveCount(0);
});
