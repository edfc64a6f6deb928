import { expect, type Page, test } from '@playwright/test';
import { apiSignIn } from './support/api.ts';
import { signIn } from './support/sign-in.ts';

const steps = (page: Page) => page.getByRole('navigation', { name: 'Steps' });

test('the create-customer wizard: four steps, the secret once, then the customer view', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/create-customer');
  for (const name of ['Basic Info', 'Additional Site Information', 'Set Features', 'Set Data Center & DB']) {
    await expect(steps(page).getByText(name, { exact: true })).toBeVisible();
  }
  // Step 1, with the spec's messages first
  await page.getByLabel('Phone Number (Optional)').fill('12345abcde');
  await page.getByLabel('Phone Number (Optional)').blur();
  await expect(page.getByText('Phone Number must be a number.')).toBeVisible();
  await page.getByLabel('Phone Number (Optional)').fill('123456789');
  await page.getByLabel('Phone Number (Optional)').blur();
  await expect(page.getByText('Phone Number must be 10 characters.')).toBeVisible();
  await page.getByLabel('Phone Number (Optional)').fill('5551234567');
  await page.getByLabel('First name').fill('Hedy');
  await page.getByLabel('Last name').fill('Lamarr');
  // an existing customer's email first
  await page.getByLabel('Email', { exact: true }).fill('ADA.LOVELACE@analytical.example');
  await page.getByLabel('Organization (Optional)').fill('Frequency Hopping Inc');
  await page.getByLabel('Site name').fill('spread-spectrum');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(
    page.getByText('User already exists, Use search function to handle site creation').first(),
  ).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill('hedy@frequency.example');
  await page.getByRole('button', { name: 'Next' }).click();

  // the secret, once
  const secret = page.getByRole('textbox', { name: 'API Secret' });
  await expect(secret).toBeVisible();
  expect(await secret.inputValue()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await page.getByRole('button', { name: 'I have copied the secret' }).click();

  // Step 2
  await expect(page.getByRole('heading', { name: 'Additional Site Information', level: 2 })).toBeVisible();
  await page.getByLabel('Production URL (Optional)').fill('https://spread.example.com');
  await page.getByLabel('Plan', { exact: true }).selectOption('Developer');
  await page.getByLabel('Trial days').fill('30');
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 3
  await expect(page.getByRole('heading', { name: 'Set Features', level: 2 })).toBeVisible();
  await page
    .getByRole('radiogroup', { name: 'Features' })
    .getByRole('radio', { name: 'Developer', exact: true })
    .check();
  await page.getByRole('button', { name: 'Next' }).click();

  // Step 4: the spec's messages, then a custom database
  await expect(page.getByRole('heading', { name: 'Set Data Center & DB', level: 2 })).toBeVisible();
  const dc = page.getByRole('radiogroup', { name: 'Data center and database' });
  await dc.getByRole('radio', { name: 'Use a custom database' }).check();
  await page.getByLabel('Database name', { exact: true }).fill('');
  await page.getByLabel('Database name', { exact: true }).blur();
  await expect(page.getByText('Database name is required.')).toBeVisible();
  await page.getByLabel('Connection string', { exact: true }).fill('');
  await page.getByLabel('Connection string', { exact: true }).blur();
  await expect(page.getByText('Database connection string is required.')).toBeVisible();
  await page.getByLabel('Data center', { exact: true }).selectOption('eu-west');
  await page.getByLabel('Database name', { exact: true }).fill('spread_db');
  await page
    .getByLabel('Connection string')
    .fill('postgres://spread:Hush-Hush-9@db.spread.example:5432/spread');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Data center updated.' })).toBeVisible();

  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  await expect(page.getByText('Frequency Hopping Inc')).toBeVisible();
  const owned = page.getByRole('table', { name: 'Owned sites' });
  await expect(owned).toContainText('spread-spectrum');
  await owned.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('dialog', { name: 'Site details: spread-spectrum' });
  await expect(details).toContainText('postgres://spread:****@db.spread.example:5432/spread');
  await expect(details).not.toContainText('Hush-Hush-9');
  await expect(details).toContainText('Trial active till');
  const trial = await details.getByText(/Trial active till/).textContent();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('table', { name: 'Activity logs' })).toContainText('customer.create');

  // Editing only an address keeps the plan and the trial's end exactly (saved twice, a day apart
  // in rounding terms before: each save moved the end)
  for (const staging of ['staging.spread.example.com', 'stage.spread.example.com']) {
    await owned
      .getByRole('row')
      .filter({ hasText: 'spread-spectrum' })
      .getByRole('link', { name: 'Edit' })
      .click();
    await expect(page.getByRole('heading', { name: 'Additional Site Information', level: 2 })).toBeVisible();
    await expect(page.getByText(/^Now: Developer, Trial active till/)).toBeVisible();
    await expect(page.getByLabel('Trial days')).toHaveCount(0);
    await page.getByLabel('Staging URL (Optional)').fill(staging);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Site settings saved.' }).first()).toBeVisible();
    // The first pass's toast may still show: step 3 says this save is done (leaving while it
    // saves asks first).
    await expect(page.getByRole('heading', { name: 'Set Features', level: 2 })).toBeVisible();
    await page.getByRole('link', { name: 'Back to customer' }).click();
  }
  await owned.getByRole('button', { name: 'Details' }).click();
  await expect(details.getByText(/Trial active till/)).toHaveText(trial ?? '');
  await expect(details).toContainText('stage.spread.example.com');
});

