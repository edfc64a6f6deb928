import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { DNS_ZONE_FILE } from './support/env.ts';
import { signIn } from './support/sign-in.ts';

const ADA = 'ada00000-0000-4000-8000-000000001815';

async function openConfiguration(page: Page) {
  await signIn(page, 'superadmin@example.com');
  await page.goto(`/manage-customer/view-customer?uid=${ADA}`);
  await page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('link', { name: 'Configuration' })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Site Configuration', level: 1 })).toBeVisible();
}
const tab = (page: Page, name: string) =>
  page.getByRole('tablist', { name: 'Configuration sections' }).getByRole('tab', { name }).click();

test('plan info, web apps and application level security with the time picker', async ({ page }) => {
  await openConfiguration(page);
  await tab(page, 'Plan info');
  await expect(page.getByText('Monthly')).toBeVisible();

  await tab(page, 'Web apps');
  await page.getByLabel('Production URL (Optional)').fill('not a url');
  await page.getByLabel('Production URL (Optional)').blur();
  await expect(page.getByText('Please enter a valid URL.')).toBeVisible();
  await page.getByLabel('Production URL (Optional)').fill('https://engine.analytical.example');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();

  await tab(page, 'Application Level Security');
  await page
    .getByRole('radiogroup', { name: 'Sign-in mode' })
    .getByRole('radio', { name: 'Required (strict)' })
    .check();
  await page.getByLabel('Failed sign-ins before lockout').fill('5');
  await page.getByLabel('Lockout minutes').fill('0');
  // the time picker, by mouse: hour, then minutes, PM, Done
  await page.getByRole('button', { name: /Daily security report time/ }).click();
  const picker = page.getByRole('dialog', { name: 'Daily security report time' });
  await picker.getByRole('button', { name: "7 o'clock" }).click();
  await picker.getByRole('button', { name: '35 minutes' }).click();
  await picker.getByRole('button', { name: 'PM', exact: true }).click();
  await picker.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: /Daily security report time/ })).toContainText('7:35 PM');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByRole('alert').filter({
      hasText: 'Account lockout needs a lockout time: set Lockout minutes, or set Failed sign-ins to 0.',
    }),
  ).toBeVisible();
  await page.getByLabel('Lockout minutes').fill('20');
  // The web apps' 'Settings saved.' may still show, so the toast does not say this save is done;
  // its answer resets the form and would undo a time picked before it.
  const saved = page.waitForResponse(
    (r) => r.url().includes('/admin/applicationlevelsecurity') && r.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Save' }).click();
  expect((await saved).ok()).toBe(true);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' }).last()).toBeVisible();

  // the time picker, by keyboard: open, move along the hour dial, Enter, then the minutes, Enter, Done
  await page.getByRole('button', { name: /Daily security report time/ }).click();
  const again = page.getByRole('dialog', { name: 'Daily security report time' });
  await again.getByRole('button', { name: "7 o'clock" }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await again.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: /Daily security report time/ })).not.toContainText('7:35 PM');
  await expect(page.getByRole('button', { name: /Daily security report time/ })).toContainText(
    /\d{1,2}:\d\d (AM|PM)/,
  );
});

