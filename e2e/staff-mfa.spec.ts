import { createHmac } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { createStaff } from './support/api.ts';
import { type ApiProcess, startApi, stopApi } from './support/api-process.ts';
import { API_PORT, DEMO_PASSWORD } from './support/env.ts';

/**
 * Two-step sign-in in Chromium: a passkey made and used by Chromium's virtual authenticator, and
 * an authenticator-app code computed here from the secret the console shows. Passkeys need a
 * host name for their relying party, so these pages run on localhost (a console origin too).
 */
const LOCAL = `http://localhost:${API_PORT}`;

/** RFC 6238: SHA-1, 6 digits, 30 s; `steps` from now. */
function totp(base32: string, steps = 0): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of base32) bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + steps));
  const h = createHmac('sha1', key).update(counter).digest();
  const o = h[h.length - 1]! & 15;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto(`${LOCAL}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function openSecurity(page: Page, email: string) {
  await page.getByRole('button', { name: new RegExp(email) }).click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Sign-in security' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign-in security' })).toBeVisible();
}

async function shoot(page: Page, name: string, path: (f: string) => string) {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path(`${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a passkey: set up under Sign-in security, then asked for after the password', async ({
  page,
  request,
}, info) => {
  const staff = await createStaff(request, { email: 'passkey-user@example.com', roles: ['Admin'] });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  await passwordStep(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await openSecurity(page, staff.email);
  await page.getByLabel('Current password').fill(staff.password);
  await page.getByLabel('Passkey name').fill('Work laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Your passkey has been added.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
  const codes = page.getByRole('dialog', { name: 'Save your recovery codes' });
  await expect(codes.getByRole('listitem')).toHaveCount(10);
  // The toast is in the dialog, above the codes, never over them.
  await expect(codes.getByText('Your passkey has been added.')).toBeVisible();
  const toastBox = await codes.getByText('Your passkey has been added.').boundingBox();
  const firstCode = await codes.getByRole('listitem').first().boundingBox();
  expect(toastBox!.y + toastBox!.height).toBeLessThanOrEqual(firstCode!.y);
  // Copy all, Download (.txt) and Print.
  const download = page.waitForEvent('download');
  await codes.getByRole('button', { name: 'Download (.txt)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('recovery-codes.txt');
  const text = (await (await file.createReadStream()).toArray()).join('');
  const shown = await codes.getByRole('listitem').allInnerTexts();
  expect(text).toContain(`Recovery codes for ${staff.email}`);
  for (const c of shown) expect(text).toContain(c.trim());
  await expect(codes.getByRole('button', { name: 'Copy all' })).toBeVisible();
  await expect(codes.getByRole('button', { name: 'Print' })).toBeVisible();
  await shoot(page, 'security-recovery-codes', (f) => info.outputPath(f));
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: 'Work laptop' });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(2)).toHaveText('Never');
  await shoot(page, 'security-passkey', (f) => info.outputPath(f));

  await page.goto(`${LOCAL}/logout`);
  await expect(page).toHaveURL(/\/login$/);
  await passwordStep(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/login\/second-step$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeVisible();
  await shoot(page, 'second-step-passkey', (f) => info.outputPath(f));
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});

test('an authenticator app: the QR code and secret shown, a code from it at sign-in', async ({
  page,
  request,
}, info) => {
  const staff = await createStaff(request, { email: 'totp-user@example.com', roles: ['Support'] });
  await passwordStep(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await openSecurity(page, staff.email);
  await page.getByLabel('Current password').fill(staff.password);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = await page.getByTestId('totp-secret').getAttribute('data-secret');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByTestId('totp-secret')).toHaveText(secret!.replace(/(.{4})/g, '$1 ').trim());
  await shoot(page, 'security-totp-setup', (f) => info.outputPath(f));
  // A wrong code first: its error toast goes once the right code has set the app up.
  const wrong = totp(secret!, 5);
  await page.getByLabel('Code the app shows now').fill(wrong);
  await page.getByRole('button', { name: 'Confirm' }).click();
  const error = page.getByTestId('toast-error');
  await expect(error).toBeVisible();
  await page.getByLabel('Code the app shows now').fill(totp(secret!));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Your authenticator app is set up.', { exact: false })).toBeVisible();
  await expect(error).toHaveCount(0);
  await expect(
    page.getByRole('dialog', { name: 'Save your recovery codes' }).getByRole('listitem'),
  ).toHaveCount(10);
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(/^Set up on /)).toBeVisible();

  await page.goto(`${LOCAL}/logout`);
  await expect(page).toHaveURL(/\/login$/);
  await passwordStep(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/login\/second-step$/);
  // the code of this step was spent by the set-up: the next step's (one step of skew is accepted)
  await page.getByLabel('Code from your authenticator app').fill(totp(secret!, 1));
  await shoot(page, 'second-step-code', (f) => info.outputPath(f));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});

test.describe('a second factor required (STAFF_MFA=required)', () => {
  test.describe.configure({ timeout: 180_000 });
  let api: ApiProcess | undefined;
  test.afterAll(() => stopApi(api));

  test('forced enrolment survives a reload: set up after it without typing the password again', async ({
    browser,
  }, info) => {
    // The run's server lets a second factor be optional: a process of the test's own requires it.
    api = await startApi({ STAFF_MFA: 'required' });
    const page = await (await browser.newContext({ baseURL: api.url })).newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill('support@example.com');
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login\/enrol$/);
    const heading = page.getByRole('heading', { level: 1, name: 'Set up two-step sign-in' });
    await expect(heading).toBeVisible();
    await page.getByRole('button', { name: 'Use an authenticator app' }).click();
    await expect(page.getByTestId('totp-secret')).toBeVisible();

    // Mid-enrolment, a reload: the set-up goes on where it was, no password asked for.
    await page.reload();
    await expect(page).toHaveURL(/\/login\/enrol$/);
    await expect(heading).toBeVisible();
    await expect(page.getByText('support@example.com')).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: info.outputPath('enrol-after-reload.png'), fullPage: true });
    await page.getByRole('button', { name: 'Use an authenticator app' }).click();
    const secret = await page.getByTestId('totp-secret').getAttribute('data-secret');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code the app shows now').fill(totp(secret!));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('heading', { name: 'Save your recovery codes' })).toBeVisible();
    await expect(page.getByRole('listitem')).toHaveCount(10);
    await page.getByRole('button', { name: 'I have saved them, continue' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });
});
