import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { BASE_URL, MAIL_DIR } from './support/env.ts';
import { rowsIn } from './support/loading.ts';
import { waitForLink, waitForLinks } from './support/mail.ts';
import { signIn } from './support/sign-in.ts';
import { showRow } from './support/team-list.ts';

/**
 * Script payloads typed into every field the console shows back. Where the value is stored, each
 * place that shows it is visited and must show it as text; where the field refuses it, the error
 * message must not run it either. Throughout, window.__xss stays undefined, no dialog opens and no
 * element of a payload exists in the page. The run's CSP check (support/csp-teardown.ts) would
 * also catch an inline handler that the policy blocked.
 */

const IMG = '<img src=x onerror=window.__xss=1>';
const SCRIPT = '<script>window.__xss=1</script>';
const SVG = '"><svg onload=window.__xss=1>';
const JS_URL = 'javascript:window.__xss=1';
const IFRAME = "<iframe srcdoc='<script>parent.__xss=1</script>'></iframe>";

/** Names short enough for every name field, each starting with a word to find it by. */
const FIRST = `Xfirst${IMG}`;
const LAST = `Xlast${SVG}`;
const ORG = `Xorg${SCRIPT}`;
const STAFF_NAME = `Xstaff${IMG}`;
const DESCRIPTION = `Xwhy${SCRIPT}${SVG}`;
const COMMENT = `Xcomment${IMG}${IFRAME}`;

const CUSTOMER_EMAIL = 'xss.customer@xss.example';
const STAFF_EMAIL = 'xss.staff@example.com';
const STAFF_PASSWORD = 'Xss#Pass12';

/** Fields typed into, and places visited: the report's counts. */
const typed = new Set<string>();
const visited = new Set<string>();

const dialogs: string[] = [];
function watch(page: Page): void {
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss();
  });
}

/** Nothing of any payload ran or became markup on this page. */
async function inert(page: Page, where: string): Promise<void> {
  visited.add(where);
  const state = await page.evaluate(() => ({
    xss: (window as { __xss?: unknown }).__xss,
    injected: document.querySelectorAll(
      'img[src="x"], svg[onload], [onerror], [onload], iframe[srcdoc], script:not([src]), a[href^="javascript:" i]',
    ).length,
    title: document.title,
  }));
  expect(state.xss, `${where}: window.__xss`).toBeUndefined();
  expect(state.injected, `${where}: payload elements in the DOM`).toBe(0);
  expect(state.title, `${where}: document title`).not.toMatch(/<(img|script|svg|iframe)/i);
  expect(dialogs, `${where}: dialogs`).toEqual([]);
}

/** Fills a field with a payload and records it as checked. */
async function type(field: Locator, value: string, name: string): Promise<void> {
  typed.add(name);
  await field.fill(value);
}

/** The text shows exactly, as text. */
async function shows(scope: Page | Locator, text: string): Promise<void> {
  await expect(scope.getByText(text, { exact: false }).first()).toBeVisible();
}

