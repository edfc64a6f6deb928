import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { apiSignIn } from './support/api.ts';
import { ADA } from './support/demo-sites.ts';
import { rowsIn } from './support/loading.ts';
import { signIn } from './support/sign-in.ts';

/**
 * The lists by a person's hands: a column header sorts (aria-sort says how), the page and the
 * order live in the address so Back, reload and a shared link give the same view, and Export CSV
 * hands over what the list holds, in the order shown.
 */

/** Each row's first cell of data (a list with bulk actions has a checkbox cell before it). */
const firstCells = async (page: Page, table: string) => {
  const t = await rowsIn(page.getByRole('table', { name: table }));
  return t
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map(
        (tr) =>
          [...tr.querySelectorAll('td')].find((td) => !td.querySelector('input[type="checkbox"]'))
            ?.textContent ?? '',
      ),
    );
};
/** The emails of the rows shown, once the page's rows are in (not the skeleton's). */
const emailsShown = (page: Page) => firstCells(page, 'Super users');
const ascending = (xs: string[]) =>
  xs.every((x, i) => i === 0 || xs[i - 1]!.localeCompare(x, undefined, { sensitivity: 'base' }) <= 0);
const descendingOrder = (xs: string[]) => ascending([...xs].reverse());

test('the team list: sort by a column, page, Back and reload keep the view; the export is the list', async ({
  page,
  request,
}) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const stamp = Date.now();
  // Enough staff for a second page, with names out of order.
  for (const n of [7, 3, 11, 1, 9, 5, 12, 2, 10, 4, 8, 6]) {
    const r = await request.post('/admin/team', {
      headers,
      data: {
        email: `lister-${String(n).padStart(2, '0')}-${stamp}@example.com`,
        role: ['Support'],
        name: '',
      },
    });
    expect(r.ok(), await r.text()).toBe(true);
  }

  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/manage-superuser');
  const table = page.getByRole('table', { name: 'Super users' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const emailHeader = table.getByRole('columnheader', { name: 'Email Address' });
  await expect(emailHeader).not.toHaveAttribute('aria-sort');

  // By keyboard: the header is a button.
  await emailHeader.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(emailHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/\?sort=email$/);
  await expect.poll(async () => ascending(await emailsShown(page))).toBe(true);

  await emailHeader.getByRole('button').click();
  await expect(emailHeader).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/\?sort=-email$/);
  await expect.poll(async () => descendingOrder(await emailsShown(page))).toBe(true);
  const descending = await emailsShown(page);

  // Page 2, then a profile, then Back: the same page in the same order.
  await page
    .getByRole('navigation', { name: 'Pagination: Super users' })
    .getByRole('button', { name: 'Page 2' })
    .click();
  await expect(page).toHaveURL(/\?sort=-email&page=2$/);
  await expect.poll(async () => (await emailsShown(page)).join()).not.toBe(descending.join());
  const secondPage = await emailsShown(page);
  expect(descendingOrder(secondPage)).toBe(true);
  await table.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/manage-superuser\/profile\//);
  await page.goBack();
  await expect(page).toHaveURL(/\?sort=-email&page=2$/);
  await expect(page.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect.poll(() => emailsShown(page)).toEqual(secondPage);
  await expect(emailHeader).toHaveAttribute('aria-sort', 'descending');

  // A reload (or the link shared) opens the same view.
  await page.reload();
  await expect.poll(() => emailsShown(page)).toEqual(secondPage);

  // The export: every row of the list, in the order shown.
  const summary = (await page.getByText(/^Showing \d+–\d+ of /).textContent()) ?? '';
  const total = Number(/of (\d+)/.exec(summary)?.[1]);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV of Super users' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^superusers-\d{4}-\d\d-\d\d\.csv$/);
  await expect(page.getByText(`Exported ${total} rows to ${file.suggestedFilename()}.`)).toBeVisible();
  const lines = fs
    .readFileSync((await file.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('Email Address,Name,Role,Access review,Created Date,Last Login Date');
  expect(lines).toHaveLength(total + 1);
  const exported = lines.slice(1).map((l) => l.split(',')[0] ?? '');
  expect(exported.slice(10, 10 + secondPage.length)).toEqual(secondPage);
  expect(exported.filter((e) => e.startsWith('lister-') && e.endsWith(`-${stamp}@example.com`))).toHaveLength(
    12,
  );

  // Back from the sorted view to the list's own order.
  await emailHeader.getByRole('button').click();
  await expect(emailHeader).not.toHaveAttribute('aria-sort');
  await expect(page).toHaveURL(/manage-superuser\/manage-superuser$/);
});

const namesShown = (page: Page) => firstCells(page, 'Customers found');

test('the customer search: the server orders by a column, Back from a customer returns to the same page and order, the export is the list', async ({
  page,
  request,
}) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const stamp = Date.now();
  for (const n of [4, 11, 1, 8, 12, 3, 6, 10, 2, 9, 5, 7]) {
    const r = await request.post('/admin/customer', {
      headers,
      data: {
        firstname: `Sorter${String(n).padStart(2, '0')}`,
        lastname: 'Quill',
        email: `sorter${stamp}-${n}@lists.example`,
        appname: `sorter-${stamp}-${n}`,
      },
    });
    expect(r.ok(), await r.text()).toBe(true);
  }
  await signIn(page, 'superadmin@example.com');
  await page.goto(`/manage-customer/search-customer?emailid=sorter${stamp}`);
  const table = page.getByRole('table', { name: 'Customers found' });
  await expect(page.getByText('Showing 1–10 of 12')).toBeVisible();

  const nameHeader = table.getByRole('columnheader', { name: 'Customer Name' });
  const sorted = page.waitForRequest(
    (r) => r.url().includes('/admin/searchcustomer?') && r.url().includes('sort=name'),
  );
  await nameHeader.getByRole('button').click();
  await sorted;
  await expect(table.getByRole('columnheader', { name: 'Customer Name' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await table.getByRole('columnheader', { name: 'Customer Name' }).getByRole('button').click();
  await expect(table.getByRole('columnheader', { name: 'Customer Name' })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(page).toHaveURL(new RegExp(`emailid=sorter${stamp}&sort=-name$`));
  const expected = Array.from({ length: 12 }, (_, i) => `Sorter${String(12 - i).padStart(2, '0')} Quill`);
  await expect.poll(() => namesShown(page)).toEqual(expected.slice(0, 10));

  await page
    .getByRole('navigation', { name: 'Pagination: Customers found' })
    .getByRole('button', { name: 'Page 2' })
    .click();
  await expect(page).toHaveURL(/sort=-name&page=2$/);
  await expect.poll(() => namesShown(page)).toEqual(expected.slice(10));
  await table.getByRole('link', { name: 'View' }).first().click();
  await expect(page).toHaveURL(/\/manage-customer\/view-customer\?uid=/);
  await page.goBack();
  await expect(page).toHaveURL(/sort=-name&page=2$/);
  await expect.poll(() => namesShown(page)).toEqual(expected.slice(10));
  await page.reload();
  await expect.poll(() => namesShown(page)).toEqual(expected.slice(10));

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV of Customers found' }).click();
  const file = await download;
  await expect(page.getByText(`Exported 12 rows to ${file.suggestedFilename()}.`)).toBeVisible();
  const lines = fs
    .readFileSync((await file.path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe('Uid,Customer Name,Email,Status,Role,Created Date,Modified Date');
  expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(expected);
});

/**
 * The same walk on every list: filter, sort by a column both ways, the next page, a reload and
 * Back keep the view (page, order and filters live in the address), and Export CSV hands over a
 * file whose first line names the columns.
 */
interface ListWalk {
  name: string;
  path: string;
  /** The table's accessible name. */
  table: string;
  /** A column that sorts, and its key in the address. */
  column: string;
  key: string;
  /** The column is the list's own order (A to Z): its first click turns it round. */
  ownOrder?: true;
  /** Applies a filter and names what the address then holds. */
  filter?: { apply: (page: Page) => Promise<void>; inAddress: RegExp };
  /** The export's button, file name and first line. */
  csv: { button: string; file: RegExp; header: RegExp };
}

async function walkList(page: Page, list: ListWalk) {
  await page.goto(list.path);
  const table = page.getByRole('table', { name: list.table });
  await rowsIn(table);
  if (list.filter) {
    await list.filter.apply(page);
    await expect(page, `${list.name}: the filter is in the address`).toHaveURL(list.filter.inAddress);
    await rowsIn(table);
  }
  const header = table.getByRole('columnheader', { name: list.column });
  if (list.ownOrder) {
    await expect(header, `${list.name}: A to Z, its own order`).toHaveAttribute('aria-sort', 'ascending');
  } else {
    await header.getByRole('button').click();
    await expect(header, `${list.name}: sorted A to Z`).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(new RegExp(`[?&]sort=${list.key}(&|$)`));
  }
  await header.getByRole('button').click();
  await expect(header, `${list.name}: sorted Z to A`).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(new RegExp(`[?&]sort=-${list.key}(&|$)`));
  await rowsIn(table);
  const sortedUrl = page.url();
  const firstPage = await firstCells(page, list.table);

  const pager = page.getByRole('navigation', { name: `Pagination: ${list.table}` });
  await pager.getByRole('button', { name: 'Page 2' }).click();
  await expect(page, `${list.name}: page 2 in the address`).toHaveURL(/[?&]page=2(&|$)/);
  await expect.poll(async () => (await firstCells(page, list.table)).join()).not.toBe(firstPage.join());
  const secondPage = await firstCells(page, list.table);

  await page.reload();
  await expect(header, `${list.name}: the order survives a reload`).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect
    .poll(() => firstCells(page, list.table), `${list.name}: page 2 after a reload`)
    .toEqual(secondPage);
  if (list.filter) await expect(page).toHaveURL(list.filter.inAddress);

  await page.goBack();
  await expect(page, `${list.name}: Back returns to page 1 in the same order`).toHaveURL(sortedUrl);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => firstCells(page, list.table)).toEqual(firstPage);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: list.csv.button, exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename(), `${list.name}: the file's name`).toMatch(list.csv.file);
  const first = fs.readFileSync((await file.path())!, 'utf8').split(/\r?\n/)[0];
  expect(first, `${list.name}: the file's header`).toMatch(list.csv.header);
}

test('every list keeps page, sort and filters in the address, and exports CSV', async ({ page, request }) => {
  test.setTimeout(150_000);
  const headers = await apiSignIn(request, 'superadmin@example.com');
  // Enough custom domains and notices for a second page.
  const stamp = Date.now();
  const sites = await request.get(`/admin/apps?uid=${ADA.uid}`, { headers });
  const appId = ((await sites.json()) as { Data: Array<{ appId: number }> }).Data[0]!.appId;
  for (let n = 0; n < 11; n++) {
    const r = await request.post(`/admin/customdomain/bindingrequest?uid=${ADA.uid}&appId=${appId}`, {
      headers,
      data: { domain: `walk${n}-${stamp}.lists.example` },
    });
    expect(r.ok(), await r.text()).toBe(true);
  }
  // Scheduled for tomorrow to one site: nothing is sent while the walk runs.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  for (let n = 0; n < 26; n++) {
    const r = await request.post('/admin/notices', {
      headers,
      data: {
        Kind: 'announcement',
        Subject: `Walk notice ${String(n).padStart(2, '0')} ${stamp}`,
        Text: 'A notice the lists walk made.',
        Audience: { Type: 'sites', AppIds: [appId] },
        SendAt: tomorrow,
      },
    });
    expect(r.ok(), await r.text()).toBe(true);
  }
  await signIn(page, 'superadmin@example.com');

  const lists: ListWalk[] = [
    {
      name: 'impersonation requests',
      path: '/manage-superuser/impersonation/assigned-requests',
      table: 'Impersonation requests',
      column: 'App Name',
      key: 'app',
      csv: { button: 'Export CSV of Impersonation requests', file: /\.csv$/, header: /Status/ },
    },
    {
      name: 'impersonation logs',
      path: '/manage-superuser/impersonation/logs',
      table: 'Impersonation log entries',
      column: 'App Name',
      key: 'app',
      csv: { button: 'Export CSV of Impersonation log entries', file: /\.csv$/, header: /App/ },
    },
    {
      name: 'notices',
      path: '/manage-notifications',
      table: 'Customer notices',
      column: 'Subject',
      key: 'subject',
      csv: {
        button: 'Export CSV of Customer notices',
        file: /^notices-\d{4}-\d\d-\d\d\.csv$/,
        header: /^Subject,Kind,Audience/,
      },
    },
    {
      name: 'custom domains',
      path: '/manage-customer/custom-domains',
      table: 'Custom domains of every site',
      column: 'Domain',
      key: 'domain',
      ownOrder: true,
      filter: {
        apply: async (p) => {
          await p.getByRole('combobox', { name: 'Status' }).selectOption('pending');
        },
        inAddress: /[?&]status=pending(&|$)/,
      },
      csv: {
        button: 'Export CSV of Custom domains of every site',
        file: /^custom-domains-\d{4}-\d\d-\d\d\.csv$/,
        header: /^Domain,Site,Status/,
      },
    },
    {
      name: 'trials ending',
      path: '/manage-customer/trials-ending',
      table: 'Sites whose trial ends soon',
      column: 'Trial ends',
      key: 'ends',
      ownOrder: true,
      // the demo's trials end up to 30 days ahead: the widest window holds more than a page
      filter: {
        apply: async (p) => {
          await p.getByRole('combobox', { name: 'Ending within' }).selectOption('90');
        },
        inAddress: /[?&]days=90(&|$)/,
      },
      csv: {
        button: 'Export CSV of Sites whose trial ends soon',
        file: /^trials-ending-\d{4}-\d\d-\d\d\.csv$/,
        header: /^Site,Customer,Plan,Data center,/,
      },
    },
    {
      name: 'audit trail',
      path: '/manage-superuser/audit-trail',
      table: 'Audit trail events',
      column: 'Action',
      key: 'action',
      filter: {
        apply: async (p) => {
          await p.getByLabel('Result').selectOption('done');
          await p.getByRole('button', { name: 'Apply filters' }).click();
        },
        inAddress: /[?&]result=done(&|$)/,
      },
      csv: { button: 'Export CSV', file: /^audit-trail-.*\.csv$/, header: /^"?Id"?,/ },
    },
  ];
  try {
    for (const list of lists) await test.step(list.name, () => walkList(page, list));
  } finally {
    // The walk's domains go again: the site's own custom-domain table pages at 10 and the site
    // settings test looks for its domain on the first page.
    for (let n = 0; n < 11; n++)
      await request.delete(`/admin/customdomain/bindingrequest?uid=${ADA.uid}&appId=${appId}`, {
        headers,
        data: { domain: `walk${n}-${stamp}.lists.example` },
      });
  }
});