test('add and edit a site, deactivate and activate it, edit the profile, reset the password', async ({
  page,
}) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/search-customer?customerName=lovelace');
  await page.getByRole('link', { name: 'View' }).first().click();
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();

  // Add a site
  await page.getByRole('link', { name: 'Add Site' }).click();
  await page.getByLabel('Site name').fill('engine-notes');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'I have copied the secret' }).click();
  await page.getByLabel('Plan', { exact: true }).selectOption('Free');
  await page.getByRole('button', { name: 'Next' }).click();
  await page
    .getByRole('radiogroup', { name: 'Features' })
    .getByRole('radio', { name: 'Use the features of an existing site' })
    .check();
  await page.getByLabel('Existing site', { exact: true }).selectOption({ label: 'analytical-engine' });
  await page.getByRole('button', { name: 'Next' }).click();
  const dc = page.getByRole('radiogroup', { name: 'Data center and database' });
  await dc.getByRole('radio', { name: 'Use a global server' }).check();
  await page.getByLabel('Global server', { exact: true }).selectOption({ index: 1 });
  await page.getByLabel('Database name', { exact: true }).fill('notes_db');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  const owned = page.getByRole('table', { name: 'Owned sites' });
  const row = owned.getByRole('row').filter({ hasText: 'engine-notes' });
  await expect(row).toBeVisible();

  // Edit it: starts at step 2 with the saved values
  await row.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Additional Site Information', level: 2 })).toBeVisible();
  await expect(page.getByText('Now: Free, Subscribed.')).toBeVisible();
  await page.getByLabel('Staging URL (Optional)').fill('staging.notes.example.com');
  await page.getByRole('button', { name: 'Next' }).click();
  // saved once on to step 3 (leaving while it saves asks first)
  await expect(page.getByRole('heading', { name: 'Set Features', level: 2 })).toBeVisible();
  await page.getByRole('link', { name: 'Back to customer' }).click();

  // Deactivate and activate, each confirmed
  const notes = page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('row')
    .filter({ hasText: 'engine-notes' });
  await notes.getByRole('button', { name: 'Deactivate' }).click();
  const deactivate = page.getByRole('dialog', { name: 'Deactivate engine-notes?' });
  // Deactivating waits for the site's name, typed.
  await expect(deactivate.getByRole('button', { name: 'Deactivate' })).toBeDisabled();
  await page.keyboard.type('engine-notes');
  await page.keyboard.press('Enter');
  await expect(notes).toContainText('Inactive');
  await notes.getByRole('button', { name: 'Activate' }).click();
  await page
    .getByRole('dialog', { name: 'Activate engine-notes?' })
    .getByRole('button', { name: 'Activate' })
    .click();
  await expect(notes).toContainText('Active');

  // Edit profile: the spec's messages, then save
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Edit Profile' });
  await profile.getByLabel('Phone Number (Optional)').fill('12ab');
  await profile.getByLabel('Phone Number (Optional)').blur();
  await expect(profile.getByText('Phone Number must be a number.')).toBeVisible();
  await profile.getByLabel('Email', { exact: true }).fill('not-an-email');
  await profile.getByLabel('Email', { exact: true }).blur();
  // the sign-in email follows the email: both say so
  await expect(profile.getByText('Email is invalid.')).toHaveCount(2);
  await profile.getByLabel('Email', { exact: true }).fill('ada.lovelace@analytical.example');
  await profile.getByLabel('Phone Number (Optional)').fill('0207946001');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Customer profile updated.' })).toBeVisible();
  await expect(page.getByText('0207946001')).toBeVisible();

  // Reset the customer password with a generated one
  await page.getByRole('button', { name: 'Reset Password' }).click();
  const reset = page.getByRole('dialog', { name: 'Reset Password' });
  await reset.getByLabel('New password').fill('short');
  await reset.getByLabel('New password').blur();
  await expect(
    reset.getByText(
      'Password field must be minimum 6 characters,  at least 1 lowercase letter, at least 1 uppercase letter, 1 symbol and 1 digit.',
    ),
  ).toBeVisible();
  await reset.getByRole('button', { name: 'Generate' }).click();
  await expect(reset.getByTestId('generated-password')).toHaveText(/^[A-Za-z0-9]{8}1@$/);
  await reset.getByRole('button', { name: 'Save Password' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'The customer password has been reset.' }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Activity logs' })).toContainText('customer.password.reset');
});