let customerUid = '';
let appId = 0;
let requestId = 0;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test('customer fields: the wizard, its refusals, the view, search and Edit Profile', async ({ page }) => {
  watch(page);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/create-customer');

  // fields that refuse a payload: the error message must not run it
  await type(page.getByLabel('Email', { exact: true }), `${SVG}@x.example`, 'customer email');
  await page.getByLabel('Email', { exact: true }).blur();
  await expect(page.getByText('Email is invalid.')).toBeVisible();
  await type(page.getByLabel('Phone Number (Optional)'), IMG, 'customer phone');
  await page.getByLabel('Phone Number (Optional)').blur();
  await expect(page.getByText('Phone Number must be a number.')).toBeVisible();
  await type(page.getByLabel('Site name'), IMG, 'site name');
  await page.getByLabel('Site name').blur();
  await expect(page.getByText(/Site name must be 3 to 63/).first()).toBeVisible();
  await inert(page, 'create customer: refused email, phone and site name');

  await page.getByLabel('Phone Number (Optional)').fill('');
  await type(page.getByLabel('First name'), FIRST, 'customer first name');
  await type(page.getByLabel('Last name'), LAST, 'customer last name');
  await type(page.getByLabel('Organization (Optional)'), ORG, 'customer organization');
  await page.getByLabel('Email', { exact: true }).fill(CUSTOMER_EMAIL);
  await page.getByLabel('Site name').fill('xss-site');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'I have copied the secret' }).click();
  await inert(page, 'create customer: API secret step');

  // step 2: URLs, where a link could be built from the value
  await type(page.getByLabel('Production URL (Optional)'), JS_URL, 'site production URL');
  await page.getByLabel('Production URL (Optional)').blur();
  await type(page.getByLabel('Staging URL (Optional)'), `https://x.example/${SVG}`, 'site staging URL');
  await page.getByLabel('Staging URL (Optional)').blur();
  await expect(page.getByText('Please enter a valid URL.').first()).toBeVisible();
  await inert(page, 'site basic settings: refused URLs');
  await page.getByLabel('Production URL (Optional)').fill('https://xss.example');
  await page.getByLabel('Staging URL (Optional)').fill('');
  await page.getByLabel('Plan', { exact: true }).selectOption('Developer');
  await page.getByRole('button', { name: 'Next' }).click();
  await page
    .getByRole('radiogroup', { name: 'Features' })
    .getByRole('radio', { name: 'Developer', exact: true })
    .check();
  await page.getByRole('button', { name: 'Next' }).click();
  const dc = page.getByRole('radiogroup', { name: 'Data center and database' });
  await dc.getByRole('radio', { name: 'Use a custom database' }).check();
  await page.getByLabel('Data center', { exact: true }).selectOption('eu-west');
  // a database name is an identifier: a payload is refused, its message inert
  await type(page.getByLabel('Database name', { exact: true }), `xss_db${IMG}`, 'database name');
  await page.getByLabel('Database name', { exact: true }).blur();
  await expect(page.getByText(/Database name may contain only letters/)).toBeVisible();
  await inert(page, 'data center: refused database name');
  await page.getByLabel('Database name', { exact: true }).fill('xss_db');
  await type(
    page.getByLabel('Connection string', { exact: true }),
    `postgres://u:p@db.x.example/${SCRIPT}`,
    'connection string',
  );
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  await shows(page, FIRST);
  await shows(page, LAST);
  await shows(page, ORG);
  await inert(page, 'view customer');
  customerUid = new URL(page.url()).searchParams.get('uid') ?? '';
  expect(customerUid).not.toBe('');

  const owned = page.getByRole('table', { name: 'Owned sites' });
  await owned.getByRole('button', { name: 'Details' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Site details: xss-site' })).toBeVisible();
  await inert(page, 'site details dialog');
  await page.keyboard.press('Escape');

  // search: the box itself, and the results that show the names
  for (const [label, term, name] of [
    ['Customer Name', '<img src=x onerror', 'search by customer name'],
    ['Email Address', SVG, 'search by email'],
    ['Site Name', IMG, 'search by site name'],
    ['API Key', SCRIPT, 'search by API key'],
  ] as const) {
    await page.goto('/manage-customer/search-customer');
    await type(page.getByLabel(label, { exact: true }), term, name);
    await page.getByRole('button', { name: 'Search' }).click();
    // the search's answer (rows, none, or Not Found), not the screen before it
    await rowsIn(page.getByRole('table', { name: 'Customers found' }));
    await inert(page, `search results: ${name}`);
  }
  await page.goto('/manage-customer/search-customer');
  await page.getByLabel('Customer Name', { exact: true }).fill('Xfirst');
  await page.getByRole('button', { name: 'Search' }).click();
  const results = page.getByRole('table', { name: 'Customers found' });
  await shows(results, 'Xfirst<img src=x');
  await inert(page, 'search results table');
  // a payload in the URL of the search screen
  await page.goto(`/manage-customer/search-customer?customerName=${encodeURIComponent(IMG)}`);
  await rowsIn(page.getByRole('table', { name: 'Customers found' }));
  await inert(page, 'search with a payload in the URL');

  // Edit Profile: every text field, then the toast and the view
  await page.goto(`/manage-customer/view-customer?uid=${customerUid}`);
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Edit Profile' });
  await expect(profile.getByLabel('First name')).toHaveValue(FIRST);
  await inert(page, 'edit profile dialog, filled with the stored payloads');
  await type(profile.getByLabel('Email', { exact: true }), IMG, 'profile email');
  await type(profile.getByLabel('Contact Email (Optional)'), `${SCRIPT}@x.example`, 'profile contact email');
  await profile.getByLabel('Contact Email (Optional)').blur();
  await expect(profile.getByText('Email is invalid.').first()).toBeVisible();
  await inert(page, 'edit profile: refused emails');
  await profile.getByLabel('Email', { exact: true }).fill(CUSTOMER_EMAIL);
  await profile.getByLabel('Contact Email (Optional)').fill('');
  await type(profile.getByLabel('First name'), `${FIRST}2`, 'profile first name');
  await type(profile.getByLabel('Organization (Optional)'), `${ORG}${IFRAME}`, 'profile organization');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Customer profile updated.' })).toBeVisible();
  await shows(page, `${FIRST}2`);
  await shows(page, IFRAME);
  await inert(page, 'view customer after Edit Profile, toast');
  await expect(page.getByRole('table', { name: 'Activity logs' })).toBeVisible();
  await inert(page, 'activity logs');
});

