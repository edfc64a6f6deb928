import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiSignIn, appIdOf, createStaff } from './support/api.ts';
import { ADA } from './support/demo-sites.ts';
import { DEMO_PASSWORD } from './support/env.ts';
import { loaded } from './support/loading.ts';
import { waitForLink } from './support/mail.ts';
import { createSiteOwner } from './support/site-owner.ts';

// The main paths with the keyboard alone: no clicks and no fills. Focus moves with Tab/Shift+Tab
// and arrows, text is typed, Enter/Space act, Escape closes. Where focus lands matters, the
// focused element must show a focus indicator (an outline or a box-shadow).

test.setTimeout(180_000);

const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement, undefined, { timeout: 2_000 }).catch(() => false);

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
// The dashboard's cards hold the demo data's links: from its content back to the skip link is a long way.
async function tabTo(page: Page, target: Locator, { back = false, max = 150 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i <= max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`Tab never reached ${target}; focus is on ${at}`);
}

/** Presses Tab until focus is inside `group` (a radio group's one tab stop: its checked radio). */
async function tabInto(page: Page, group: Locator, max = 60): Promise<void> {
  await expect(group).toBeVisible();
  for (let i = 0; i <= max; i++) {
    if (await group.evaluate((g) => g.contains(document.activeElement))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached into ${group}`);
}

/** The focused element shows a focus indicator: an outline or a box-shadow. */
async function expectFocusRing(target: Locator): Promise<void> {
  await expect(target).toBeFocused();
  const ring = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0;
    return { outline, boxShadow: s.boxShadow !== 'none', style: `${s.outline} | ${s.boxShadow}` };
  });
  expect(ring.outline || ring.boxShadow, `focus indicator of ${target}: ${ring.style}`).toBe(true);
}

/** Tabs to a text field and types into it (after clearing what it holds). */
async function typeInto(page: Page, field: Locator, text: string, opts?: { back?: boolean }): Promise<void> {
  await tabTo(page, field, opts);
  await expectFocusRing(field);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

async function keyboardSignIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeFocused();
  await typeInto(page, page.getByLabel('Email'), email);
  await typeInto(page, page.getByLabel('Password', { exact: true }), password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

test('sign in, then reach a section through the main menu and the skip link', async ({ page }) => {
  await page.goto('/login');
  // the empty form submitted with Enter shows the messages, and the sign-in works after them
  await tabTo(page, page.getByRole('button', { name: 'Login' }));
  await expectFocusRing(page.getByRole('button', { name: 'Login' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Email is required')).toBeVisible();
  await typeInto(page, page.getByLabel('Email'), 'superadmin@example.com', { back: true });
  await typeInto(page, page.getByLabel('Password', { exact: true }), DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);

  // the skip link moves focus to the main region
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await tabTo(page, skip, { back: true });
  await expectFocusRing(skip);
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();

  // the main navigation (disclosure navigation): Enter opens, Tab and arrows move into its links,
  // Escape closes and returns to the button, ArrowDown opens on the first link, Tab out closes it
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const menuButton = nav.getByRole('button', { name: 'Manage Superuser' });
  await tabTo(page, menuButton, { back: true });
  await expectFocusRing(menuButton);
  await page.keyboard.press('Enter');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await expect(menuButton).toBeFocused();
  await page.keyboard.press('Tab');
  const first = nav.getByRole('link', { name: 'Manage Superuser' });
  await expectFocusRing(first);
  await page.keyboard.press('Escape');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await expect(menuButton).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(first).toBeFocused();
  const list = await menuButton.getAttribute('aria-controls');
  const links = await page.locator(`[id="${list}"] a`).count();
  for (let i = 0; i < links; i++) await page.keyboard.press('Tab');
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  await menuButton.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const create = nav.getByRole('link', { name: 'Create Superuser' });
  await expect(create).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/manage-superuser\/create-superuser$/);
  // the new screen: focus is on its content, so Tab goes on from there
  await expect(page.locator('main')).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.locator('main').evaluate((m) => m.contains(document.activeElement))).toBe(true);
});

test('search a customer and open them', async ({ page }) => {
  await keyboardSignIn(page, 'superadmin@example.com');
  const menuButton = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', {
    name: 'Manage Customer',
  });
  await tabTo(page, menuButton);
  await page.keyboard.press('ArrowDown');
  await expect(
    page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Search Customer' }),
  ).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/manage-customer\/search-customer/);

  await typeInto(page, page.getByLabel('Customer Name', { exact: true }), 'lovelace');
  await page.keyboard.press('Enter');
  const results = page.getByRole('table', { name: 'Customers found' });
  const view = results
    .getByRole('row')
    .filter({ hasText: 'Ada Lovelace' })
    .getByRole('link', { name: 'View' });
  await tabTo(page, view);
  await expectFocusRing(view);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`uid=${ADA.uid}`));
  await expect(page.locator('main')).toBeFocused();

  // a dialog of the customer view: focus goes in, stays in, and comes back on Escape
  const details = page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('button', { name: 'Details' })
    .first();
  await tabTo(page, details);
  await expectFocusRing(details);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(details).toBeFocused();
  // and through its Close button, reached with Shift+Tab
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  const close = dialog.getByRole('button', { name: 'Close' });
  await tabTo(page, close, { back: true });
  await expectFocusRing(close);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(details).toBeFocused();
});

test('create a customer through the whole wizard', async ({ page }) => {
  await keyboardSignIn(page, 'superadmin@example.com');
  await page.goto('/manage-customer/create-customer');
  await expect(page.getByRole('heading', { name: 'Basic Info', level: 2 })).toBeVisible();
  await typeInto(page, page.getByLabel('First name'), 'Radia');
  await typeInto(page, page.getByLabel('Last name'), 'Perlman');
  await typeInto(page, page.getByLabel('Email', { exact: true }), 'radia@spanning.example');
  await typeInto(page, page.getByLabel('Phone Number (Optional)'), '5559876543');
  await typeInto(page, page.getByLabel('Site name'), 'spanning-tree');
  await page.keyboard.press('Enter');

  // the secret, once: focus moves to it, and it is acknowledged with the keyboard
  await expect(page.getByRole('heading', { name: 'API secret of spanning-tree' })).toBeFocused();
  const copied = page.getByRole('button', { name: 'I have copied the secret' });
  await tabTo(page, copied);
  await expectFocusRing(copied);
  await page.keyboard.press('Enter');

  // step 2: text fields, a select by typing, Enter submits
  // focus moves to the new step's heading: the next Tab is its first field
  await expect(page.getByRole('heading', { name: 'Additional Site Information', level: 2 })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Production URL (Optional)')).toBeFocused();
  await typeInto(page, page.getByLabel('Production URL (Optional)'), 'https://spanning.example.com');
  const plan = page.getByLabel('Plan', { exact: true });
  await tabTo(page, plan);
  await expectFocusRing(plan);
  await page.keyboard.type('Developer');
  await expect(plan).toHaveValue('Developer');
  await typeInto(page, page.getByLabel('Trial days'), '14');
  await page.keyboard.press('Enter');

  // step 3: a radio group, moved with the arrows
  await expect(page.getByRole('heading', { name: 'Set Features', level: 2 })).toBeFocused();
  const features = page.getByRole('radiogroup', { name: 'Features' });
  await tabInto(page, features);
  await expectFocusRing(page.locator(':focus'));
  for (
    let i = 0;
    i < 6 && !(await features.getByRole('radio', { name: 'Developer', exact: true }).isChecked());
    i++
  ) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(features.getByRole('radio', { name: 'Developer', exact: true })).toBeChecked();
  const next = page.getByRole('button', { name: 'Next' });
  await tabTo(page, next);
  await expectFocusRing(next);
  await page.keyboard.press('Enter');

  // step 4: another radio group, a select, two fields, Enter finishes
  await expect(page.getByRole('heading', { name: 'Set Data Center & DB', level: 2 })).toBeFocused();
  const dc = page.getByRole('radiogroup', { name: 'Data center and database' });
  const custom = dc.getByRole('radio', { name: 'Use a custom database' });
  await tabInto(page, dc);
  await expectFocusRing(page.locator(':focus'));
  for (let i = 0; i < 6 && !(await custom.isChecked()); i++) await page.keyboard.press('ArrowDown');
  await expect(custom).toBeChecked();
  const center = page.getByLabel('Data center', { exact: true });
  await tabTo(page, center);
  await expectFocusRing(center);
  await page.keyboard.type('eu'); // type-ahead picks the first 'eu…' data center
  await expect(center).toHaveValue(/^eu-/);
  await typeInto(page, page.getByLabel('Database name', { exact: true }), 'spanning_db');
  await typeInto(
    page,
    page.getByLabel('Connection string', { exact: true }),
    'postgres://radia:Bridge-9@db.spanning.example:5432/spanning',
  );
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Data center updated.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Owned sites' })).toContainText('spanning-tree');
});

test('approve an impersonation request from the list', async ({ page, request }) => {
  // setup through the API: a request by an agent, and the owner's consent from the mailed link
  const agent = await createStaff(request, { email: 'kb-agent@example.com', roles: ['Admin'] });
  const headers = await apiSignIn(request, agent.email, agent.password);
  // a site of this test's own: its grants do not meet other tests' requests
  const owned = await createSiteOwner(request, { email: 'kb-owner@example.com', appname: 'kb-site' });
  const appId = owned.appId;
  const since = Date.now() - 1;
  const created = await request.post('/admin/impersonation/requests', {
    headers,
    data: {
      data: {
        AppId: appId,
        Priority: 'High',
        Description: 'Keyboard approval',
        ReasonCode: 'support-ticket',
        Assignees: ['superadmin@example.com'],
        ProxyRoles: ['Analyst'],
        AdditionalPermissions: [],
        Duration: 45,
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { Data: { Id: number } }).Data.Id;
  const token = new URL(await waitForLink(owned.email, since)).searchParams.get('token');
  const consent = await request.post('/admin/impersonation/consent', {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
    data: { token, granted: true },
  });
  expect(consent.ok()).toBe(true);

  await keyboardSignIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Pending');
  const view = page.getByRole('button', { name: `View request ${id}` });
  await tabTo(page, view);
  await expectFocusRing(view);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Impersonation request ${id}` });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);

  // Escape closes and gives focus back to the row's button; Space opens it again
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(view).toBeFocused();
  await page.keyboard.press('Space');
  await expect(dialog).toBeVisible();

  const approveButton = dialog.getByRole('button', { name: 'Approve' });
  await tabTo(page, approveButton);
  await expectFocusRing(approveButton);
  await page.keyboard.press('Enter');
  const approve = page.getByRole('dialog', { name: `Approve request ${id}` });
  const duration = approve.getByLabel('Duration (minutes)');
  await expect(duration).toBeFocused(); // focus follows into the form
  await expect(duration).toHaveValue('45');
  // focus stays in the dialog however far one tabs, both ways
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab');
    expect(await approve.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await approve.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  // an invalid duration: Enter in the field submits and shows the message; then 30 minutes
  await typeInto(page, duration, '0');
  await page.keyboard.press('Enter');
  await expect(approve.getByText(/Please select a duration between 1/)).toBeVisible();
  await typeInto(page, duration, '30');
  const submit = approve.getByRole('button', { name: 'Approve' });
  await tabTo(page, submit);
  await expectFocusRing(submit);
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: `Request ${id} for kb-site approved` }),
  ).toBeVisible();
  await expect(approve).toBeHidden();
  await expect(view).toBeHidden(); // the Pending filter no longer lists it
});

