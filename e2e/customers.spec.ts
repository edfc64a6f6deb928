import { expect, type Page, test } from '@playwright/test';
import { apiSignIn } from './support/api.ts';
import { demoSite } from './support/demo-sites.ts';
import { rowsIn } from './support/loading.ts';
import { signIn } from './support/sign-in.ts';

// Demo data created on the first start (apps/api/src/seed/customer-seed.ts, DEMO_CUSTOMERS); the
// site's API key and secret are generated there, read back from the data directory when used.
const ADA = {
  name: 'Ada Lovelace',
  uid: 'ada00000-0000-4000-8000-000000001815',
  email: 'ada.lovelace@analytical.example',
  site: () => demoSite('analytical-engine'),
};

async function searchBy(page: Page, label: string, term: string) {
  await page.goto('/manage-customer/search-customer');
  if (label === 'API Secret') await page.getByText('More search options').click();
  await page.getByLabel(label, { exact: true }).fill(term);
  await page.getByRole('button', { name: 'Search' }).click();
}

const results = (page: Page) => page.getByRole('table', { name: 'Customers found' });

test('search finds a customer by each criterion', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  for (const [label, term] of [
    ['Customer Name', 'LOVELA'],
    ['Email Address', 'ada.love'],
    ['API Key', ADA.site().apiKey],
    ['Site Name', 'analytical-eng'],
    ['UID', ADA.uid.toUpperCase()],
    ['API Secret', ADA.site().secret],
  ] as const) {
    await searchBy(page, label, term);
    await expect(results(page).getByRole('row').filter({ hasText: ADA.name })).toBeVisible();
  }
  for (const header of ['Customer Name', 'Status', 'Role', 'Created Date', 'Modified Date', 'Action']) {
    await expect(results(page).getByRole('columnheader', { name: header })).toBeVisible();
  }
});

test('one criterion at a time, and the 927 message when nothing matches', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/search-customer');
  await page.getByLabel('Customer Name').fill('ada');
  await page.getByLabel('Email Address').fill('someone@');
  await expect(page.getByLabel('Customer Name')).toHaveValue('');
  await searchBy(page, 'Email Address', 'nobody@nowhere.example');
  await expect(page.getByText('Not Found, Please try again with some other information!')).toBeVisible();
});

test('the customer view shows contact, account, last login, sites and activity', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  await searchBy(page, 'Customer Name', 'lovelace');
  await results(page)
    .getByRole('row')
    .filter({ hasText: ADA.name })
    .getByRole('link', { name: 'View' })
    .click();
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  for (const h of ['Contact Info', 'Account Info', 'Last Login Info', 'Site Information', 'Activity Logs']) {
    await expect(page.getByRole('heading', { name: h, level: 2 })).toBeVisible();
  }
  await expect(page.getByText('Analytical Engines Ltd')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Owned sites' })).toContainText('analytical-engine');
  await expect(page.getByRole('table', { name: 'Shared sites' })).toContainText('difference-engine');
  // Its skeleton rows (and an empty list's line) are rows too: a login row has its four cells.
  const logins = await rowsIn(page.getByRole('table', { name: 'Last logins' }));
  await expect(logins.getByRole('row')).not.toHaveCount(1);
  await expect(logins.getByRole('row').nth(1).getByRole('cell')).toHaveCount(4);
  await page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('button', { name: 'Details' })
    .first()
    .click();
  await expect(page.getByRole('dialog', { name: 'Site details: analytical-engine' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('table', { name: 'Activity logs' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to search' }).click();
  await expect(results(page)).toBeVisible();
});

test('a search with more than 50 matches fetches the next 50 when Next reaches the last loaded page', async ({
  page,
  request,
}) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  for (let i = 0; i < 55; i++) {
    const n = String(i).padStart(2, '0');
    const r = await request.post('/admin/customer', {
      headers,
      data: {
        firstname: `Pager${n}`,
        lastname: 'Zebra',
        email: `zpager${n}@paging.example`,
        appname: `pager-${n}`,
      },
    });
    expect(r.ok(), await r.text()).toBe(true);
  }
  await signIn(page, 'superadmin@example.com');
  const searched = page.waitForResponse((r) => r.url().includes('/admin/searchcustomer'));
  await searchBy(page, 'Email Address', 'zpager');
  await searched;
  await expect(page.getByRole('status').filter({ hasText: '55 results' })).toBeVisible();
  await expect(page.getByText('Showing 1–10 of 55')).toBeVisible();
  await expect(results(page).getByRole('row').nth(1)).toContainText('Pager00 Zebra');
  await page.getByRole('button', { name: 'Page 5' }).click();
  await expect(results(page).getByRole('row').nth(10)).toContainText('Pager49 Zebra');
  const next = page.waitForRequest(
    (r) => r.url().includes('/admin/searchcustomer') && r.url().includes('cursor='),
  );
  await page.getByRole('button', { name: 'Next' }).click();
  expect(new URL((await next).url()).searchParams.get('emailid')).toBe('zpager');
  await expect(page.getByText('Showing 51–55 of 55')).toBeVisible();
  await expect(results(page).getByRole('row').nth(5)).toContainText('Pager54 Zebra');
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
});