test('Finish saves the steps changed before it; leaving unsaved changes asks first', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/search-customer?customerName=lovelace');
  await page.getByRole('link', { name: 'View' }).first().click();
  const owned = page.getByRole('table', { name: 'Owned sites' });
  await owned.getByRole('row').nth(1).getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Additional Site Information', level: 2 })).toBeVisible();
  const staging = `https://finish-${Date.now()}.example.com`;
  await page.getByLabel('Staging URL (Optional)').fill(staging);

  // a link away asks; Stay keeps the typing
  await page.getByRole('link', { name: 'Back to customer' }).click();
  const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(ask).toBeVisible();
  await expect(ask.getByRole('button', { name: 'Stay' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toBeHidden();
  await expect(page.getByLabel('Staging URL (Optional)')).toHaveValue(staging);
  // so does a reload (the browser's own prompt)
  const prompt = page.waitForEvent('dialog');
  void page.reload().catch(() => {});
  const dialog = await prompt;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  await expect(page.getByLabel('Staging URL (Optional)')).toHaveValue(staging);

  // step 4 by the stepper, Finish: step 2 is saved first, then the data center
  await page
    .getByRole('navigation', { name: 'Steps' })
    .getByRole('button', { name: 'Set Data Center & DB' })
    .click();
  await expect(page.getByRole('heading', { name: 'Set Data Center & DB', level: 2 })).toBeVisible();
  await expect(page.getByLabel('Database name', { exact: true })).not.toHaveValue('');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Site settings saved.' }).first()).toBeVisible();
  await owned.getByRole('row').nth(1).getByRole('button', { name: 'Details' }).click();
  await expect(page.getByRole('dialog')).toContainText(staging.replace('https://', ''));
});

test('two staff edit one profile: the second save is told what changed, and nothing is lost silently', async ({
  browser,
  request,
}) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const created = await request.post('/admin/customer', {
    headers,
    data: {
      firstname: 'Mary',
      lastname: 'Somerville',
      email: `mary-${Date.now()}@optics.example`,
      appname: `optics-${Date.now()}`,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const uid = ((await created.json()) as { Data: { Customer: { Uid: string } } }).Data.Customer.Uid;
  const open = async () => {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, 'superadmin@example.com');
    await page.goto(`/manage-customer/view-customer?uid=${uid}`);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    return { page, dialog: page.getByRole('dialog', { name: 'Edit Profile' }) };
  };
  const first = await open();
  const second = await open();
  await first.dialog.getByLabel('Organization (Optional)').fill('Royal Society');
  await first.dialog.getByRole('button', { name: 'Save' }).click();
  await expect(first.page.getByRole('status').filter({ hasText: 'Customer profile updated.' })).toBeVisible();

  await second.dialog.getByLabel('Phone Number (Optional)').fill('5550101010');
  await second.dialog.getByRole('button', { name: 'Save' }).click();
  const notice = second.dialog.getByRole('alert').filter({ hasText: 'Changed by someone else.' });
  await expect(notice).toContainText('Organization (Optional): Royal Society');
  await expect(second.dialog.getByLabel('Phone Number (Optional)')).toHaveValue('5550101010');
  await second.dialog.getByRole('button', { name: 'Load their values' }).click();
  await expect(second.dialog.getByLabel('Organization (Optional)')).toHaveValue('Royal Society');
  await second.dialog.getByLabel('Phone Number (Optional)').fill('5550101010');
  await second.dialog.getByRole('button', { name: 'Save' }).click();
  await expect(
    second.page.getByRole('status').filter({ hasText: 'Customer profile updated.' }),
  ).toBeVisible();
  const stored = await request.get(`/admin/customerprofilebyuid?uid=${uid}`, { headers });
  expect((await stored.json()) as { Data: object }).toMatchObject({
    Data: { Organization: 'Royal Society', PhoneNumber: '5550101010' },
  });
  await first.page.context().close();
  await second.page.context().close();
});
