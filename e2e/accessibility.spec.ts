import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { apiSignIn, appIdOf, createStaff } from './support/api.ts';
import { CONSOLE_AXE_TAGS, runAxe, seriousOf } from './support/axe.ts';
import { ADA } from './support/demo-sites.ts';
import { RUN_DIR } from './support/env.ts';
import { rowsIn } from './support/loading.ts';
import { waitForLinks } from './support/mail.ts';
import { signIn } from './support/sign-in.ts';
import { createSiteOwner } from './support/site-owner.ts';

// axe over every screen of the console and the states that matter (errors shown, dialogs open,
// toasts, overlays): no serious or critical violation of WCAG 2.1 A/AA or axe's best practices.
// Moderate and minor ones are counted in RUN_DIR/a11y-report.json and the test's annotations.

// The machine is shared and slow at times: screens are many, so the tests get time.
test.setTimeout(300_000);

const REPORT = path.join(RUN_DIR, 'a11y-report.json');

interface ScreenReport {
  screen: string;
  serious: string[];
  moderate: number;
  minor: number;
  /** The moderate and minor rules that failed, with their node counts. */
  others: string[];
  /** Texts whose contrast axe could not measure (on a gradient, say): to check by eye. */
  contrastUnmeasured: string[];
}

function record(entry: ScreenReport) {
  const all: ScreenReport[] = fs.existsSync(REPORT) ? JSON.parse(fs.readFileSync(REPORT, 'utf8')) : [];
  all.push(entry);
  fs.writeFileSync(REPORT, JSON.stringify(all, null, 2));
}