test('custom objects: the spec messages, a sample checked against the schema, save and remove', async ({
  page,
}) => {
  await openConfiguration(page);
  await tab(page, 'Custom Object');
  const form = page.getByRole('form', { name: 'Add custom object' });
  await form.getByLabel('Id').fill('loyalty card');
  await form.getByLabel('Name').fill('Loyalty');
  await form.getByLabel('Size (in MB)').fill('500');
  await form.getByLabel('Schema').fill('{oops');
  await form.getByRole('button', { name: 'Add custom object' }).click();
  await expect(
    form.getByText('Id can only contain alphanumeric characters, underscores and dashes'),
  ).toBeVisible();
  await expect(form.getByText('Please enter custom object size between 1 and 200')).toBeVisible();
  await expect(form.getByText('Invalid JSON input.')).toBeVisible();

  await form.getByLabel('Id').fill('loyalty_card');
  await form.getByLabel('Size (in MB)').fill('20');
  await form
    .getByLabel('Schema')
    .fill('{"type":"object","properties":{"points":{"type":"integer"}},"required":["points"]}');
  await form.getByLabel('Sample (JSON)').fill('{"points":"many"}');
  await form.getByRole('button', { name: 'Validate sample' }).click();
  await expect(form.getByRole('list', { name: 'Validation errors' })).toContainText('/points');
  await form.getByLabel('Sample (JSON)').fill('{"points":12}');
  await form.getByRole('button', { name: 'Validate sample' }).click();
  await expect(form.getByText('The sample is valid against the schema.')).toBeVisible();
  // Users' patterns run on a linear-time engine: a catastrophic one answers at once, and one the
  // engine cannot run says why.
  const schema = await form.getByLabel('Schema').inputValue();
  await form.getByLabel('Schema').fill('{"type":"string","pattern":"^(a+)+$"}');
  await form.getByLabel('Sample (JSON)').fill(JSON.stringify(`${'a'.repeat(5000)}!`));
  await form.getByRole('button', { name: 'Validate sample' }).click();
  await expect(form.getByRole('list', { name: 'Validation errors' })).toContainText('must match pattern');
  await form.getByLabel('Schema').fill('{"type":"string","pattern":"^(?=a).+$"}');
  await form.getByRole('button', { name: 'Validate sample' }).click();
  await expect(form.getByRole('list', { name: 'Validation errors' })).toContainText('linear-time engine');
  await form.getByLabel('Schema').fill(schema);
  await form.getByLabel('Sample (JSON)').fill('{"points":12}');
  await form.getByRole('button', { name: 'Add custom object' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Custom object saved.' })).toBeVisible();
  const row = page
    .getByRole('table', { name: 'Custom objects' })
    .getByRole('row')
    .filter({ hasText: 'loyalty_card' });
  await expect(row).toContainText('20');

  await row.getByRole('button', { name: 'Remove' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove custom object loyalty_card?' });
  await remove.getByRole('textbox', { name: 'Type loyalty_card to confirm' }).fill('loyalty_card');
  await remove.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Custom object removed.' })).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('custom domain: pending with the records to set, verified by a real DNS lookup', async ({ page }) => {
  fs.writeFileSync(DNS_ZONE_FILE, '{}');
  await openConfiguration(page);
  await tab(page, 'Custom Domain');
  await expect(page.getByText('hub.e2e.test').first()).toBeVisible();
  const form = page.getByRole('form', { name: 'Add custom domain' });
  await form.getByRole('button', { name: 'Add custom domain' }).click();
  await expect(page.getByText('Domain name is required.')).toBeVisible();
  await form.getByLabel('Domain name').fill('login.analytical.example');
  await form.getByRole('button', { name: 'Add custom domain' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Custom domain saved.' })).toBeVisible();
  const domains = page.getByRole('table', { name: 'Custom domains' });
  await expect(domains.getByRole('row').filter({ hasText: 'login.analytical.example' })).toContainText(
    'Pending Verification',
  );

  const records = page.getByRole('table', { name: 'DNS records for login.analytical.example' });
  const cname = (await records
    .getByRole('row')
    .filter({ hasText: 'CNAME' })
    .getByRole('cell')
    .nth(2)
    .locator('code')
    .textContent())!.trim();
  const txt = (await records
    .getByRole('row')
    .filter({ hasText: 'TXT' })
    .getByRole('cell')
    .nth(2)
    .locator('code')
    .textContent())!.trim();
  expect(cname).toContain('.hub.e2e.test');

  // not yet set: stays pending, with the reason
  await domains
    .getByRole('row')
    .filter({ hasText: 'login.analytical.example' })
    .getByRole('button', { name: 'Verify now' })
    .click();
  await expect(page.getByText(/No CNAME record/).first()).toBeVisible();

  // the customer sets the records at their DNS provider: our loopback DNS server answers them
  fs.writeFileSync(
    DNS_ZONE_FILE,
    JSON.stringify({
      'login.analytical.example': [{ type: 'CNAME', value: cname }],
      '_sac-verification.login.analytical.example': [{ type: 'TXT', value: txt }],
    }),
  );
  await domains
    .getByRole('row')
    .filter({ hasText: 'login.analytical.example' })
    .getByRole('button', { name: 'Verify now' })
    .click();
  await expect(domains.getByRole('row').filter({ hasText: 'login.analytical.example' })).toContainText(
    'Verified',
  );

  await domains
    .getByRole('row')
    .filter({ hasText: 'login.analytical.example' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const del = page.getByRole('dialog', { name: 'Delete custom domain login.analytical.example?' });
  await del
    .getByRole('textbox', { name: 'Type login.analytical.example to confirm' })
    .fill('login.analytical.example');
  await del.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Custom domain deleted.' })).toBeVisible();
});

test('encryption and hashing: the preview shows the stored form, weak types are named, saving keeps the key hidden', async ({
  page,
}) => {
  await openConfiguration(page);
  await tab(page, 'Encryption and Hashing Settings');
  const set = page.getByRole('region', { name: 'Security answer' });
  await set.getByLabel('Encryption type').selectOption('MD5');
  await expect(set.getByText(/Weak: MD5 is broken/).first()).toBeVisible();
  await set.getByLabel('Salt (Optional)').fill('');
  await set.getByLabel('Per-password salt').uncheck();
  await set.getByLabel('Salt attach type').selectOption('None');
  await set.getByLabel('Hash encoding type').selectOption('hex');
  await set.getByLabel('Sample password').fill('password');
  await set.getByRole('button', { name: 'Preview' }).click();
  await expect(set.getByText('5f4dcc3b5aa765d61d8327deb882cf99')).toBeVisible();

  await set.getByLabel('Encryption type').selectOption('HMAC-SHA256');
  await set.getByLabel('Encryption key').fill('Hmac-Key-For-E2E');
  await set.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(set.getByText('A key is stored; leave empty to keep it')).toBeVisible();
  await expect(set.getByLabel('Encryption key')).toHaveValue('');
});

test('registration fields, data sources and integrations', async ({ page }) => {
  await openConfiguration(page);
  await tab(page, 'Data Source');
  await page.getByLabel('Data source name').fill('shirt_size');
  await page.getByLabel('Value of item 1').fill('M');
  await page.getByLabel('Text of item 1').fill('Medium');
  await page.getByRole('button', { name: 'Add data source' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Data source added.' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Data sources' })).toContainText('shirt_size');

  await tab(page, 'Registration Fields');
  await page.getByLabel('Custom field name').fill('9bad');
  await page.getByLabel('Display name').fill('Shirt size');
  await page.getByRole('button', { name: 'Add custom field' }).click();
  await expect(
    page
      .getByText('Custom field name is invalid: use letters, digits and underscores, starting with a letter.')
      .first(),
  ).toBeVisible();
  await page.getByLabel('Custom field name').fill('shirt');
  await page.getByLabel('Type', { exact: true }).selectOption('dropdown');
  await page.getByLabel('Data source').selectOption('shirt_size');
  await page.getByLabel('Rules (Optional)').fill('required|min_length[1]');
  await page.getByRole('button', { name: 'Add custom field' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Custom field saved.' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Registration fields' })).toContainText('shirt');

  await tab(page, 'Integrations');
  await expect(page.getByRole('table', { name: 'Integrations' })).toContainText('Webhooks');
});
