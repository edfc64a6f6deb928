import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { apiSignIn, appIdOf, createStaff } from './support/api.ts';
import { ADA } from './support/demo-sites.ts';
import { loaded } from './support/loading.ts';
import { signIn } from './support/sign-in.ts';

/**
 * Every screen at phone, tablet, laptop (a 1280 px screen at 125 % zoom is 1024 px), desktop and
 * wide widths: nothing scrolls sideways, and the user menu (Logout) stays in view. Each screen is
 * opened once and the window resized through the widths; a screenshot per screen and width is kept
 * with the results (of the whole page at 360, 1024 and 1920 px) (`<screen>-<width>.png`).
 */
const WIDTHS = [360, 768, 1024, 1280, 1920, 2560];
/** The widths whose screenshot holds the whole page; at the others, what the window shows. */
const WHOLE_PAGE = new Set([360, 1024, 1920]);

type Screen = { name: string; path: string; ready: (page: Page) => Locator; alert?: true };
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first();

async function sweep(page: Page, info: TestInfo, screens: readonly Screen[], signedIn: boolean) {
  for (const { name, path, ready, alert } of screens) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await expect(ready(page), `${name} is shown`).toBeVisible();
    if (!alert) await expect(page.getByRole('alert'), `${name} shows no error`).toHaveCount(0);
    // Content that is still loading has no final width yet.
    await loaded(page, `${name} has loaded`);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const { scroll, inner, widest } = await page.evaluate(() => {
        // The element that sticks out furthest names the culprit when the page is too wide.
        let widest = '';
        let right = window.innerWidth;
        for (const el of document.querySelectorAll<HTMLElement>('body *')) {
          // What a scroll box of its own holds scrolls there and is not the culprit.
          if (el.parentElement?.closest('[data-scroll-box]')) continue;
          const r = el.getBoundingClientRect();
          if (r.right > right + 1 && r.width > 0) {
            right = r.right;
            widest = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(r.right)} px)`;
          }
        }
        return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, widest };
      });
      await page.screenshot({
        path: info.outputPath(`${name.replace(/[^a-z0-9]+/gi, '-')}-${width}.png`),
        fullPage: WHOLE_PAGE.has(width),
      });
      expect
        .soft(scroll, `${name} at ${width} px is ${scroll} px wide: ${widest}`)
        .toBeLessThanOrEqual(inner);
      if (!signedIn) continue;
      const menu = await page.getByRole('button', { name: /superadmin@example.com/ }).boundingBox();
      expect.soft(menu, `${name} at ${width} px: the user menu`).not.toBeNull();
      if (menu) {
        expect
          .soft(menu.x + menu.width, `${name} at ${width} px: the user menu is in view`)
          .toBeLessThanOrEqual(inner);
      }
    }
  }
}

test('every signed-in screen fits every width from 360 to 2560 px', async ({ page, request }, info) => {
  // about 40 screens at 8 widths, each with a screenshot: 1.1 min quiet, 3.1 min beside the API suite on PostgreSQL
  test.setTimeout(420_000);
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const appId = await appIdOf(request, headers, ADA.uid, 'analytical-engine');
  const staff = await createStaff(request, { email: 'widths-staff@example.com', roles: ['Support'] });
  // A name of 99 letters without a space once stretched the customer view to 1769 px.
  const long = await request.post('/admin/customer', {
    headers,
    data: {
      firstname: 'W'.repeat(99),
      lastname: 'Unbroken',
      email: `${'w'.repeat(60)}@widths.example`,
      appname: 'widths-long-name',
    },
  });
  expect(long.ok(), await long.text()).toBe(true);
  const longUid = ((await long.json()) as { Data: { Customer: { Uid: string } } }).Data.Customer.Uid;

  const site = (section: string) =>
    `/manage-customer/site-configuration?uid=${ADA.uid}&appId=${appId}&section=${section}`;
  const screens: Screen[] = [
    {
      name: 'dashboard',
      path: '/dashboard',
      ready: (p) => p.getByRole('heading', { name: 'Recently viewed customers' }),
    },
    { name: 'notifications', path: '/manage-notifications', ready: heading },
    { name: 'notice compose', path: '/manage-notifications/compose', ready: heading },
    { name: 'customer search', path: '/manage-customer/search-customer', ready: heading },
    {
      name: 'customer search results',
      path: '/manage-customer/search-customer?customerName=lovelace',
      ready: (p) => p.getByRole('table', { name: 'Customers found' }),
    },
    {
      name: 'customer view',
      path: `/manage-customer/view-customer?uid=${ADA.uid}`,
      ready: (p) => p.getByRole('table', { name: 'Owned sites' }),
    },
    {
      name: 'customer view long name',
      path: `/manage-customer/view-customer?uid=${longUid}`,
      ready: (p) => p.getByRole('table', { name: 'Owned sites' }),
    },
    {
      name: 'create customer',
      path: '/manage-customer/create-customer',
      ready: (p) => p.getByLabel('First name'),
    },
    { name: 'add site', path: `/manage-customer/add-site?uid=${ADA.uid}`, ready: heading },
    { name: 'edit site', path: `/manage-customer/edit-site?uid=${ADA.uid}&appId=${appId}`, ready: heading },
    {
      name: 'request impersonation',
      path: `/manage-customer/impersonate?uid=${ADA.uid}&appId=${appId}`,
      ready: heading,
    },
    ...[
      'overview',
      'plan',
      'web-apps',
      'security',
      'custom-objects',
      'custom-domains',
      'encryption',
      'fields',
      'data-sources',
      'integrations',
    ].map((s) => ({
      name: `site configuration ${s}`,
      path: site(s),
      ready: (p: Page) => p.getByRole('tabpanel'),
    })),
    {
      name: 'team list',
      path: '/manage-superuser/manage-superuser',
      ready: (p) => p.getByRole('table', { name: 'Super users' }),
    },
    {
      name: 'create superuser',
      path: '/manage-superuser/create-superuser',
      ready: (p) => p.getByLabel('Email', { exact: true }),
    },
    { name: 'permissions', path: '/manage-superuser/permissions', ready: heading },
    { name: 'roles', path: '/manage-superuser/roles', ready: heading },
    { name: 'profile', path: `/manage-superuser/profile/${staff.uid}`, ready: heading },
    // The demo data fills both lists.
    {
      name: 'impersonation logs',
      path: '/manage-superuser/impersonation/logs',
      ready: (p) => p.getByRole('table', { name: 'Impersonation log entries' }),
    },
    {
      name: 'impersonation requests',
      path: '/manage-superuser/impersonation/assigned-requests',
      ready: (p) => p.getByRole('table', { name: 'Impersonation requests' }),
    },
    {
      name: 'custom domains of every site',
      path: '/manage-customer/custom-domains',
      ready: (p) => p.getByRole('table', { name: 'Custom domains of every site' }),
    },
    {
      name: 'trials ending',
      path: '/manage-customer/trials-ending?days=90',
      ready: (p) => p.getByRole('table', { name: 'Sites whose trial ends soon' }),
    },
    { name: 'audit trail', path: '/manage-superuser/audit-trail', ready: (p) => p.getByRole('table') },
    { name: 'my sessions', path: '/account/sessions', ready: (p) => p.getByRole('table') },
    { name: 'change password', path: '/account/change-password', ready: heading },
    { name: 'sign-in security', path: '/account/security', ready: heading },
  ];
  await signIn(page, 'superadmin@example.com');
  await sweep(page, info, screens, true);
});

test('the public screens fit every width from 360 to 2560 px', async ({ page }, info) => {
  await sweep(
    page,
    info,
    [
      { name: 'sign-in', path: '/login', ready: heading },
      { name: 'forgot password', path: '/forgotpassword', ready: heading },
      { name: 'reset password', path: '/login?vtype=reset&vtoken=x', ready: heading },
      // Without the link from the mail the page says so.
      { name: 'site access without link', path: '/impersonation/site-access', ready: heading, alert: true },
      { name: 'unsubscribe without link', path: '/unsubscribe', ready: heading, alert: true },
    ],
    false,
  );
});

test('on a phone the navigation folds behind a Menu button', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await signIn(page, 'superadmin@example.com');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const toggle = page.getByRole('button', { name: 'Menu' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await nav.getByRole('button', { name: 'Manage Superuser' }).click();
  await nav.getByRole('link', { name: 'Audit Trail' }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/audit-trail$/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeHidden();
  // The wide layout shows the navigation itself and no Menu button.
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(toggle).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
});

/**
 * Wide screens: a list (and the audit trail) uses the width up to a readable measure, while a form
 * keeps its own; in both themes. A screenshot per list, width and theme is kept with the results
 * (`wide-<list>-<width>-<theme>.png`), at 360 and 1024 px as well.
 */
test('lists use a wide screen up to a measure; forms keep theirs (1920 and 2560 px, light and dark)', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const lists = [
    { name: 'audit-trail', path: '/manage-superuser/audit-trail', table: 'Audit trail events' },
    { name: 'notices', path: '/manage-notifications', table: 'Customer notices' },
    {
      name: 'custom-domains',
      path: '/manage-customer/custom-domains',
      table: 'Custom domains of every site',
    },
    {
      name: 'trials-ending',
      path: '/manage-customer/trials-ending?days=90',
      table: 'Sites whose trial ends soon',
    },
    { name: 'team', path: '/manage-superuser/manage-superuser', table: 'Super users' },
    {
      name: 'impersonation-requests',
      path: '/manage-superuser/impersonation/assigned-requests',
      table: 'Impersonation requests',
    },
  ];
  const widthOf = (l: Locator) => l.evaluate((el) => el.getBoundingClientRect().width);
  await signIn(page, 'superadmin@example.com');
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const list of lists) {
      await page.setViewportSize({ width: 1920, height: 1000 });
      await page.goto(list.path);
      const table = page.getByRole('table', { name: list.table });
      await expect(table).toBeVisible();
      await loaded(page);
      const card = page.locator('main section.list-screen').first();
      for (const width of [360, 1024, 1920, 2560]) {
        await page.setViewportSize({ width, height: 1000 });
        const shown = await widthOf(card);
        if (width === 1920) {
          // It was about 1,140 px: the screen's width less the sidebar and the margins now.
          expect.soft(shown, `${list.name} at 1920 px (${theme})`).toBeGreaterThan(1500);
        }
        if (width === 2560) {
          expect.soft(shown, `${list.name} at 2560 px (${theme}) grows`).toBeGreaterThan(1600);
          expect
            .soft(shown, `${list.name} at 2560 px (${theme}) stops at a measure`)
            .toBeLessThanOrEqual(2048);
        }
        await page.screenshot({ path: info.outputPath(`wide-${list.name}-${width}-${theme}.png`) });
      }
    }
    // A form keeps its measure at any width.
    await page.setViewportSize({ width: 2560, height: 1000 });
    await page.goto('/manage-superuser/create-superuser');
    const form = page.locator('main section').first();
    await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
    expect.soft(await widthOf(form), `the create-superuser form at 2560 px (${theme})`).toBeLessThan(1200);
    await page.screenshot({ path: info.outputPath(`wide-create-superuser-2560-${theme}.png`) });
  }
});
