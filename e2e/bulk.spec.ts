import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { apiSignIn, createStaff } from './support/api.ts';
import { axeSerious, CONSOLE_AXE_TAGS } from './support/axe.ts';
import { waitForLink } from './support/mail.ts';
import { shoot } from './support/shots.ts';
import { signIn } from './support/sign-in.ts';
import { createSiteOwner } from './support/site-owner.ts';

/** axe on the page as it is now: no serious or critical violation (accessibility.spec.ts's rules). */
async function axeClean(page: Page, what: string) {
  const serious = await axeSerious(page, { tags: CONSOLE_AXE_TAGS, labelInName: true });
  expect.soft(serious, `axe on ${what}`).toEqual([]);
}

test('bulk deactivate: pick a page of sites, read the dry run, run it, then undo it from the toast', async ({
  page,
  request,
}) => {
  // the screenshots (E2E_SHOTS_DIR) take a while at three widths and two themes
  test.setTimeout(120_000);
  const owner = await createSiteOwner(request, { email: 'bulk-owner@example.com', appname: 'bulk-one' });
  const headers = await apiSignIn(request, 'superadmin@example.com');
  for (const appname of ['bulk-two', 'bulk-three']) {
    const r = await request.post(`/admin/site?uid=${owner.uid}`, { headers, data: { appname } });
    expect(r.ok(), await r.text()).toBe(true);
  }
  await signIn(page, 'superadmin@example.com');
  await page.goto(`/manage-customer/view-customer?uid=${owner.uid}`);
  const owned = page.getByRole('table', { name: 'Owned sites' });
  await expect(owned.getByRole('row')).toHaveCount(4);

  // pick the page with the keyboard: the header's box, then Space
  await owned.getByRole('checkbox', { name: 'Select the sites of this page' }).focus();
  await page.keyboard.press('Space');
  const bar = page.getByRole('region', { name: 'Bulk actions on the selected sites' });
  await expect(bar.getByText('3 selected')).toBeVisible();
  await axeClean(page, 'the owned sites with a selection');
  await shoot(page, 'bulk-selection');

  await bar.getByRole('button', { name: 'Deactivate selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate sites' });
  await expect(dialog.getByText('3 sites will be deactivated.')).toBeVisible();
  await expect(dialog.getByText('A bulk action takes at most 10,000 sites.')).toBeVisible();
  await axeClean(page, 'the dry run');
  await shoot(page, 'bulk-dry-run', false);
  await dialog.getByRole('button', { name: 'Deactivate 3 sites' }).click();

  // the job runs; its end is toasted with Undo
  await expect(dialog.getByText(/^Done\./)).toBeVisible();
  const toast = page.getByTestId('toast-success').filter({ hasText: 'Deactivated 3 sites; 0 refused.' });
  await expect(toast).toBeVisible();
  const jobPage = await dialog.getByRole('link', { name: 'Open the job’s page' }).getAttribute('href');
  await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  await expect(owned.getByRole('row').filter({ hasText: 'Inactive' })).toHaveCount(3);
  await toast.hover();
  await axeClean(page, 'the finished job and its toast');
  // the toast lasts 5 s unless held: Undo at once (the job's page offers it for 10 minutes too)
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Undone: 3 sites put back; 0 refused.')).toBeVisible();
  await expect(owned.getByRole('row').filter({ hasText: 'Inactive' })).toHaveCount(0);
  await shoot(page, 'bulk-undone');

  // the job's page, at its own address under the customer's page: every item, and the undo's own job
  expect(jobPage).toMatch(/^\/bulk-job\?id=\d+$/);
  await page.goto(jobPage ?? '');
  await expect(page.getByRole('heading', { name: /^Bulk job \d+$/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Items of the bulk job' }).getByRole('row')).toHaveCount(4);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('listitem')).toHaveText(['Manage Customer', 'View Customer', 'Bulk job']);
  await expect(crumbs.getByRole('link', { name: 'View Customer' })).toHaveAttribute(
    'href',
    `/manage-customer/view-customer?uid=${owner.uid}`,
  );
  await expect(page.getByRole('link', { name: 'Back to the customer' })).toBeVisible();
  await axeClean(page, 'the job page');
  await shoot(page, 'bulk-job-page');
  // a link mailed before the page had its own address still opens it
  await page.goto(`/manage-customer${jobPage}`);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === jobPage);
  await expect(page.getByRole('heading', { name: /^Bulk job \d+$/ })).toBeVisible();
});

test('bulk on the customer search: pick two customers, export them, deactivate their sites, undo from the toast', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const last = `Pickwick${Date.now()}`;
  const made: Array<{ uid: string; email: string; sites: string[] }> = [];
  for (const first of ['Anna', 'Bert']) {
    const email = `${first.toLowerCase()}-${last.toLowerCase()}@example.com`;
    const appname = `${first.toLowerCase()}-${last.toLowerCase()}`;
    const r = await request.post('/admin/customer', {
      headers,
      data: { firstname: first, lastname: last, email, appname },
    });
    expect(r.ok(), await r.text()).toBe(true);
    const uid = ((await r.json()) as { Data: { Customer: { Uid: string } } }).Data.Customer.Uid;
    made.push({ uid, email, sites: [appname] });
  }
  const more = await request.post(`/admin/site?uid=${made[0]!.uid}`, {
    headers,
    data: { appname: `anna-${last.toLowerCase()}-two` },
  });
  expect(more.ok(), await more.text()).toBe(true);
  made[0]!.sites.push(`anna-${last.toLowerCase()}-two`);
  const statuses = async () => {
    const out: string[] = [];
    for (const c of made) {
      const r = await request.get(`/admin/apps?uid=${c.uid}`, { headers });
      out.push(...((await r.json()) as { Data: Array<{ Status: string }> }).Data.map((s) => s.Status));
    }
    return out;
  };

  await signIn(page, 'superadmin@example.com');
  await page.goto(`/manage-customer/search-customer?customerName=${last}`);
  const table = page.getByRole('table', { name: 'Customers found' });
  await expect(table.getByRole('row')).toHaveCount(3);
  // pick both with the keyboard: each row's box, then Space
  for (const first of ['Anna', 'Bert']) {
    const box = table.getByRole('checkbox', { name: `Select ${first} ${last}` });
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  const bar = page.getByRole('region', { name: 'Bulk actions on the selected customers' });
  await expect(bar.getByText('2 selected')).toBeVisible();

  // the selection's export: the search's own server export, of the two (uids)
  const saved = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Export CSV of the selected customers' }).click();
  const file = await saved;
  expect(file.suggestedFilename()).toMatch(/^customers-customerName-.+\.csv$/);
  const text = await (await import('node:fs/promises')).readFile((await file.path()) ?? '', 'utf8');
  const lines = text.trim().split('\r\n');
  expect(lines[0]).toBe('Uid,Customer Name,Email,Status,Role,Created Date,Modified Date');
  expect(
    lines
      .slice(1)
      .map((l) => l.split(',')[0])
      .sort(),
  ).toEqual(made.map((c) => c.uid).sort());
  await axeClean(page, 'the customer search with a selection');
  await shoot(page, 'bulk-customers-selection');

  await bar.getByRole('button', { name: 'Deactivate their sites' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate sites' });
  await expect(dialog.getByText('3 sites will be deactivated.')).toBeVisible();
  // each site with its customer
  await expect(dialog.getByRole('listitem')).toHaveText(
    made.flatMap((c) => c.sites.map((site) => `${site} (${c.email})`)),
  );
  await expect(dialog.getByText('A bulk action takes at most 10,000 sites.')).toBeVisible();
  await axeClean(page, 'the dry run of the customers’ sites');
  await shoot(page, 'bulk-customers-dry-run', false);
  await dialog.getByRole('button', { name: 'Deactivate 3 sites' }).click();

  await expect(dialog.getByText(/^Done\./)).toBeVisible();
  const toast = page.getByTestId('toast-success').filter({ hasText: 'Deactivated 3 sites; 0 refused.' });
  await expect(toast).toBeVisible();
  expect(await statuses()).toEqual(['inactive', 'inactive', 'inactive']);
  const jobPage = await dialog.getByRole('link', { name: 'Open the job’s page' }).getAttribute('href');
  await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  await expect(bar).toHaveCount(0);
  await toast.hover();
  await axeClean(page, 'the search after the job, and its toast');
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Undone: 3 sites put back; 0 refused.')).toBeVisible();
  expect(await statuses()).toEqual(['active', 'active', 'active']);

  // the job's page: each site, linking to its customer, and the way back to the search
  await page.goto(jobPage ?? '');
  const items = page.getByRole('table', { name: 'Items of the bulk job' });
  await expect(items.getByRole('row')).toHaveCount(4);
  await expect(items.getByRole('link', { name: `${made[1]!.sites[0]} (${made[1]!.email})` })).toHaveAttribute(
    'href',
    `/manage-customer/view-customer?uid=${made[1]!.uid}`,
  );
  await expect(page.getByRole('link', { name: 'Back to the customer search' })).toBeVisible();
  await axeClean(page, 'the job page of the customers’ sites');
  await shoot(page, 'bulk-customers-job-page');
});

/** A live grant to `agent` on a fresh site of its own owner: requested, consented from the mail, approved. */
async function liveGrant(
  request: APIRequestContext,
  agent: Record<string, string>,
  boss: Record<string, string>,
  n: number,
): Promise<number> {
  const owner = await createSiteOwner(request, {
    email: `bulk-grant-${n}@example.com`,
    appname: `bulk-grant-${n}`,
  });
  const since = Date.now() - 1;
  const created = await request.post('/admin/impersonation/requests', {
    headers: agent,
    data: {
      data: {
        AppId: owner.appId,
        Priority: 'High',
        Description: 'Look at the settings',
        ReasonCode: 'support-ticket',
        Assignees: ['superadmin@example.com'],
        ProxyRoles: ['Support'],
        AdditionalPermissions: [],
        Duration: 60,
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { Data: { Id: number } }).Data.Id;
  const token = new URL(await waitForLink(owner.email, since)).searchParams.get('token');
  await request.post('/admin/impersonation/consent', {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: { token, granted: true },
  });
  const approved = await request.post(`/admin/impersonation/request/action?requestId=${id}`, {
    headers: boss,
    data: { Status: 'Approve', ProxyRoles: ['Support'], AdditionalPermissions: [], Duration: 30 },
  });
  expect(approved.status(), await approved.text()).toBe(200);
  return id;
}

test('bulk revoke: pick two live grants with the keyboard, read the dry run, run it (no undo)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const agent = await createStaff(request, { email: 'bulk-agent@example.com', roles: ['Admin'] });
  const agentHeaders = await apiSignIn(request, agent.email, agent.password);
  const boss = await apiSignIn(request, 'superadmin@example.com');
  const ids = [
    await liveGrant(request, agentHeaders, boss, 1),
    await liveGrant(request, agentHeaders, boss, 2),
  ];

  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Approved');
  const table = page.getByRole('table', { name: 'Impersonation requests' });
  for (const id of ids) {
    const box = table.getByRole('checkbox', { name: `Select request ${id}` });
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  const bar = page.getByRole('region', { name: 'Bulk actions on the selected requests' });
  await expect(bar.getByText('2 selected')).toBeVisible();
  // the selection's export: the list's own server export, of the two rows (ids)
  const saved = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Export CSV of the selected requests' }).click();
  const file = await saved;
  expect(file.suggestedFilename()).toMatch(/^impersonation-requests-.+\.csv$/);
  const text = await (await import('node:fs/promises')).readFile((await file.path()) ?? '', 'utf8');
  expect(text.trim().split('\r\n')).toHaveLength(3);
  await axeClean(page, 'the requests with a selection');
  await shoot(page, 'bulk-requests-selection');

  await bar.getByRole('button', { name: 'Revoke grants' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke grants' });
  // the comment first: each holder is told it, as with a single revocation
  const comment = dialog.getByRole('textbox', { name: 'Comment (optional)' });
  await expect(comment).toBeFocused();
  await page.keyboard.type('Incident 42 is closed.');
  await axeClean(page, 'the comment of a revocation');
  await shoot(page, 'bulk-requests-comment', false);
  await dialog.getByRole('button', { name: 'Check what would change' }).click();
  await expect(dialog.getByText('2 grants will be revoked.')).toBeVisible();
  await expect(dialog.getByText('Each requester is told: “Incident 42 is closed.”')).toBeVisible();
  await expect(dialog.getByText('This cannot be undone.')).toBeVisible();
  await expect(dialog.getByText('A bulk action takes at most 10,000 requests.')).toBeVisible();
  await axeClean(page, 'the dry run of a revocation');
  await shoot(page, 'bulk-requests-dry-run', false);
  await dialog.getByRole('button', { name: 'Revoke 2 grants' }).click();

  await expect(dialog.getByText(/^Done\./)).toBeVisible();
  const toast = page.getByTestId('toast-success').filter({ hasText: 'Revoked 2 grants; 0 refused.' });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  const jobPage = await dialog.getByRole('link', { name: 'Open the job’s page' }).getAttribute('href');
  await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  for (const id of ids)
    await expect(table.getByRole('cell', { name: String(id), exact: true })).toHaveCount(0);
  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Revoked');
  for (const id of ids)
    await expect(table.getByRole('cell', { name: String(id), exact: true })).toBeVisible();
  // each holder reads the comment on their request
  for (const id of ids) {
    const read = await request.get(`/admin/impersonation/requests?requestId=${id}`, {
      headers: agentHeaders,
    });
    const [row] = ((await read.json()) as { Data: { Action: { Status: string; Reason: string } }[] }).Data;
    expect(row?.Action).toMatchObject({ Status: 'Revoked', Reason: 'Incident 42 is closed.' });
  }

  await page.goto(jobPage ?? '');
  const items = page.getByRole('table', { name: 'Items of the bulk job' });
  await expect(items.getByRole('row')).toHaveCount(3);
  await expect(items.getByRole('columnheader', { name: 'Request' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the impersonation requests' })).toBeVisible();
  await expect(
    page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Assigned Impersonation Requests' }),
  ).toHaveAttribute('href', '/manage-superuser/impersonation/assigned-requests');
  await axeClean(page, 'the job page of a revocation');
  await shoot(page, 'bulk-requests-job-page');
});

test('bulk end: a colleague’s live sessions, picked a page at once, ended after the dry run', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const colleague = await createStaff(request, { email: 'bulk-sessions@example.com', roles: ['Support'] });
  for (let i = 0; i < 3; i++) await apiSignIn(request, colleague.email, colleague.password);
  await signIn(page, 'superadmin@example.com');
  await page.goto(`/manage-superuser/profile/${colleague.uid}`);
  const table = page.getByRole('table', { name: `Sessions of ${colleague.email}` });
  await expect(table.getByRole('row')).toHaveCount(4);
  await table.getByRole('checkbox', { name: 'Select the sessions of this page' }).focus();
  await page.keyboard.press('Space');
  const bar = page.getByRole('region', { name: 'Bulk actions on the selected sessions' });
  await expect(bar.getByText('3 selected')).toBeVisible();
  await axeClean(page, 'a colleague’s sessions with a selection');
  await shoot(page, 'bulk-sessions-selection');
  await bar.getByRole('button', { name: 'End selected sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'End sessions' });
  await expect(dialog.getByText('3 sessions will be ended.')).toBeVisible();
  await shoot(page, 'bulk-sessions-dry-run', false);
  await dialog.getByRole('button', { name: 'End 3 sessions' }).click();
  await expect(
    page.getByTestId('toast-success').filter({ hasText: 'Ended 3 sessions; 0 refused.' }),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  await expect(table.getByRole('checkbox', { name: /^Select the session of / })).toHaveCount(0);
});

test('bulk resend: a pending invitee and an accepted member picked by keyboard; only the invitee is mailed again', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const invitee = 'aa-bulk-invitee@example.com';
  const invited = await request.post('/admin/team', {
    headers,
    data: { email: invitee, role: ['Support'], name: '' },
  });
  expect(invited.ok(), await invited.text()).toBe(true);
  const member = await createStaff(request, { email: 'aa-bulk-member@example.com', roles: ['Support'] });

  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/manage-superuser?sort=email');
  const table = page.getByRole('table', { name: 'Super users' });
  await expect(
    table.getByRole('row').filter({ hasText: invitee }).getByText('Invitation pending'),
  ).toBeVisible();
  for (const email of [invitee, member.email]) {
    const box = table.getByRole('checkbox', { name: `Select ${email}` });
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  const bar = page.getByRole('region', { name: 'Bulk actions on the selected members' });
  await expect(bar.getByText('2 selected')).toBeVisible();
  // the selection's export: the table's own, of the two rows
  const saved = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV of the selected members' }).click();
  const file = await saved;
  expect(file.suggestedFilename()).toMatch(/^superusers-\d{4}-\d\d-\d\d\.csv$/);
  const text = await (await import('node:fs/promises')).readFile((await file.path()) ?? '', 'utf8');
  expect(text.trim().split('\r\n')).toHaveLength(3);
  await axeClean(page, 'the team with a selection');
  await shoot(page, 'bulk-team-selection');

  await bar.getByRole('button', { name: 'Resend invitations' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resend invitations' });
  await expect(dialog.getByText(/^1 invitation will be sent again/)).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveText(
    `${member.email}: Not a pending invitee: they accepted their invitation already.`,
  );
  await expect(dialog.getByText('This cannot be undone.')).toBeVisible();
  await axeClean(page, 'the dry run of a resend');
  await shoot(page, 'bulk-team-dry-run', false);
  const since = Date.now() - 1;
  await dialog.getByRole('button', { name: 'Resend 1 invitation' }).click();
  await expect(
    page.getByTestId('toast-success').filter({ hasText: 'Sent 1 invitation again; 1 refused.' }),
  ).toBeVisible();
  expect(new URL(await waitForLink(invitee, since)).searchParams.get('vtype')).toBe('invite');
  const jobPage = await dialog.getByRole('link', { name: 'Open the job’s page' }).getAttribute('href');
  await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  await page.goto(jobPage ?? '');
  const items = page.getByRole('table', { name: 'Items of the bulk job' });
  await expect(items.getByRole('columnheader', { name: 'Member' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to the team list' })).toBeVisible();
  await axeClean(page, 'the job page of a resend');

  // one invitation again, from the invitee's row (sorted by email: other specs add members, so the
  // list's first page by its default order need not hold the invitee)
  await page.goto('/manage-superuser/manage-superuser?sort=email');
  const row = table.getByRole('row').filter({ hasText: invitee });
  await row.getByRole('button', { name: 'Resend invitation' }).click();
  const confirm = page.getByRole('dialog', { name: 'Resend the invitation' });
  await expect(confirm.getByText(`Send ${invitee} their invitation again?`)).toBeVisible();
  await axeClean(page, 'the single resend');
  const again = Date.now() - 1;
  await confirm.getByRole('button', { name: 'Resend', exact: true }).click();
  await expect(
    page.getByTestId('toast-success').filter({ hasText: `The invitation was sent again to ${invitee}.` }),
  ).toBeVisible();
  expect(new URL(await waitForLink(invitee, again)).searchParams.get('vtype')).toBe('invite');
});
