import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { apiSignIn } from './support/api.ts';
import { shoot } from './support/shots.ts';
import { signIn } from './support/sign-in.ts';
import { createSiteOwner } from './support/site-owner.ts';

/** axe on the page as it is now: no serious or critical violation (accessibility.spec.ts's rules). */
async function axeClean(page: Page, what: string) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  const serious = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  expect.soft(serious, `axe on ${what}`).toEqual([]);
}

test('bulk deactivate: pick a page of sites, read the dry run, run it, then undo it from the toast', async ({
  page,
  request,
}) => {
  // the screenshots (E2E_SHOTS_DIR) take a while at three widths and two themes
  test.setTimeout(120_000);
  const owner = await createSiteOwner(request, { email: 'bulk-owner@example.com', appname: 'bulk-one' });
  const headers = await apiSignIn(request, 'superadmin@example.com');
  for (const appname of ['bulk-two', 'bulk-three']) {
    const r = await request.post(`/admin/site?uid=${owner.uid}`, { headers, data: { appname } });
    expect(r.ok(), await r.text()).toBe(true);
  }
  await signIn(page, 'superadmin@example.com');
  await page.goto(`/manage-customer/view-customer?uid=${owner.uid}`);
  const owned = page.getByRole('table', { name: 'Owned sites' });
  await expect(owned.getByRole('row')).toHaveCount(4);

  // pick the page with the keyboard: the header's box, then Space
  await owned.getByRole('checkbox', { name: 'Select the sites of this page' }).focus();
  await page.keyboard.press('Space');
  const bar = page.getByRole('region', { name: 'Bulk actions on the selected sites' });
  await expect(bar.getByText('3 selected')).toBeVisible();
  await axeClean(page, 'the owned sites with a selection');
  await shoot(page, 'bulk-selection');

  await bar.getByRole('button', { name: 'Deactivate selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate sites' });
  await expect(dialog.getByText('3 sites will be deactivated.')).toBeVisible();
  await expect(dialog.getByText('A bulk action takes at most 10,000 sites.')).toBeVisible();
  await axeClean(page, 'the dry run');
  await shoot(page, 'bulk-dry-run', false);
  await dialog.getByRole('button', { name: 'Deactivate 3 sites' }).click();

  // the job runs; its end is toasted with Undo
  await expect(dialog.getByText(/^Done\./)).toBeVisible();
  const toast = page.getByTestId('toast-success').filter({ hasText: 'Deactivated 3 sites; 0 refused.' });
  await expect(toast).toBeVisible();
  const jobPage = await dialog.getByRole('link', { name: 'Open the job’s page' }).getAttribute('href');
  await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  await expect(owned.getByRole('row').filter({ hasText: 'Inactive' })).toHaveCount(3);
  await toast.hover();
  await axeClean(page, 'the finished job and its toast');
  // the toast lasts 5 s unless held: Undo at once (the job's page offers it for 10 minutes too)
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Undone: 3 sites put back; 0 refused.')).toBeVisible();
  await expect(owned.getByRole('row').filter({ hasText: 'Inactive' })).toHaveCount(0);
  await shoot(page, 'bulk-undone');

  // the job's page: every item, and the undo's own job
  await page.goto(jobPage ?? '');
  await expect(page.getByRole('heading', { name: /^Bulk job \d+$/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Items of the bulk job' }).getByRole('row')).toHaveCount(4);
  await axeClean(page, 'the job page');
  await shoot(page, 'bulk-job-page');
});