/**
 * Tabs through the whole screen and answers each stop whose look does not change when focused:
 * its outline and box-shadow are compared with an unfocused copy of it placed beside it.
 */
async function stopsWithoutFocusIndicator(
  page: Page,
  max = 150,
): Promise<{ stops: number; missing: string[] }> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    for (const el of document.querySelectorAll('[data-tab-seen]')) el.removeAttribute('data-tab-seen');
  });
  const missing: string[] = [];
  let stops = 0;
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return { done: true, ringed: true, name: '' };
      if (el.hasAttribute('data-tab-seen')) return { done: true, ringed: true, name: '' };
      el.setAttribute('data-tab-seen', '');
      const look = (s: CSSStyleDeclaration) =>
        `${s.outlineStyle === 'none' ? 'none' : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`}|${s.boxShadow}|${s.borderColor}|${s.backgroundColor}`;
      const focused = look(getComputedStyle(el));
      const copy = el.cloneNode(false) as HTMLElement;
      copy.removeAttribute('id');
      copy.style.visibility = 'hidden';
      el.after(copy);
      const rest = look(getComputedStyle(copy));
      copy.remove();
      const name = `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
      return { done: false, ringed: focused !== rest, name };
    });
    if (stop.done) break;
    stops++;
    if (!stop.ringed) missing.push(stop.name);
  }
  return { stops, missing };
}