/** Runs axe on the page as it is now; a serious or critical violation fails the test (softly). */
async function audit(page: Page, name: string): Promise<void> {
  const screen = test.info().project.name === 'dark' ? `${name} (dark)` : name;
  const result = await runAxe(page, { tags: CONSOLE_AXE_TAGS, labelInName: true });
  const serious = seriousOf(result);
  const count = (impact: string) =>
    result.violations.filter((v) => v.impact === impact).reduce((n, v) => n + v.nodes.length, 0);
  const others = result.violations
    .filter((v) => v.impact === 'moderate' || v.impact === 'minor')
    .map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes[0]?.target.join(' ')}`);
  const contrastUnmeasured = (result.incomplete.find((v) => v.id === 'color-contrast')?.nodes ?? []).map(
    (n) => n.target.join(' '),
  );
  const entry = {
    screen,
    serious,
    moderate: count('moderate'),
    minor: count('minor'),
    others,
    contrastUnmeasured,
  };
  record(entry);
  test.info().annotations.push({
    type: 'axe',
    description: `${screen}: ${serious.length} serious/critical, ${entry.moderate} moderate, ${entry.minor} minor`,
  });
  expect.soft(serious, `axe on "${screen}"`).toEqual([]);
}

test('the public screens: sign-in in its three modes, start-up failure, owner pages', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await audit(page, 'login');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await audit(page, 'login, errors shown');
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password', { exact: true }).fill('Wrong#Pass1');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await audit(page, 'login, error toast');

  await page.goto('/forgotpassword');
  await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
  await audit(page, 'forgot password');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await audit(page, 'forgot password, errors shown');

  await page.goto('/login?vtype=reset&vtoken=');
  await expect(page.getByLabel('Confirm Password')).toBeVisible();
  await audit(page, 'reset password, missing token');
  await page.goto('/login?vtype=invite&vtoken=0123456789abcdef0123456789abcdef');
  await expect(page.getByLabel('Confirm Password')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm Password').fill('other');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await audit(page, 'invitation, errors shown');

  await page.goto('/impersonation/consent?token=not-a-token');
  await expect(page.getByRole('heading').first()).toBeVisible();
  await audit(page, 'consent page, bad link');
  await page.goto('/impersonation/site-access?token=not-a-token');
  await expect(page.getByRole('heading').first()).toBeVisible();
  await audit(page, 'site-access page, bad link');
  await page.goto('/unsubscribe?token=bm90.YS10b2tlbg');
  await expect(page.getByRole('heading', { name: 'Link not valid' })).toBeVisible();
  await audit(page, 'unsubscribe page, forged link');

  await page.route('**/runtime-config.json', (route) => route.abort('internetdisconnected'));
  await page.goto('/login');
  await expect(page.getByText('App initialization failed. Please check your network.')).toBeVisible();
  await audit(page, 'initialization failure');
});

test('the shell, dashboard, account, notifications, offline overlay and an unknown path', async ({
  page,
  context,
}) => {
  await signIn(page, 'superadmin@example.com');
  await audit(page, 'dashboard');
  // Every site's custom domains (the dashboard's domains figures link here), with the demo data's failing one.
  await page.goto('/manage-customer/custom-domains?status=failing');
  // Skeleton rows count too: the failing rows themselves, once in.
  const domains = await rowsIn(page.getByRole('table', { name: 'Custom domains of every site' }));
  await expect(domains.getByRole('row')).not.toHaveCount(1);
  await expect(domains.getByText('Failing re-check').first()).toBeVisible();
  await audit(page, 'custom domains of every site, failing');
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('button', { name: 'Manage Superuser' }).click();
  await expect(nav.getByRole('link', { name: 'Create Superuser' })).toBeVisible();
  await audit(page, 'dashboard, navigation menu open');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'superadmin@example.com' }).click();
  await expect(page.getByRole('menuitem').first()).toBeVisible();
  await audit(page, 'dashboard, user menu open');
  await page.keyboard.press('Escape');
  await page.goto('/manage-superuser/manage-superuser');
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
  await audit(page, 'section with the sidebar collapsed');
  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  await page.goto('/manage-notifications');
  await expect(page.locator('main')).toBeVisible();
  await audit(page, 'notifications');
  // The trail: actions in words, results, the grouped Action filter narrowed by its search.
  await page.goto('/manage-superuser/audit-trail?sort=action');
  await rowsIn(page.getByRole('table', { name: 'Audit trail events' }));
  await page.getByRole('searchbox', { name: 'Search actions' }).fill('sign');
  await audit(page, 'audit trail');
  await page.goto('/manage-notifications/compose');
  await page.getByRole('radio', { name: 'By plan' }).check();
  await page.getByRole('radio', { name: 'At a time' }).check();
  await page.getByLabel('Subject').fill('x'.repeat(151));
  await page.getByLabel('Subject').blur();
  await expect(page.getByText('The subject has at most 150 characters.')).toBeVisible();
  await audit(page, 'notice compose, errors shown');
  await page.goto('/account/change-password');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit(page, 'change password');
  await page
    .getByRole('button', { name: /change password|save/i })
    .first()
    .click();
  await audit(page, 'change password, errors shown');
  await page.goto('/account/security');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign-in security' })).toBeVisible();
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
  await audit(page, 'sign-in security');
  await page.goto('/no/such/screen');
  await expect(page).toHaveURL(/\/dashboard$/);
  await audit(page, 'unknown path (404 goes to the dashboard)');
  await context.setOffline(true);
  await expect(page.getByRole('heading', { name: 'No internet connection' })).toBeVisible();
  await audit(page, 'offline overlay');
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: 'No internet connection' })).toBeHidden();

  // a screen whose code cannot be fetched: the router's error screen
  await page.route('**/assets/**', (route) => route.abort('internetdisconnected'));
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('button', { name: 'Manage Customer' })
    .click();
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Search Customer' })
    .click();
  await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  await audit(page, 'route error (a screen that could not load)');
});

test('customers: search states, the customer view and its dialogs', async ({ page }) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/search-customer');
  await expect(page.getByRole('button', { name: 'Search' })).toBeVisible();
  await audit(page, 'customer search, empty');
  await page.getByText('More search options').click();
  await audit(page, 'customer search, more options');
  await page.getByLabel('Customer Name', { exact: true }).fill('lovelace');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('table', { name: 'Customers found' })).toBeVisible();
  await audit(page, 'customer search, with results');
  await page.getByLabel('Email Address', { exact: true }).fill('nobody@nowhere.example');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(
    page.getByText('Not Found, Please try again with some other information!').first(),
  ).toBeVisible();
  await audit(page, 'customer search, no results');

  await page.goto(`/manage-customer/view-customer?uid=${ADA.uid}`);
  await expect(page.getByRole('table', { name: 'Owned sites' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Activity logs' })).toBeVisible();
  await audit(page, 'customer view');
  await page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('button', { name: 'Details' })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await audit(page, 'site details dialog');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Edit Profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Edit Profile' });
  await profile.getByLabel('Phone Number (Optional)').fill('12ab');
  await profile.getByLabel('Email', { exact: true }).fill('not-an-email');
  await profile.getByLabel('Email', { exact: true }).blur();
  // the sign-in email follows the email: both say so
  await expect(profile.getByText('Email is invalid.')).toHaveCount(2);
  await audit(page, 'edit profile dialog, errors shown');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Reset Password' }).click();
  const reset = page.getByRole('dialog', { name: 'Reset Password' });
  await reset.getByLabel('New password').fill('short');
  await reset.getByLabel('New password').blur();
  await expect(reset.getByText(/Password field must be minimum/)).toBeVisible();
  await audit(page, 'reset customer password dialog, errors shown');
  await reset.getByRole('button', { name: 'Generate' }).click();
  await audit(page, 'reset customer password dialog, generated');
  await page.keyboard.press('Escape');

  await page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('button', { name: 'Deactivate' })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await audit(page, 'deactivate site confirm dialog');
  await page.keyboard.press('Escape');
});

test('the create-customer wizard, each step with its errors, the secret, and the success toast', async ({
  page,
}) => {
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/create-customer');
  await expect(page.getByRole('button', { name: 'Next' })).toBeVisible();
  await audit(page, 'wizard step 1');
  await page.getByLabel('Phone Number (Optional)').fill('12345abcde');
  await page.getByLabel('Phone Number (Optional)').blur();
  await expect(page.getByText('Phone Number must be a number.')).toBeVisible();
  await audit(page, 'wizard step 1, errors shown');
  await page.getByLabel('Phone Number (Optional)').fill('5551234567');
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Email', { exact: true }).fill('grace@a11y.example');
  await page.getByLabel('Site name').fill('cobol-a11y');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('textbox', { name: 'API Secret' })).toBeVisible();
  await audit(page, 'wizard, the API secret');
  await page.getByRole('button', { name: 'I have copied the secret' }).click();
  await expect(page.getByRole('heading', { name: 'Additional Site Information', level: 2 })).toBeVisible();
  await audit(page, 'wizard step 2');
  // a trial needs a plan that has one (Free has none)
  await page.getByLabel('Plan', { exact: true }).selectOption('Developer');
  await page.getByLabel('Trial days').fill('-4');
  await page.getByLabel('Production URL (Optional)').fill('not a url');
  await page.getByLabel('Production URL (Optional)').blur();
  await audit(page, 'wizard step 2, errors shown');
  await page.getByLabel('Trial days').fill('30');
  await page.getByLabel('Production URL (Optional)').fill('https://cobol.example.com');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Set Features', level: 2 })).toBeVisible();
  await audit(page, 'wizard step 3');
  await page
    .getByRole('radiogroup', { name: 'Features' })
    .getByRole('radio', { name: 'Developer', exact: true })
    .check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Set Data Center & DB', level: 2 })).toBeVisible();
  await audit(page, 'wizard step 4');
  const dc = page.getByRole('radiogroup', { name: 'Data center and database' });
  await dc.getByRole('radio', { name: 'Use a custom database' }).check();
  await page.getByLabel('Database name', { exact: true }).fill('');
  await page.getByLabel('Database name', { exact: true }).blur();
  await expect(page.getByText('Database name is required.')).toBeVisible();
  await audit(page, 'wizard step 4, errors shown');
  await page.getByLabel('Data center', { exact: true }).selectOption('eu-west');
  await page.getByLabel('Database name', { exact: true }).fill('cobol_db');
  await page.getByLabel('Connection string').fill('postgres://g:Pass-9@db.cobol.example:5432/cobol');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Data center updated.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  await audit(page, 'customer view, success toast');
});

test('the team: list, dialogs, create with errors, roles, permissions, profile', async ({
  page,
  request,
}) => {
  const staff = await createStaff(request, { email: 'a11y-staff@example.com', roles: ['Support'] });
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/manage-superuser');
  const table = page.getByRole('table', { name: 'Super users' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  // A skeleton row shows too, without buttons: the rows, once in.
  await rowsIn(table);
  await audit(page, 'team list');
  const row = table.getByRole('row').nth(1);
  const rowButtons = row.getByRole('button');
  if ((await rowButtons.count()) > 0) {
    await rowButtons.first().click();
    if (await page.getByRole('dialog').isVisible()) {
      await audit(page, 'team list, first row action dialog');
      await page.keyboard.press('Escape');
    } else if (await page.getByRole('menu').first().isVisible()) {
      await audit(page, 'team list, row menu open');
      await page.keyboard.press('Escape');
    }
  }
  await table.getByRole('button', { name: 'Delete' }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await audit(page, 'team list, delete confirm dialog');
  await page.keyboard.press('Escape');
  await page.goto('/manage-superuser/create-superuser');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit(page, 'create team member');
  const email = page.getByLabel('Email', { exact: true });
  await email.fill('not-an-email');
  await email.blur();
  await expect(page.getByText('Email is invalid.')).toBeVisible();
  await audit(page, 'create team member, errors shown');
  await page.goto('/manage-superuser/roles');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit(page, 'roles');
  await page.goto('/manage-superuser/permissions');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit(page, 'permissions');
  await page.goto(`/manage-superuser/profile/${staff.uid}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await audit(page, 'staff profile');
  for (const name of ['Change Roles', 'Delete']) {
    const b = page.getByRole('button', { name, exact: true });
    if ((await b.count()) === 0) continue;
    await b.first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await audit(page, `staff profile, ${name} dialog`);
    await page.keyboard.press('Escape');
  }
});

