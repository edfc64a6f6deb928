import { expect, type Page, test } from '@playwright/test';
import { type ApiProcess, pageOn, startApi, stopApi } from './support/api-process.ts';
import { DEMO_PASSWORD, RUN_DIR } from './support/env.ts';
import { signIn } from './support/sign-in.ts';
import { rowOf, showRow } from './support/team-list.ts';

/**
 * Step-up (issue 33 item 5): a sensitive action after the step-up window asks the user to confirm
 * it is them, inline, above the form that made the call, which then goes ahead as it was; cancelled,
 * nothing is changed and the form stays. On an API of its own whose window is 6 seconds, so the
 * run's server keeps the default: long enough that the call retried after the password is checked
 * lands inside the fresh window on a loaded machine.
 */

let api: ApiProcess | undefined;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  api = await startApi({ STEP_UP_MINUTES: '0.1' });
});
test.afterAll(async () => stopApi(api));

/** Opens the role change of `email` with Admin ticked, up to its last Confirm. */
async function roleChangeUpToConfirm(page: Page, email: string, role: string, tick: boolean) {
  const row = await showRow(page, email);
  await row.getByRole('button', { name: 'Change roles' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change roles' });
  const box = dialog.getByRole('checkbox', { name: role, exact: true });
  await (tick ? box.check() : box.uncheck());
  await dialog.getByRole('button', { name: 'Continue' }).click();
  return dialog;
}

test('a sensitive action after the window asks to confirm, then goes ahead; cancelled, it changes nothing', async ({
  browser,
}) => {
  // Two waits past the window (13 s) and three password checks, on a loaded machine.
  test.slow();
  const page = await pageOn(browser, api!.url);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser');

  const change = await roleChangeUpToConfirm(page, 'support@example.com', 'Admin', true);
  await page.waitForTimeout(6500); // the sign-in is now older than the window
  await change.getByRole('button', { name: 'Confirm' }).click();
  const ask = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(ask).toBeVisible();
  await expect(ask).toContainText('This action needs a recent sign-in');
  // the form that made the call is still there underneath
  await expect(change).toBeVisible();
  await page.screenshot({ path: `${RUN_DIR}/step-up-dialog.png` });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${RUN_DIR}/step-up-dialog-360-dark.png` });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
  await ask.getByLabel('Your password').fill('Wrong#Pass1');
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(ask.getByText('That password is not correct.')).toBeVisible();
  await ask.getByLabel('Your password').fill(DEMO_PASSWORD);
  await ask.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Roles updated.' })).toBeVisible();
  await expect(ask).toHaveCount(0);
  await expect(rowOf(page, 'support@example.com')).toContainText('Admin');

  await page.waitForTimeout(6500);
  const undo = await roleChangeUpToConfirm(page, 'support@example.com', 'Admin', false);
  await undo.getByRole('button', { name: 'Confirm' }).click();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(
    page.getByText('The action was not done: it needs you to confirm it is you.').first(),
  ).toBeVisible();
  await expect(rowOf(page, 'support@example.com')).toContainText('Admin');
});
