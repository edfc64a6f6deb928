import { expect, type Page, test } from '@playwright/test';
import { signIn } from './support/sign-in.ts';

// Demo data created on the first start (apps/api/src/db/customer-seed.ts, DEMO_CUSTOMERS).
const ADA = {
  name: 'Ada Lovelace',
  email: 'ada.lovelace@analytical.example',
  apiKey: '11111111-2222-4333-8444-555555555555',
  secret: 'demo-secret-analytical-engine',
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
    ['API Key', ADA.apiKey],
    ['Site Name', 'analytical-eng'],
    ['API Secret', ADA.secret],
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
  await expect(page.getByRole('table', { name: 'Last logins' }).getByRole('row')).not.toHaveCount(1);
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