test('team: a super user named with a payload, the list, its dialogs, the invitation', async ({ page }) => {
  watch(page);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/create-superuser');
  const email = page.getByLabel('Email', { exact: true });
  await type(email, `${IMG}@example.com`, 'super user email');
  await email.blur();
  await expect(page.getByText('Email is invalid.')).toBeVisible();
  await inert(page, 'create super user: refused email');
  await type(page.getByLabel('Name (Optional)'), STAFF_NAME, 'super user name');
  await email.fill(STAFF_EMAIL);
  await page.getByRole('group', { name: 'Roles' }).getByRole('checkbox', { name: 'Admin' }).check();
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Super User Created Successfully' })).toBeVisible();
  await inert(page, 'create super user: toast');

  await page.goto('/manage-superuser');
  const row = await showRow(page, STAFF_EMAIL);
  await shows(row, STAFF_NAME);
  await inert(page, 'super users list');
  await row.getByRole('button', { name: 'Change Roles' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await inert(page, 'change roles dialog');
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await inert(page, 'delete super user dialog');
  await page.keyboard.press('Escape');

  // the invitation: set the password, sign in; the name shows in the shell
  const link = new URL(await waitForLink(STAFF_EMAIL, since));
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(link.pathname + link.search);
  await page.getByLabel('Password', { exact: true }).fill(STAFF_PASSWORD);
  await page.getByLabel('Confirm Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been set' })).toBeVisible();
  await signIn(page, STAFF_EMAIL, STAFF_PASSWORD);
  await inert(page, 'dashboard of the payload-named user');
  await page.locator('.user-menu').getByText(STAFF_EMAIL).click();
  await shows(page.locator('.user-menu'), STAFF_NAME);
  await inert(page, 'user menu with the payload name');
  await page.keyboard.press('Escape');
  await page.goto('/account/change-password');
  await inert(page, 'account page of the payload-named user');
});

