import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { createStaff } from './support/api.ts';
import { ADA } from './support/demo-sites.ts';
import { signIn } from './support/sign-in.ts';

/** Issue 18: the dashboard's cards per role, each linking to the filtered list behind it. */

const EVERY_CARD = [
  'Awaiting my decision',
  'Live access',
  'My requests',
  'Customers',
  'Sites',
  'Staff sign-ins, last 24 hours',
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
  await page.getByRole('link', { name: /^Show failed sign-ins: \d+$/ }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail\?action=login.failed&range=24h$/);
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

test('an Auditor sees only the staff sign-ins, which lead to the audit trail', async ({ page, request }) => {
  await signInNew(page, request, 'Auditor', 'Staff sign-ins, last 24 hours');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(cards(page)).toHaveText(['Staff sign-ins, last 24 hours']);
  // No impersonation, customers, sites, domains or recent customers, and no team figure (SuperAdmins').
  await expect(page.getByText('Staff without a second factor')).toHaveCount(0);
  await expect(
    page.getByRole('link', { name: /Search customers|All pending requests|custom domains/ }),
  ).toHaveCount(0);
  await page.getByRole('link', { name: /^Show lockouts: \d+$/ }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail\?action=login.lockout&range=24h$/);
});
