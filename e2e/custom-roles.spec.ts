import { expect, type Page, test } from '@playwright/test';
import { axeSerious, CONSOLE_AXE_TAGS } from './support/axe.ts';
import { shoot } from './support/shots.ts';
import { signIn } from './support/sign-in.ts';

// Screenshots at three widths in two schemes, and axe three times: more than the default 30 s.
test.setTimeout(120_000);

/** axe over the page as it is now: no serious or critical violation. */
async function audit(page: Page, name: string) {
  expect(await axeSerious(page, { tags: CONSOLE_AXE_TAGS }), name).toEqual([]);
}

const card = (page: Page, name: string) =>
  page.getByRole('article', { name: new RegExp(`^${name}\\s*(Built-in|Custom)$`) });

test('a SuperAdmin makes a scoped role, gives it on the team screen, edits it, and cannot delete it while held', async ({
  page,
}) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/roles');
  await expect(page.getByRole('heading', { level: 1, name: 'Role details' })).toBeVisible();
  await expect(card(page, 'Support')).toContainText('All sites');

  await page.getByRole('button', { name: 'New role' }).click();
  const form = page.getByRole('dialog', { name: 'New role' });
  await form.getByLabel('Name').fill('EU Helpdesk');
  await form.getByLabel('Description (Optional)').fill('Support for customers in the EU');
  const permissions = form.getByRole('group', { name: 'Permissions' });
  await expect(permissions.getByRole('checkbox', { name: 'team.read' })).toBeEnabled();
  await form
    .getByRole('group', { name: 'Data centers' })
    .getByRole('checkbox', { name: 'EU Central (Frankfurt)' })
    .check();
  await form
    .getByRole('group', { name: 'Data centers' })
    .getByRole('checkbox', { name: 'EU West (Ireland)' })
    .check();
  // a scope holds only permissions over customers and sites
  await expect(permissions.getByRole('checkbox', { name: 'team.read' })).toBeDisabled();
  await permissions.getByRole('checkbox', { name: 'customers.read' }).check();
  await permissions.getByRole('checkbox', { name: 'sites.read' }).check();
  await audit(page, 'custom role form');
  await shoot(page, 'custom-role-form', false);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Role created.' })).toBeVisible();
  await expect(card(page, 'EU Helpdesk')).toContainText(
    'EU Central (Frankfurt), EU West (Ireland) · All plans',
  );
  await expect(card(page, 'EU Helpdesk')).toContainText('0 staff');

  // given to a new staff member on the team screen
  await page.goto('/manage-superuser/create-superuser');
  await page.getByLabel('Email', { exact: true }).fill('eu-agent@example.com');
  await page.getByRole('group', { name: 'Roles' }).getByRole('checkbox', { name: 'EU Helpdesk' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Super User Created Successfully' })).toBeVisible();

  await page.goto('/manage-superuser/roles');
  await expect(card(page, 'EU Helpdesk')).toContainText('1 staff');
  await page.getByRole('button', { name: 'Edit EU Helpdesk' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit role EU Helpdesk' });
  await expect(edit.getByLabel('Name')).toBeDisabled();
  await edit.getByRole('group', { name: 'Plans' }).getByRole('checkbox', { name: 'Free' }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Role updated.' })).toBeVisible();
  await expect(card(page, 'EU Helpdesk')).toContainText('EU Central (Frankfurt), EU West (Ireland) · Free');
  await audit(page, 'roles page');
  await shoot(page, 'custom-roles');

  await page.getByRole('button', { name: 'Delete EU Helpdesk' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete role' });
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm.getByRole('alert')).toHaveText(
    'This role is held by 1 staff member. Take it from them first.',
  );
  await audit(page, 'delete refused');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(card(page, 'EU Helpdesk')).toBeVisible();
});