test('impersonation: description, requester name, consent page, dialogs, comments, logs', async ({
  page,
  browser,
}) => {
  watch(page);
  await signIn(page, STAFF_EMAIL, STAFF_PASSWORD);
  const headers = {
    'X-Requested-With': 'XMLHttpRequest',
    xtoken: (await page.evaluate(() => localStorage.getItem('lr-admin-token'))) ?? '',
    xsign: (await page.evaluate(() => localStorage.getItem('lr-admin-sign'))) ?? '',
  };
  const apps = await page.request.get(`/admin/apps?uid=${customerUid}`, { headers });
  appId = ((await apps.json()) as { Data: Array<{ appId: number; AppName: string }> }).Data.find(
    (s) => s.AppName === 'xss-site',
  )!.appId;

  await page.goto(`/manage-customer/impersonate?uid=${customerUid}&appId=${appId}`);
  // the form, once the site it names has loaded
  await expect(page.getByRole('heading', { level: 1, name: 'Request impersonation' })).toBeVisible();
  await expect(page.getByText(/xss-site/).first()).toBeVisible();
  await inert(page, 'request impersonation page (customer name shown)');
  await page.getByLabel('Priority').selectOption('High');
  await page.getByLabel('Reason').selectOption('support-ticket');
  await type(page.getByLabel('Case or ticket (Optional)'), `C${SCRIPT}`.slice(0, 100), 'impersonation case');
  await type(page.getByLabel('Description'), DESCRIPTION, 'impersonation description');
  await page
    .getByRole('group', { name: 'Assignees' })
    .getByRole('checkbox', { name: /superadmin@example.com/ })
    .check();
  await page.getByRole('group', { name: 'Roles' }).getByRole('checkbox').first().check();
  await page.getByLabel('Duration (minutes)').fill('30');
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Request impersonation' }).click();
  const created = page.getByRole('status').filter({ hasText: 'has been created' });
  await expect(created).toBeVisible();
  requestId = Number(/request (\d+)/.exec((await created.textContent()) ?? '')![1]);
  await inert(page, 'request impersonation: toast');

  // the owner's consent page and site access page, from the mail
  const [consentLink, accessLink] = await waitForLinks(CUSTOMER_EMAIL, since);
  const owner = await browser.newPage({ baseURL: BASE_URL });
  watch(owner);
  const consent = new URL(consentLink!);
  await owner.goto(consent.pathname + consent.search);
  await shows(owner, DESCRIPTION);
  await inert(owner, 'consent page');
  await owner.getByRole('button', { name: 'Allow' }).click();
  await expect(owner.getByRole('heading', { name: 'Your answer is recorded' })).toBeVisible();
  const access = new URL(accessLink!);
  await owner.goto(access.pathname + access.search);
  await expect(owner.getByRole('table', { name: 'Access requests' })).toContainText('Xwhy');
  await inert(owner, 'site access page');
  // payloads in the query of the public pages
  await owner.goto(`/impersonation/consent?token=${encodeURIComponent(SVG)}`);
  await expect(owner.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await inert(owner, 'consent page with a payload token');
  await owner.close();

  // the requester's list (the requests they made or are assigned), once the request is in it
  await page.goto('/manage-superuser/impersonation/assigned-requests');
  await expect(page.getByRole('button', { name: `View request ${requestId}` })).toBeVisible();
  await inert(page, 'my requests list');

  // the assignee: the list, the request dialog, reject with a payload comment
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/impersonation/assigned-requests');
  await page.getByRole('button', { name: `View request ${requestId}` }).click();
  const dialog = page.getByRole('dialog', { name: `Impersonation request ${requestId}` });
  await shows(dialog, DESCRIPTION);
  await inert(page, 'request dialog');
  await dialog.getByRole('button', { name: 'Reject' }).click();
  const reject = page.getByRole('dialog', { name: `Reject request ${requestId}` });
  await inert(page, 'reject dialog');
  await type(reject.getByLabel('Comments (Optional)'), COMMENT, 'reject comments');
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `${requestId}` })
      .first(),
  ).toBeVisible();
  await inert(page, 'reject toast');

  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Rejected');
  await page.getByRole('button', { name: `View request ${requestId}` }).click();
  await shows(page.getByRole('dialog', { name: `Impersonation request ${requestId}` }), COMMENT);
  await inert(page, 'rejected request dialog with the comment');
  await page.keyboard.press('Escape');

  await page.goto('/manage-superuser/impersonation/logs');
  const logs = page.getByRole('table', { name: 'Impersonation log entries' });
  await expect(logs.getByRole('row').nth(1)).toBeVisible();
  await logs
    .getByRole('button', { name: /View log entry/ })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await inert(page, 'log entry dialog');
  await page.keyboard.press('Escape');
  await page.goto('/manage-notifications');
  await rowsIn(page.getByRole('table', { name: 'Customer notices' }));
  await inert(page, 'notifications');
});