test('every Tab stop of the main screens shows that it has focus', async ({ page, request }) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const appId = await appIdOf(request, headers, ADA.uid, 'analytical-engine');
  const report: Record<string, { stops: number; missing: string[] }> = {};
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  report.login = await stopsWithoutFocusIndicator(page);
  await keyboardSignIn(page, 'superadmin@example.com');
  const screens: Array<[string, string, Locator]> = [
    ['dashboard', '/dashboard', page.getByRole('heading', { name: 'Recently viewed customers' })],
    [
      'customer search, with results',
      '/manage-customer/search-customer?customerName=lovelace',
      page.getByRole('table', { name: 'Customers found' }),
    ],
    [
      'customer view',
      `/manage-customer/view-customer?uid=${ADA.uid}`,
      page.getByRole('table', { name: 'Owned sites' }),
    ],
    ['create customer', '/manage-customer/create-customer', page.getByLabel('First name')],
    ['team list', '/manage-superuser/manage-superuser', page.getByRole('table', { name: 'Super users' })],
    ['create team member', '/manage-superuser/create-superuser', page.getByLabel('Email', { exact: true })],
    [
      'impersonation requests',
      '/manage-superuser/impersonation/assigned-requests',
      page.getByRole('table', { name: 'Impersonation requests' }),
    ],
    [
      'site configuration: security',
      `/manage-customer/site-configuration?uid=${ADA.uid}&appId=${appId}&section=security`,
      page.getByRole('tabpanel'),
    ],
    [
      'site configuration: fields',
      `/manage-customer/site-configuration?uid=${ADA.uid}&appId=${appId}&section=fields`,
      page.getByRole('tabpanel').getByRole('table').first(),
    ],
  ];
  for (const [name, url, ready] of screens) {
    await page.goto(url);
    await expect(ready).toBeVisible();
    // A table shows while its rows load: tabbing then would miss the stops its rows bring.
    await loaded(page, `${name} has loaded`);
    report[name] = await stopsWithoutFocusIndicator(page);
  }
  test.info().annotations.push({ type: 'focus', description: JSON.stringify(report) });
  for (const [name, r] of Object.entries(report)) expect(r.stops, `Tab stops of ${name}`).toBeGreaterThan(2);
  expect(Object.entries(report).filter(([, r]) => r.missing.length > 0)).toEqual([]);
});