test('impersonation: request form, lists, request/approve/reject/revoke dialogs, owner pages, the mode', async ({
  page,
  request,
  browser,
}) => {
  const agent = await createStaff(request, { email: 'a11y-agent@example.com', roles: ['Admin'] });
  const agentHeaders = await apiSignIn(request, agent.email, agent.password);
  // a site of this test's own: its grants do not meet other tests' requests
  const owned = await createSiteOwner(request, { email: 'a11y-owner@example.com', appname: 'a11y-site' });
  const appId = owned.appId;

  await signIn(page, agent.email, agent.password);
  await page.goto(`/manage-customer/impersonate?uid=${owned.uid}&appId=${appId}`);
  await expect(page.getByRole('button', { name: 'Request impersonation' })).toBeVisible();
  await audit(page, 'impersonate: request form');
  await page.getByRole('button', { name: 'Request impersonation' }).click();
  await audit(page, 'impersonate: request form, errors shown');

  // two requests, both consented by the owner through the API: one approved, one rejected in the UI
  const ids: number[] = [];
  let consentPath = '';
  let accessPath = '';
  for (const [description, role] of [
    ['Check the login flow', 'Developer'],
    ['Look at the settings', 'Support'],
  ] as const) {
    const since = Date.now() - 1;
    const created = await request.post('/admin/impersonation/requests', {
      headers: agentHeaders,
      data: {
        data: {
          AppId: appId,
          Priority: 'High',
          Description: description,
          ReasonCode: 'support-ticket',
          Assignees: ['superadmin@example.com'],
          ProxyRoles: [role],
          AdditionalPermissions: ['ManageSettings'],
          Duration: 45,
        },
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    ids.push(((await created.json()) as { Data: { Id: number } }).Data.Id);
    // the mail of this request: the one before may have come in the millisecond `since` names
    const [consent, access] = await waitForLinks(owned.email, since, 10_000, `(request ${ids.at(-1)})`);
    const c = new URL(consent!);
    const a = new URL(access!);
    if (!consentPath) {
      consentPath = c.pathname + c.search;
      accessPath = a.pathname + a.search;
    } else {
      await request.post('/admin/impersonation/consent', {
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
        data: { token: c.searchParams.get('token'), granted: true },
      });
    }
  }
  // AxeBuilder needs a page of a context it can reach: a fresh context for the owner
  const ownerContext = await browser.newContext({ baseURL: new URL(page.url()).origin });
  // the requester's own pending request: its edit and delete views
  await page.goto('/manage-superuser/impersonation/assigned-requests');
  await page.getByRole('button', { name: `View request ${ids[1]}` }).click();
  const own = page.getByRole('dialog', { name: `Impersonation request ${ids[1]}` });
  await own.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('dialog', { name: `Edit request ${ids[1]}` })).toBeVisible();
  await audit(page, 'request dialog: edit view');
  await page.getByRole('button', { name: 'Back' }).click();
  await own.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog', { name: `Delete request ${ids[1]}` })).toBeVisible();
  await audit(page, 'request dialog: delete view');
  await page.keyboard.press('Escape');

  const owner = await ownerContext.newPage();
  await owner.goto(consentPath);
  await expect(owner.getByRole('button', { name: 'Allow' })).toBeVisible();
  await audit(owner, 'consent page');
  await owner.getByRole('button', { name: 'Allow' }).click();
  await expect(owner.getByRole('heading', { name: 'Your answer is recorded' })).toBeVisible();
  await audit(owner, 'consent page, answered');
  await owner.goto(accessPath);
  await expect(owner.getByRole('table', { name: 'Access requests' })).toBeVisible();
  await audit(owner, 'site-access page');
  await ownerContext.close();

  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/impersonation/assigned-requests');
  await expect(page.getByRole('button', { name: `View request ${ids[0]}` })).toBeVisible();
  await audit(page, 'assigned requests tab');
  await page.getByRole('button', { name: `View request ${ids[0]}` }).click();
  const dialog = page.getByRole('dialog', { name: `Impersonation request ${ids[0]}` });
  await expect(dialog).toBeVisible();
  await audit(page, 'request dialog');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('dialog', { name: `Reject request ${ids[0]}` })).toBeVisible();
  await audit(page, 'reject dialog');
  await page
    .getByRole('dialog', { name: `Reject request ${ids[0]}` })
    .getByRole('button', { name: 'Reject' })
    .click();
  // after its answer, not while it is sent
  await expect(
    page.getByRole('status').filter({ hasText: `Request ${ids[0]} for a11y-site has been rejected.` }),
  ).toBeVisible();
  await audit(page, 'reject dialog, after submit');
  await page.keyboard.press('Escape');

  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Pending');
  await page.getByRole('button', { name: `View request ${ids[1]}` }).click();
  await page
    .getByRole('dialog', { name: `Impersonation request ${ids[1]}` })
    .getByRole('button', { name: 'Approve' })
    .click();
  const approve = page.getByRole('dialog', { name: `Approve request ${ids[1]}` });
  await expect(approve).toBeVisible();
  await audit(page, 'approve dialog');
  await approve.getByLabel('Duration (minutes)').fill('0');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve.getByText(/Please select a duration/)).toBeVisible();
  await audit(page, 'approve dialog, errors shown');
  const picker = approve.locator('button[aria-haspopup="dialog"]');
  if ((await picker.count()) > 0) {
    await picker.first().click();
    await audit(page, 'approve dialog, time picker open');
    await page.keyboard.press('Escape');
  }
  await approve.getByLabel('Duration (minutes)').fill('30');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Request ${ids[1]}` })).toBeVisible();
  await audit(page, 'assigned requests, approved toast');

  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Approved');
  await page.getByRole('button', { name: `View request ${ids[1]}` }).click();
  await page
    .getByRole('dialog', { name: `Impersonation request ${ids[1]}` })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByRole('dialog', { name: `Revoke request ${ids[1]}` })).toBeVisible();
  await audit(page, 'revoke dialog');
  await page
    .getByRole('dialog', { name: `Revoke request ${ids[1]}` })
    .getByRole('radio', { name: 'Revoke only some roles' })
    .check();
  await audit(page, 'revoke dialog, some roles');
  await page.keyboard.press('Escape');

  await page.goto('/manage-superuser/impersonation/logs');
  const logs = await rowsIn(page.getByRole('table', { name: 'Impersonation log entries' }));
  await audit(page, 'impersonation logs tab');
  // An entry's View (the table's first buttons sort its columns); this test's steps are logged.
  await logs
    .getByRole('button', { name: /^View log entry/ })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await audit(page, 'impersonation log entry dialog');
  await page.keyboard.press('Escape');

  // impersonation mode, as the agent with the approved grant
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, agent.email, agent.password);
  await page.goto(`/manage-customer/view-customer?uid=${owned.uid}`);
  await page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('link', { name: 'Impersonate' })
    .first()
    .click();
  await expect(page.getByRole('button', { name: 'Start impersonation' })).toBeVisible();
  await audit(page, 'impersonate: grant panel');
  await page.getByRole('button', { name: 'Start impersonation' }).click();
  await expect(page.getByRole('region', { name: 'Impersonation' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Overview' })).toBeVisible();
  await audit(page, 'impersonation mode, overview (status change refused, with the reason)');
  await page.getByRole('tab', { name: 'Web apps' }).click();
  await expect(page.getByLabel('Staging URL (Optional)')).toBeVisible();
  await audit(page, 'impersonation mode, web apps');
  await page.getByRole('tab', { name: 'Custom Object' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Custom Object' })).toBeVisible();
  await audit(page, 'impersonation mode, custom objects');
});

test('site configuration: every tab', async ({ page, request }) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const appId = await appIdOf(request, headers, ADA.uid, 'analytical-engine');
  await signIn(page, 'superadmin@example.com');
  await page.goto(`/manage-customer/site-configuration?uid=${ADA.uid}&appId=${appId}`);
  const tabs = page.getByRole('tablist', { name: 'Configuration sections' }).getByRole('tab');
  await expect(tabs.first()).toBeVisible();
  const names = await tabs.allTextContents();
  for (const name of names) {
    await page.getByRole('tablist', { name: 'Configuration sections' }).getByRole('tab', { name }).click();
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await expect(page.getByRole('tabpanel').getByText(/Loading/)).toHaveCount(0);
    await audit(page, `site configuration: ${name}`);
    const time = page.getByRole('tabpanel').getByRole('button', { name: /^Daily security report time/ });
    if ((await time.count()) > 0) {
      await time.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await audit(page, `site configuration: ${name}, time picker`);
      await page.keyboard.press('Escape');
    }
    // open the first dialog-opening button of the tab, if it has one
    const add = page.getByRole('tabpanel').getByRole('button', { name: /^(Add|Edit)/ });
    if ((await add.count()) > 0 && (await add.first().isEnabled())) {
      await add.first().click();
      if (await page.getByRole('dialog').isVisible()) {
        await audit(page, `site configuration: ${name}, dialog`);
        await page.keyboard.press('Escape');
      } else {
        await audit(page, `site configuration: ${name}, form open`);
      }
    }
  }
});
