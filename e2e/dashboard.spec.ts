import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { apiSignIn, createStaff } from './support/api.ts';
import { ADA } from './support/demo-sites.ts';
import { waitForLink } from './support/mail.ts';
import { signIn } from './support/sign-in.ts';
import { createSiteOwner } from './support/site-owner.ts';

/** Issue 18: the dashboard's cards per role, each linking to the filtered list behind it. */

const EVERY_CARD = [
  'Awaiting my decision',
  'Live access',
  'My requests',
  'Customers',
  'Sites',
  'Staff sign-ins, last 24 hours',
  'Break-glass reviews',
  'Access review',
  'Staff activity',
  'Recently viewed customers',
];
const cards = (page: Page) => page.getByRole('main').getByRole('heading', { level: 2 });

async function openAda(page: Page) {
  await page.goto(`/manage-customer/view-customer?uid=${ADA.uid}`);
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  // The heading shows at once; the profile's call records the view, and her name shows once it
  // has answered. Leaving before, the dashboard may not list her.
  await expect(page.getByText(`Ada Lovelace · ${ADA.email}`).first()).toBeVisible();
}

test('a SuperAdmin sees every card, and the cards link to their filtered lists', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recently viewed customers' })).toBeVisible();
  await expect(cards(page)).toHaveText(EVERY_CARD);
  await expect(page.getByRole('img', { name: /New customers per day over the last 30 days/ })).toBeVisible();
  // The demo data fills the cards whatever earlier specs added: requests awaiting a decision, and
  // live grants to revoke (the seed test checks which ones).
  const awaiting = page.getByRole('region', { name: 'Awaiting my decision' });
  await expect(awaiting.getByRole('link', { name: /^Request \d+, / }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /^Revoke request \d+/ }).first()).toBeVisible();

  await page.getByRole('link', { name: 'All pending requests' }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/impersonation\/assigned-requests\?status=Pending$/);
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('Pending');
  await page.goBack();
  await page.getByRole('link', { name: /^Wrong passwords: \d+$/ }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail\?action=login.failed&range=24h$/);
  await page.goBack();
  await page.getByRole('link', { name: /^Wrong second-factor codes: \d+$/ }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail\?action=mfa.failed&range=24h$/);
  await page.goBack();
  // The domains figures lead to every site's custom domains, filtered; the demo data has some failing.
  await page.getByRole('link', { name: /^Show custom domains failing re-checks: [1-9]\d*$/ }).click();
  await expect(page).toHaveURL(/\/manage-customer\/custom-domains\?status=failing$/);
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('failing');
  const failing = page.getByRole('table', { name: 'Custom domains of every site' });
  await expect(failing.getByText('Failing re-check').first()).toBeVisible();
  await page.goBack();

  // A customer opened shows among the recently viewed, and links back to the view.
  await openAda(page);
  await page.goto('/dashboard');
  const recent = page.getByRole('region', { name: 'Recently viewed customers' });
  await recent.getByRole('link', { name: 'Ada Lovelace' }).click();
  await expect(page).toHaveURL(new RegExp(`/manage-customer/view-customer\\?uid=${ADA.uid}$`));
});

/** The cards of staff who neither approve nor read the trail. */
const REQUESTER_CARDS = ['Live access', 'My requests', 'Customers', 'Sites', 'Recently viewed customers'];

// The demo Admin's and Support's passwords are changed by auth.spec.ts: each test has its own.
async function signInNew(
  page: Page,
  request: APIRequestContext,
  role: 'Admin' | 'Support' | 'Auditor',
  lastCard = 'Recently viewed customers',
) {
  const email = `dash-${role.toLowerCase()}-${Date.now()}@example.com`;
  const staff = await createStaff(request, { email, roles: [role] });
  await signIn(page, staff.email, staff.password);
  await expect(page.getByRole('heading', { name: lastCard })).toBeVisible();
}