test('site configuration: custom objects, schema texts, registration fields, data sources, domains', async ({
  page,
}) => {
  watch(page);
  await signIn(page, 'superadmin@example.com');
  await page.goto(`/manage-customer/view-customer?uid=${customerUid}`);
  await page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('link', { name: 'Configuration' })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Site Configuration', level: 1 })).toBeVisible();
  const tab = (name: string) =>
    page.getByRole('tablist', { name: 'Configuration sections' }).getByRole('tab', { name }).click();

  await tab('Web apps');
  await type(page.getByLabel('Production URL (Optional)'), JS_URL, 'web apps production URL');
  await type(page.getByLabel('Staging URL (Optional)'), `data:text/html,${SCRIPT}`, 'web apps staging URL');
  await page.getByLabel('Production URL (Optional)').blur();
  await expect(page.getByText('Please enter a valid URL.').first()).toBeVisible();
  await inert(page, 'web apps: refused URLs');

  // another tab would drop what was typed: the console asks first
  await tab('Custom Object');
  await page
    .getByRole('dialog', { name: 'Leave without saving?' })
    .getByRole('button', { name: 'Leave' })
    .click();
  const form = page.getByRole('form', { name: 'Add custom object' });
  await type(form.getByLabel('Id'), IMG, 'custom object id');
  await form.getByRole('button', { name: 'Add custom object' }).click();
  await expect(
    form.getByText('Id can only contain alphanumeric characters, underscores and dashes'),
  ).toBeVisible();
  await inert(page, 'custom object: refused id');
  await form.getByLabel('Id').fill('xss_object');
  await type(form.getByLabel('Name'), `Xobj${IMG}`, 'custom object name');
  await form.getByLabel('Size (in MB)').fill('5');
  const schema = {
    type: 'object',
    description: IMG,
    title: SCRIPT,
    properties: {
      p: { type: 'string', description: SVG, pattern: `^${IMG}$` },
      e: { enum: [SCRIPT, IMG] },
    },
    required: ['p'],
  };
  await type(
    form.getByLabel('Schema'),
    JSON.stringify(schema),
    'custom object schema (descriptions, pattern, enum)',
  );
  await type(form.getByLabel('Sample (JSON)'), JSON.stringify({ p: SVG, e: IFRAME }), 'custom object sample');
  await form.getByRole('button', { name: 'Validate sample' }).click();
  await expect(form.getByRole('list', { name: 'Validation errors' })).toContainText('/p');
  await inert(page, 'custom object: validation errors quoting the schema');
  await form.getByRole('button', { name: 'Add custom object' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Custom object saved.' })).toBeVisible();
  const row = page
    .getByRole('table', { name: 'Custom objects' })
    .getByRole('row')
    .filter({ hasText: 'xss_object' });
  await shows(row, `Xobj${IMG}`);
  await inert(page, 'custom objects table');
  await row.getByRole('button', { name: 'Edit schema' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit schema of xss_object' });
  await expect(edit.getByLabel('Schema')).toHaveValue(/onerror/);
  await inert(page, 'edit schema dialog');
  await type(
    edit.getByLabel('Schema'),
    `{"type":"object","description":${JSON.stringify(SVG)}`,
    'edited schema, broken',
  );
  await edit.getByRole('button', { name: 'Save' }).click();
  await inert(page, 'edit schema: refused JSON');
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('dialog', { name: 'Remove custom object xss_object?' })).toBeVisible();
  await inert(page, 'remove custom object dialog');
  await page.keyboard.press('Escape');

  await tab('Data Source');
  await type(page.getByLabel('Data source name'), IMG, 'data source name');
  await type(page.getByLabel('Value of item 1'), SVG, 'data source item value');
  await type(page.getByLabel('Text of item 1'), `Xitem${SCRIPT}`, 'data source item text');
  await page.getByRole('button', { name: 'Add data source' }).click();
  await inert(page, 'data source: payload name submitted');
  await type(page.getByLabel('Data source name'), 'xss_source', 'data source name, valid');
  await page.getByRole('button', { name: 'Add data source' }).click();
  await inert(page, 'data source: second submit');
  // the table once it holds the new source, not as it was before the save
  await expect(page.getByRole('status').filter({ hasText: 'Data source added.' })).toBeVisible();
  const sources = page.getByRole('table', { name: 'Data sources' });
  await expect(sources).toContainText('xss_source');
  await inert(page, 'data sources table');

  await tab('Registration Fields');
  await type(page.getByLabel('Custom field name'), IMG, 'registration field name');
  await type(page.getByLabel('Display name'), `Xdisplay${SVG}`, 'registration display name');
  await page.getByRole('button', { name: 'Add custom field' }).click();
  await expect(page.getByText(/Custom field name is invalid/).first()).toBeVisible();
  await inert(page, 'registration field: refused name');
  await page.getByLabel('Custom field name').fill('xss_field');
  await type(
    page.getByLabel('Rules (Optional)'),
    `required|${IMG}|min_length[${SCRIPT}]`,
    'registration field rules',
  );
  await page.getByRole('button', { name: 'Add custom field' }).click();
  await inert(page, 'registration field: refused rules');
  await page.getByLabel('Rules (Optional)').fill('required');
  await page.getByRole('button', { name: 'Add custom field' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Custom field saved.' })).toBeVisible();
  await shows(page.getByRole('table', { name: 'Registration fields' }), `Xdisplay${SVG}`);
  await inert(page, 'registration fields table');

  await tab('Custom Domain');
  const domainForm = page.getByRole('form', { name: 'Add custom domain' });
  for (const [value, name] of [
    [IMG, 'custom domain (tag)'],
    [`${JS_URL}.example`, 'custom domain (javascript: URL)'],
    [`x.example/${SVG}`, 'custom domain (quote breaking)'],
  ] as const) {
    await type(domainForm.getByLabel('Domain name'), value, name);
    await domainForm.getByRole('button', { name: 'Add custom domain' }).click();
    await inert(page, `custom domain refused: ${name}`);
  }
  await expect(page.getByRole('alert').or(domainForm.locator('.field [id$="-error"]')).first()).toBeVisible();

  await tab('Integrations');
  await page
    .getByRole('dialog', { name: 'Leave without saving?' })
    .getByRole('button', { name: 'Leave' })
    .click();
  await expect(page.getByRole('table', { name: 'Integrations' })).toBeVisible();
  await inert(page, 'integrations');
});

test('sign-in screens and the API reference: payloads in fields and URLs', async ({ page }) => {
  watch(page);
  await page.goto('/login');
  await type(page.getByLabel('Email'), `${IMG}@x.example`, 'sign-in email');
  await type(page.getByLabel('Password', { exact: true }), SCRIPT, 'sign-in password');
  await page.getByRole('button', { name: 'Login' }).click();
  await inert(page, 'sign-in: refused email');
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await inert(page, 'sign-in: wrong password message');
  // each screen once the console has drawn it (the body shows before it does)
  await page.goto(`/login?vtype=reset&vtoken=${encodeURIComponent(SVG)}`);
  await expect(page.getByLabel('Confirm Password')).toBeVisible();
  await inert(page, 'reset screen with a payload token');
  await page.goto(`/forgotpassword#${encodeURIComponent(IMG)}`);
  await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
  await inert(page, 'forgot password with a payload fragment');
  await page.goto(`/no/such/${encodeURIComponent(IMG)}`);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await inert(page, 'unknown path holding a payload');

  // the server-rendered API reference: only its search script, from a file, and nothing reflected
  // from the URL; the search box shows no operation for a payload and runs none of it
  const docs = await page.request.get(`/docs?q=${encodeURIComponent(IMG)}`);
  const html = await docs.text();
  expect(html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi)).toEqual([
    '<script src="/docs/docs.js" defer></script>',
  ]);
  expect(html).not.toMatch(/onerror=|onload=|javascript:/i);
  expect(html).not.toContain(IMG);
  await page.goto(`/docs?q=${encodeURIComponent(SCRIPT)}#${encodeURIComponent(IMG)}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await inert(page, 'API reference');
  await type(page.getByRole('searchbox', { name: 'Search operations' }), IMG, 'API reference search');
  await expect(page.getByText('No operation matches.')).toBeVisible();
  await inert(page, 'API reference search');
  // an unknown API path echoes nothing of the request into HTML
  const notFound = await page.request.get(`/admin/${encodeURIComponent(IMG)}`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect(notFound.headers()['content-type']).toContain('application/json');
  expect(await notFound.text()).not.toContain('<img');
});

test('mails sent while payloads were stored carry them as text, escaped in any HTML part', async () => {
  const mails = fs
    .readdirSync(MAIL_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(MAIL_DIR, f), 'utf8')) as { to: string[]; raw: string });
  const ours = mails.filter((m) => m.to.includes(CUSTOMER_EMAIL) || m.to.includes(STAFF_EMAIL));
  expect(ours.length).toBeGreaterThanOrEqual(2);
  const decode = (s: string) =>
    Buffer.from(
      s
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  let htmlParts = 0;
  for (const m of mails) {
    const text = decode(m.raw);
    // every HTML part: no payload markup (a mail client renders it)
    for (const part of text.split(/\r?\n--[^\r\n]+\r?\n/)) {
      if (!/^content-type:\s*text\/html/im.test(part)) continue;
      htmlParts += 1;
      expect(part).not.toMatch(/<(img|script|svg|iframe)\b/i);
      expect(part).not.toMatch(/\son(error|load)=/i);
    }
  }
  // the consent mail quotes the description and the requester's name as plain text
  const consentMail = ours.find((m) => decode(m.raw).includes('Xwhy'));
  expect(consentMail, 'the consent mail').toBeDefined();
  expect(decode(consentMail!.raw)).toMatch(/content-type:\s*text\/plain/i);
  visited.add(`${mails.length} mails (${htmlParts} HTML parts)`);
});

test.afterAll(() => {
  console.log(`xss: ${typed.size} fields typed into, ${visited.size} places checked`);
});
