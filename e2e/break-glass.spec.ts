import { expect, type Page, test } from '@playwright/test';
import { apiSignIn, createStaff } from './support/api.ts';
import { axeSerious } from './support/axe.ts';
import { ADA } from './support/demo-sites.ts';
import { shoot } from './support/shots.ts';
import { signIn } from './support/sign-in.ts';

/** WCAG 2 A and AA: the rules the break-glass screens are held to. */
const WCAG2 = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const appIdOf = async (page: Page) => {
  const headers = {
    'X-Requested-With': 'XMLHttpRequest',
    xtoken: (await page.evaluate(() => localStorage.getItem('lr-admin-token'))) ?? '',
    xsign: (await page.evaluate(() => localStorage.getItem('lr-admin-sign'))) ?? '',
  };
  const r = await page.request.get(`/admin/apps?uid=${ADA.uid}`, { headers });
  return ((await r.json()) as { Data: Array<{ appId: number; AppName: string }> }).Data.find(
    (s) => s.AppName === 'analytical-engine',
  )!.appId;
};

test('break glass: a SuperAdmin opens access at once under a red banner; another SuperAdmin closes its review with a note', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(process.env.E2E_SHOTS_DIR ? 240_000 : 90_000);
  // A second SuperAdmin (made an Admin, then promoted: a new account is never made a SuperAdmin).
  const reviewer = await createStaff(request, { email: 'bg-reviewer@example.com', roles: ['Admin'] });
  const promoted = await request.put('/admin/team/roles', {
    headers: await apiSignIn(request, 'superadmin@example.com'),
    data: { uid: reviewer.uid, role: ['SuperAdmin'], unAssignRoles: ['Admin'] },
  });
  expect(promoted.status()).toBe(200);

  // The demo SuperAdmin, without a grant on the site, breaks glass from the impersonate screen.
  await signIn(page, 'superadmin@example.com');
  const appId = await appIdOf(page);
  await page.goto(`/manage-customer/impersonate?uid=${ADA.uid}&appId=${appId}`);
  await page.getByRole('button', { name: 'Break glass' }).click();
  const dialog = page.getByRole('dialog', { name: 'Break glass: open access to analytical-engine now' });
  await expect(dialog).toContainText('without the owner’s consent');
  // who will be told, by name
  await expect(dialog).toContainText('bg-reviewer@example.com');
  // more than 60 minutes is refused as the user types
  await dialog.getByLabel('Minutes').fill('90');
  await dialog.getByRole('button', { name: 'Break glass and open access' }).click();
  await expect(dialog).toContainText('Break-glass access lasts from 1 to 60 minutes.');
  // only the break-glass reasons are offered
  await expect(dialog.getByLabel('Reason').locator('option')).toHaveText([
    'Choose a reason',
    'Production incident',
    'Security incident',
    'Legal request',
  ]);
  await dialog.getByLabel('Reason').selectOption({ label: 'Security incident' });
  await dialog.getByLabel('Case or ticket').fill('SEC-4711');
  await dialog.getByRole('group', { name: 'Roles' }).getByRole('checkbox').first().check();
  await dialog.getByLabel('Minutes').fill('30');
  expect(await axeSerious(page, { tags: WCAG2 })).toEqual([]);
  await shoot(page, 'break-glass-dialog', false);
  await dialog.getByRole('button', { name: 'Break glass and open access' }).click();

  // the session opens at once, under the red banner
  const banner = page.getByRole('region', { name: 'Break-glass impersonation' });
  await expect(banner).toContainText('Break-glass access: every call is logged and will be reviewed');
  await expect(banner).toContainText('Impersonating analytical-engine');
  // why it was opened, on the banner itself
  await expect(banner).toContainText('Reason: Security incident · Case: SEC-4711');
  await expect(banner.getByRole('link', { name: 'Open case SEC-4711 (new tab)' })).toHaveAttribute(
    'href',
    'https://tickets.example.com/browse/SEC-4711',
  );
  await expect(banner.getByRole('timer')).toHaveText(/^(29|30):\d\d$/);
  const border = await banner.evaluate((el) => getComputedStyle(el).borderTopColor);
  const [r, g, b] = border.match(/\d+/g)!.map(Number);
  expect(r).toBeGreaterThan(150);
  expect(g! + b!).toBeLessThan(r!);
  expect(await axeSerious(page, { tags: WCAG2 })).toEqual([]);
  await shoot(page, 'break-glass-banner', false);
  await banner.getByRole('button', { name: 'End impersonation' }).click();

  // the opener's dashboard lists it, theirs: no close for them
  await page.goto('/dashboard');
  const mine = page.getByRole('region', { name: 'Break-glass reviews' });
  const mineItem = mine.getByRole('listitem').filter({ hasText: 'analytical-engine' });
  await expect(mineItem).toContainText('yours: another SuperAdmin reviews it');
  await expect(mineItem.getByRole('button')).toHaveCount(0);

  // another SuperAdmin closes the review with a note
  const other = await browser.newContext();
  const page2 = await other.newPage();
  await signIn(page2, reviewer.email, reviewer.password);
  const card = page2.getByRole('region', { name: 'Break-glass reviews' });
  const item = card.getByRole('listitem').filter({ hasText: 'analytical-engine' });
  await expect(item).toContainText('Security incident');
  await expect(item).toContainText('SEC-4711');
  expect(await axeSerious(page2, { tags: WCAG2 })).toEqual([]);
  await shoot(page2, 'break-glass-review-card');
  const closeButton = item.getByRole('button', { name: /^Close review \d+$/ });
  const id = Number((await closeButton.textContent())?.match(/\d+/)?.[0]);
  await closeButton.click();
  const close = page2.getByRole('dialog', { name: /^Close the review of break-glass access \d+$/ });
  await close.getByRole('button', { name: 'Close the review' }).click();
  await expect(close).toContainText('Please write a note on what was done and why.');
  await close
    .getByLabel('Review note')
    .fill('Checked with the security team: access used for the incident only.');
  await shoot(page2, 'break-glass-close-dialog', false);
  await close.getByRole('button', { name: 'Close the review' }).click();
  await expect(
    page2.getByRole('status').filter({ hasText: /The review of break-glass access \d+ is closed\./ }),
  ).toBeVisible();
  await expect(card.getByRole('listitem').filter({ hasText: 'analytical-engine' })).toHaveCount(0);

  // "See all": the reviews page lists every open one (the demo's too), the closed on a filter
  await card.getByRole('link', { name: 'See all break-glass reviews' }).click();
  await expect(page2).toHaveURL(/\/manage-superuser\/impersonation\/break-glass-reviews$/);
  await expect(page2.getByRole('heading', { level: 1, name: 'Break-glass reviews' })).toBeVisible();
  const crumbs = page2.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs).toContainText('Manage Superuser');
  await expect(crumbs).toContainText('Break-glass reviews');
  const reviews = page2.getByRole('list', { name: 'Break-glass reviews' });
  // the demo's open review, opened by the on-call SuperAdmin: this reviewer may close it
  const demoOpen = reviews.getByRole('listitem').filter({ hasText: 'INC-3141' });
  await expect(demoOpen.getByRole('button', { name: /^Close review \d+$/ })).toBeVisible();
  await expect(reviews.getByRole('listitem').filter({ hasText: 'SEC-4711' })).toHaveCount(0);
  expect(await axeSerious(page2, { tags: WCAG2 })).toEqual([]);
  await shoot(page2, 'break-glass-reviews-open');
  // by keyboard: the filter, to the recently closed
  const filter = page2.getByLabel('Show');
  await filter.focus();
  await filter.selectOption('closed');
  await expect(page2).toHaveURL(/\?state=closed$/);
  const closedRow = reviews.getByRole('listitem').filter({ hasText: 'SEC-4711' });
  await expect(closedRow).toContainText('closed by bg-reviewer@example.com');
  await expect(closedRow).toContainText('Checked with the security team: access used for the incident only.');
  await expect(closedRow.getByRole('button')).toHaveCount(0);
  expect(await axeSerious(page2, { tags: WCAG2 })).toEqual([]);
  await shoot(page2, 'break-glass-reviews-closed');
  // the close action from the page, by keyboard: Tab to the button, Enter, type, Enter
  await filter.selectOption('open');
  const closeDemo = demoOpen.getByRole('button', { name: /^Close review \d+$/ });
  await closeDemo.focus();
  await page2.keyboard.press('Enter');
  const closeFromPage = page2.getByRole('dialog', { name: /^Close the review of break-glass access \d+$/ });
  await expect(closeFromPage.getByLabel('Review note')).toBeFocused();
  await page2.keyboard.type('Looked at the deploy rollback: nothing else touched.');
  await page2.keyboard.press('Tab');
  await expect(closeFromPage.getByRole('button', { name: 'Close the review' })).toBeFocused();
  await page2.keyboard.press('Enter');
  await expect(closeFromPage).toHaveCount(0);
  await expect(reviews.getByRole('listitem').filter({ hasText: 'INC-3141' })).toHaveCount(0);
  await other.close();

  // the grant itself is revoked as any grant is, leaving the site's roles free for other specs
  const revoked = await request.post(`/admin/impersonation/request/action?requestId=${id}`, {
    headers: await apiSignIn(request, reviewer.email, reviewer.password),
    data: { Status: 'Revoke', Comments: 'Incident over.' },
  });
  expect(revoked.status(), await revoked.text()).toBe(200);
});