test('a dialog is modal: in the top layer, the page behind it inert, Escape closes it, focus returns', async ({
  page,
}) => {
  await keyboardSignIn(page, 'superadmin@example.com');
  await page.goto(`/manage-customer/view-customer?uid=${ADA.uid}`);
  const details = page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('button', { name: 'Details' })
    .first();
  await details.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // the browser's own modal dialog, drawn above everything (the top layer)
  expect(await dialog.evaluate((d) => d.matches('dialog:modal'))).toBe(true);
  // the page behind is inert: it cannot take focus, and a press on it meets the dialog's backdrop
  const focusable = (target: Locator) =>
    target.evaluate((el) => {
      (el as HTMLElement).focus();
      return el === document.activeElement;
    });
  expect(await focusable(details)).toBe(false);
  expect(await focusable(page.getByRole('link', { name: 'Skip to main content' }))).toBe(false);
  const box = await details.boundingBox();
  const onDialog = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('dialog') != null,
    { x: (box?.x ?? 0) + 2, y: (box?.y ?? 0) + 2 },
  );
  expect(onDialog).toBe(true);
  // focus lost inside the dialog (a blurred field): Tab goes back into the dialog, not the page
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Tab');
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  // Escape with focus on the page's body still closes it, and focus goes back to the opener
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(details).toBeFocused();
  // a click on the backdrop closes it too
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.mouse.click(3, 3);
  await expect(dialog).toBeHidden();
  await expect(details).toBeFocused();
});

test('the command palette: Ctrl+K, a few letters, Enter, by keyboard alone; ? lists the shortcuts', async ({
  page,
}) => {
  await keyboardSignIn(page, 'superadmin@example.com');
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Go to' });
  await expect(dialog.getByRole('combobox')).toBeFocused();
  await page.keyboard.type('audit');
  await expect(dialog.getByRole('option').first()).toContainText('Audit Trail');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail$/);
  await page.keyboard.press('Control+k');
  await page.keyboard.type('lovelace');
  const ada = dialog.getByRole('option', { name: /Ada Lovelace/ });
  await expect(ada).toBeVisible();
  while ((await ada.getAttribute('aria-selected')) !== 'true') await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  await page.locator('main').focus();
  await page.keyboard.press('Shift+?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();
});
