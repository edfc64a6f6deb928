import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { nodeRuntime } from '../scripts/node-runtime.mjs';
import { apiSignIn, createStaff } from './support/api.ts';
import { signIn } from './support/sign-in.ts';

test('an auditor filters the trail to one customer and exports it; the file verifies with the shown key', async ({
  page,
  request,
}) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const stamp = Date.now();
  const created = await request.post('/admin/customer', {
    headers,
    data: {
      firstname: 'Grace',
      lastname: 'Hopper',
      email: `grace-${stamp}@cobol.example`,
      appname: `cobol-${stamp}`,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const uid = ((await created.json()) as { Data: { Customer: { Uid: string } } }).Data.Customer.Uid;
  const auditor = await createStaff(request, { email: `auditor-${stamp}@example.com`, roles: ['Auditor'] });

  await signIn(page, auditor.email, auditor.password);
  // The section opens the first screen an Auditor may open: the trail.
  await page.goto('/manage-superuser');
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Audit Trail' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit trail events' });
  // The auditor's own sign-in is the newest event.
  await expect(table.getByRole('row').nth(1)).toContainText(auditor.email);

  await page.getByLabel('Customer id').fill(uid);
  await page.getByLabel('Time', { exact: true }).selectOption('24h');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(new RegExp(`customer=${uid}&range=24h`));
  await expect(table.getByRole('row')).toHaveCount(2); // the header and the customer's creation
  // The action in words, its code in the tooltip; the customer by name, its id on hover.
  const action = table.getByText('Created a customer');
  await expect(action).toBeVisible();
  await expect(action).toHaveAttribute('title', 'Code: customer.create');
  await expect(table.getByRole('link', { name: new RegExp(`^Customer .+ \\(${uid}\\)$`) })).toHaveAttribute(
    'title',
    `Customer id ${uid}`,
  );
  await expect(table.getByRole('row').nth(1)).toContainText('superadmin@example.com');
  await page.screenshot({ path: test.info().outputPath('audit-trail-1280.png'), fullPage: true });

  // The key that verifies exports, shown to copy.
  await page.getByText('Verification key').click();
  const key =
    (await page.locator('details').filter({ hasText: 'Verification key' }).locator('pre').textContent()) ??
    '';
  expect(key).toContain('BEGIN PUBLIC KEY');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-trail-.+\.csv$/);
  await expect(page.getByText(/^Exported 1 row to audit-trail-.+\.csv\.$/)).toBeVisible();
  const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'audit-')), file.suggestedFilename());
  await file.saveAs(saved);
  const text = fs.readFileSync(saved, 'utf8');
  expect(text.split('\r\n')[0]).toMatch(/^Id,At,ActorUid,ActorEmail,Action,/);
  expect(text).toContain(',customer.create,');
  const keyFile = `${saved}.pem`;
  fs.writeFileSync(keyFile, key);
  const apiDir = path.resolve(import.meta.dirname, '../apps/api');
  const run = (f: string) =>
    execFileSync(nodeRuntime().node, ['src/ops/verify-audit-export-cli.ts', '--key', keyFile, f], {
      cwd: apiDir,
      encoding: 'utf8',
    });
  expect(run(saved)).toContain('intact, 1 row');
  const tampered = `${saved.slice(0, -4)}-edited.csv`;
  fs.writeFileSync(tampered, text.replace(',customer.create,', ',customer.profile.update,'));
  expect(() => run(tampered)).toThrow(/NOT as exported, row 1 does not match its chain/);

  for (const width of [360, 1920]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`audit-trail-${width}.png`), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});

test('a SuperAdmin reaches the trail from Manage Superuser; an Admin does not see it', async ({
  page,
  request,
}) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/audit-trail');
  await expect(page.getByRole('table', { name: 'Audit trail events' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Audit Trail' }).first()).toBeVisible();

  const admin = await createStaff(request, { email: `admin-${Date.now()}@example.com`, roles: ['Admin'] });
  const other = await (await page.context().browser()!.newContext()).newPage();
  await signIn(other, admin.email, admin.password);
  await other.goto('/manage-superuser/audit-trail');
  await expect(other.getByRole('alert')).toHaveText('You do not have permission to open this screen.');
  await expect(other.getByRole('link', { name: 'Audit Trail' })).toHaveCount(0);
});
