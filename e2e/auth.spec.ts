import { expect, test } from '@playwright/test';
import { axeSerious } from './support/axe.ts';
import { DEMO_PASSWORD } from './support/env.ts';
import { waitForLink } from './support/mail.ts';
import { signIn } from './support/sign-in.ts';

test('the sign-in screen shows the spec messages for bad input and bad credentials', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in to Superadmin' })).toBeVisible();
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Email is required', { exact: true })).toBeVisible();
  await expect(page.getByText('Password is required', { exact: true })).toBeVisible();

  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password', { exact: true }).fill('whatever');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Please enter valid email.')).toBeVisible();

  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password', { exact: true }).press('Enter'); // Enter submits
  await expect(page.getByRole('alert').filter({ hasText: 'Please use valid credentials.' })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('signing in stores the session and opens the dashboard; /login then goes to /dashboard', async ({
  page,
}) => {
  await signIn(page, '  SuperAdmin@Example.com  ');
  const stored = await page.evaluate(() => ({
    token: localStorage.getItem('lr-admin-token'),
    sign: localStorage.getItem('lr-admin-sign'),
  }));
  expect(stored.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(stored.sign).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole('button', { name: 'superadmin@example.com' })).toBeVisible();
  await expect(page).toHaveTitle(/Dashboard/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('without a token every route but /login and /logout goes to /login', async ({ page }) => {
  for (const path of [
    '/dashboard',
    '/manage-superuser',
    '/manage-customer/search-customer',
    '/account/change-password',
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
});

test('logout ends the session on the server and clears local storage', async ({ page, request }) => {
  await signIn(page, 'superadmin@example.com');
  const session = await page.evaluate(() => ({
    xtoken: localStorage.getItem('lr-admin-token') ?? '',
    xsign: localStorage.getItem('lr-admin-sign') ?? '',
  }));
  await page.getByRole('button', { name: 'superadmin@example.com' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('lr-admin-token'))).toBeNull();
  const r = await request.get('/admin/session', {
    headers: { ...session, 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect(r.status()).toBe(401);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('forgot password, the link from the mail, reset, then sign in with the new password', async ({
  page,
}) => {
  const email = 'support@example.com';
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password' }).click();
  await page.getByLabel('Email').fill(email);
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'reset its password' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

  const link = await waitForLink(email, since);
  const url = new URL(link);
  expect(url.searchParams.get('vtype')).toBe('reset');
  await page.goto(url.pathname + url.search);
  await page.getByLabel('Password', { exact: true }).fill('abc');
  await page.getByLabel('Confirm Password').fill('abd');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(
    page.getByText(
      'Password field must be minimum 6 characters,  at least 1 lowercase letter, at least 1 uppercase letter, 1 symbol and 1 digit.',
    ),
  ).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('Brand#New9');
  await page.getByLabel('Confirm Password').fill('Brand#New8');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Passwords do not match.')).toBeVisible();
  await page.getByLabel('Confirm Password').fill('Brand#New9');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been reset' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();

  await signIn(page, email, 'Brand#New9');
});

test('the reset link works once', async ({ page }) => {
  const email = 'support@example.com';
  await page.goto('/forgotpassword');
  await page.getByLabel('Email').fill(email);
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Submit' }).click();
  const url = new URL(await waitForLink(email, since));
  for (const attempt of [0, 1]) {
    await page.goto(url.pathname + url.search);
    await page.getByLabel('Password', { exact: true }).fill('Again#Pass2');
    await page.getByLabel('Confirm Password').fill('Again#Pass2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    if (attempt === 0)
      await expect(
        page.getByRole('status').filter({ hasText: 'Your password has been reset' }),
      ).toBeVisible();
    else await expect(page.getByRole('alert').filter({ hasText: 'invalid or has expired' })).toBeVisible();
  }
});

test('change password from the account menu', async ({ page }) => {
  const email = 'admin@example.com';
  await signIn(page, email);
  await page.getByRole('button', { name: email }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/account\/change-password$/);
  await page.getByLabel('Old Password').fill('Wrong#Pass0');
  await page.getByLabel('New Password').fill('Change#Me1');
  await page.getByLabel('Confirm Password').fill('Change#Me1');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The old password is not correct.' })).toBeVisible();
  await page.getByLabel('Old Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been changed.' })).toBeVisible();
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, email, 'Change#Me1');
});

test('the sign-in screen has no serious accessibility violation', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in to Superadmin' })).toBeVisible();
  expect(await axeSerious(page)).toEqual([]);
});

test('the language switch translates the sign-in texts', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Language').selectOption('fr');
  await expect(page.getByRole('heading', { name: 'Connexion à Superadmin' })).toBeVisible();
  await page.getByLabel('Langue').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Sign in to Superadmin' })).toBeVisible();
});