test('an Admin sees no decisions and no staff card', async ({ page, request }) => {
  await signInNew(page, request, 'Admin');
  await expect(cards(page)).toHaveText(REQUESTER_CARDS);
  await expect(page.getByRole('link', { name: /Revoke/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Open my pending requests' }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/impersonation\/assigned-requests\?status=Pending$/);
});

test('Support sees their impersonation, customer and site cards only', async ({ page, request }) => {
  await signInNew(page, request, 'Support');
  await expect(cards(page)).toHaveText(REQUESTER_CARDS);
  await expect(page.getByRole('heading', { name: 'Awaiting my decision' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Staff sign-ins, last 24 hours' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Search customers' }).first().click();
  await expect(page).toHaveURL(/\/manage-customer\/search-customer$/);
});

test('an Auditor sees the staff sign-ins and staff activity, which lead to the audit trail', async ({
  page,
  request,
}) => {
  await signInNew(page, request, 'Auditor', 'Staff activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(cards(page)).toHaveText(['Staff sign-ins, last 24 hours', 'Staff activity']);
  // No impersonation, customers, sites, domains or recent customers, and no team figure (SuperAdmins').
  await expect(page.getByText('Staff without a second factor')).toHaveCount(0);
  await expect(
    page.getByRole('link', { name: /Search customers|All pending requests|custom domains/ }),
  ).toHaveCount(0);
  // The newest events of the trail in words, the code on hover: signing in just wrote one.
  const activity = page.getByRole('region', { name: 'Staff activity' });
  await expect(activity.locator('[title="Code: login.success"]').first()).toContainText('Signed in');
  await page.getByRole('link', { name: /^Show lockouts: \d+$/ }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail\?action=login.lockout&range=24h$/);
  await page.goBack();
  await page.getByRole('link', { name: /^Show refused actions: \d+$/ }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail\?result=refused&range=24h$/);
  await page.goBack();
  await page.getByRole('link', { name: /^Audit trail exports \d+$/ }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail\?action=audit.export&range=7d$/);
});

/** The figure in the header of a card (its count). */
const figureOf = async (page: Page, card: string) =>
  Number(await page.getByRole('region', { name: card }).locator('header > span').textContent());
const awaitingCustomerOf = async (page: Page) =>
  Number(
    /(\d+)$/.exec(
      (await page
        .getByRole('region', { name: 'Awaiting my decision' })
        .getByText(/^Awaiting the customer \d+$/)
        .textContent()) ?? '',
    )![1],
  );

test('the dashboard is live: a request asked for, consented to and decided elsewhere changes its cards without a reload', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const asker = await createStaff(request, { email: `live-asker-${stamp}@example.com`, roles: ['Admin'] });
  const site = await createSiteOwner(request, {
    email: `live-owner-${stamp}@example.com`,
    appname: `live-site-${stamp}`,
  });
  // The approver's dashboard, in a browser context of its own.
  const approver = await (await browser.newContext()).newPage();
  await signIn(approver, 'superadmin@example.com');
  await expect(approver.getByRole('region', { name: 'Awaiting my decision' })).toBeVisible();
  const decideNow = await figureOf(approver, 'Awaiting my decision');
  const waiting = await awaitingCustomerOf(approver);
  let reloaded = false;
  approver.on('load', () => {
    reloaded = true;
  });

  // The Admin asks, in another context, through the console's form.
  const askerPage = await (await browser.newContext()).newPage();
  await signIn(askerPage, asker.email, asker.password);
  const since = Date.now() - 1;
  await askerPage.goto(`/manage-customer/impersonate?uid=${site.uid}&appId=${site.appId}`);
  await askerPage.getByLabel('Priority').selectOption('High');
  await askerPage.getByLabel('Reason').selectOption('support-ticket');
  await askerPage.getByLabel('Description').fill('Live dashboard check');
  await askerPage
    .getByRole('group', { name: 'Assignees' })
    .getByRole('checkbox', { name: /superadmin@example\.com/ })
    .check();
  await askerPage.getByRole('group', { name: 'Roles' }).getByRole('checkbox', { name: 'Developer' }).check();
  await askerPage.getByRole('button', { name: 'Request impersonation' }).click();
  const created = askerPage.getByRole('status').filter({ hasText: 'has been created' });
  await expect(created).toBeVisible();
  const id = Number(/request (\d+)/.exec((await created.textContent()) ?? '')![1]);

  // Not consented yet: awaiting the customer, not the approver's decision.
  const awaiting = approver.getByRole('region', { name: 'Awaiting my decision' });
  await expect(awaiting.getByText(`Awaiting the customer ${waiting + 1}`)).toBeVisible({ timeout: 3_000 });
  expect(await figureOf(approver, 'Awaiting my decision')).toBe(decideNow);

  // The owner consents (the mailed link): now the approver's to decide.
  const token = new URL(await waitForLink(site.email, since)).searchParams.get('token');
  const ajax = { 'X-Requested-With': 'XMLHttpRequest' };
  expect(
    (
      await request.post('/admin/impersonation/consent', { headers: ajax, data: { token, granted: true } })
    ).ok(),
  ).toBe(true);
  await expect(awaiting.locator('header > span')).toHaveText(String(decideNow + 1), { timeout: 3_000 });
  await expect(awaiting.getByText(`Awaiting the customer ${waiting}`)).toBeVisible();
  await expect(awaiting.getByRole('link', { name: `Request ${id}, ${site.appName}` })).toBeVisible();

  // Decided elsewhere (another SuperAdmin session, through the API): it leaves the card.
  const boss = await apiSignIn(request, 'superadmin@example.com');
  const rejected = await request.post(`/admin/impersonation/request/action?requestId=${id}`, {
    headers: boss,
    data: {
      Status: 'Reject',
      ProxyRoles: ['Developer'],
      AdditionalPermissions: [],
      Duration: 60,
      Comments: 'No',
    },
  });
  expect(rejected.status(), await rejected.text()).toBe(200);
  await expect(awaiting.locator('header > span')).toHaveText(String(decideNow), { timeout: 3_000 });
  await expect(awaiting.getByRole('link', { name: `Request ${id}, ${site.appName}` })).toHaveCount(0);
  expect(reloaded).toBe(false);
});
