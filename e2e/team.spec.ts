import { expect, test } from '@playwright/test';
import { createStaff } from './support/api.ts';
import { waitForLink } from './support/mail.ts';
import { signIn } from './support/sign-in.ts';
import { rowOf, showRow } from './support/team-list.ts';

test('create a super user: messages, duplicate, invitation, set password, sign in', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/create-superuser');
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  const roles = page.getByRole('group', { name: 'Roles' });
  await expect(roles.getByRole('checkbox', { name: 'SuperAdmin' })).toHaveCount(0); // never offered

  const email = page.getByLabel('Email', { exact: true });
  await email.fill('');
  await email.blur();
  await expect(page.getByText('Email is required.')).toBeVisible();
  await email.fill('not-an-email');
  await email.blur();
  await expect(page.getByText('Email is invalid.')).toBeVisible();
  await roles.getByRole('checkbox', { name: 'Support' }).check();
  await roles.getByRole('checkbox', { name: 'Support' }).uncheck();
  await expect(page.getByText('Roles field is required.')).toBeVisible();
  await expect(save).toBeDisabled();

  // An existing super user, in another case
  await email.fill('ADMIN@example.com');
  await roles.getByRole('checkbox', { name: 'Support' }).check();
  await save.click();
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Super User is already exist. please create with different email.' }),
  ).toBeVisible();

  await page.getByLabel('Name (Optional)').fill('Nia Newhire');
  await email.fill('nia@example.com');
  const since = Date.now() - 1;
  await save.click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Super User Created Successfully. Please check you email to reset password.' }),
  ).toBeVisible();

  const link = new URL(await waitForLink('nia@example.com', since));
  expect(link.searchParams.get('vtype')).toBe('invite');
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('Nia#Pass12');
  await page.getByLabel('Confirm Password').fill('Nia#Pass12');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been set' })).toBeVisible();
  await signIn(page, 'nia@example.com', 'Nia#Pass12');
});

test('change roles and delete, each confirmed, update the list in place', async ({ page, request }) => {
  const mover = await createStaff(request, {
    email: 'mover@example.com',
    roles: ['Support'],
    name: 'Mo Ver',
  });
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser');
  const row = await showRow(page, mover.email);
  await expect(row).toContainText('Support');

  await row.getByRole('button', { name: 'Change roles' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change roles' });
  await dialog.getByRole('checkbox', { name: 'Support' }).uncheck();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('Roles field is required.')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Admin', exact: true }).check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Roles updated.' })).toBeVisible();
  await expect(rowOf(page, mover.email)).toContainText('Admin');
  await expect(rowOf(page, mover.email)).not.toContainText('Support');

  await rowOf(page, mover.email).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete super user' });
  await expect(confirm).toContainText(mover.email);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(rowOf(page, mover.email)).toHaveCount(1);
  await rowOf(page, mover.email).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete super user' }).getByRole('textbox').fill(mover.email);
  await page
    .getByRole('dialog', { name: 'Delete super user' })
    .getByRole('button', { name: 'Confirm' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Super user deleted.' })).toBeVisible();
  await expect(rowOf(page, mover.email)).toHaveCount(0);
});

test('the list pages 10 rows at a time', async ({ page, request }) => {
  for (let i = 0; i < 9; i++)
    await createStaff(request, { email: `pager${i}@example.com`, roles: ['Support'] });
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser');
  const table = page.getByRole('table', { name: 'Super users' });
  await expect(table.getByRole('row')).toHaveCount(11); // header + 10
  const firstOnPage1 = await table.getByRole('row').nth(1).textContent();
  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pagination.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  await pagination.getByRole('button', { name: 'Page 2' }).click();
  await expect(pagination.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  // the next ten (or fewer, on the last page), not the first ten again
  await expect(table.getByRole('row').nth(1)).not.toHaveText(firstOnPage1 ?? '');
  const rows = await table.getByRole('row').count();
  expect(rows).toBeGreaterThan(1);
  expect(rows).toBeLessThanOrEqual(11);
});

test('profile links follow the profile-access rule', async ({ page, request }) => {
  const adminUser = await createStaff(request, { email: 'rule-admin@example.com', roles: ['Admin'] });
  await signIn(page, adminUser.email, adminUser.password);
  await page.goto('/manage-superuser');
  const table = page.getByRole('table', { name: 'Super users' });
  // An Admin opens Support users and their own profile, not SuperAdmins or other Admins.
  await expect(table.getByRole('link', { name: 'support@example.com' })).toBeVisible();
  await expect(rowOf(page, 'superadmin@example.com')).toBeVisible();
  await expect(table.getByRole('link', { name: 'superadmin@example.com' })).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'admin@example.com', exact: true })).toHaveCount(0);
  await expect(rowOf(page, 'admin@example.com').first()).toBeVisible();
  const own = await showRow(page, adminUser.email);
  await expect(own.getByRole('link', { name: adminUser.email })).toBeVisible();

  await page.goto('/manage-superuser');
  await table.getByRole('link', { name: 'support@example.com' }).click();
  await expect(page.getByRole('heading', { name: 'Super User Profile' })).toBeVisible();
  await expect(page.getByText('support@example.com').first()).toBeVisible();

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser');
  await expect(
    page
      .getByRole('table', { name: 'Super users' })
      .getByRole('link', { name: 'admin@example.com', exact: true }),
  ).toBeVisible();
});
