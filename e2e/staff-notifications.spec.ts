import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { apiSignIn, createStaff } from './support/api.ts';
import { type ApiProcess, pageOn, startApi, stopApi } from './support/api-process.ts';
import { signIn } from './support/sign-in.ts';
import { createSiteOwner } from './support/site-owner.ts';

/**
 * Issue 18 item 2: a request created in one browser context appears in the approver's bell in
 * another within 2 seconds, without a reload: on the run's server, and on two API processes
 * sharing a PostgreSQL database (events through LISTEN/NOTIFY, and through Redis pub/sub), the
 * request made on one and the bell shown by the other.
 */

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications(, \d+ unread)?$/ });

/** Fills the request form of a site for `assignee` and sends it; answers the request's id. */
async function requestAccess(page: Page, site: { uid: string; appId: number }, assignee: string) {
  await page.goto(`/manage-customer/impersonate?uid=${site.uid}&appId=${site.appId}`);
  await page.getByLabel('Priority').selectOption('High');
  await page.getByLabel('Reason').selectOption('support-ticket');
  await page.getByLabel('Description').fill('Live notification check');
  await page
    .getByRole('group', { name: 'Assignees' })
    .getByRole('checkbox', { name: new RegExp(assignee.replace(/[.]/g, '\\.')) })
    .check();
  await page.getByRole('group', { name: 'Roles' }).getByRole('checkbox', { name: 'Developer' }).check();
  await page.getByRole('button', { name: 'Request impersonation' }).click();
  const created = page.getByRole('status').filter({ hasText: 'has been created' });
  await expect(created).toBeVisible();
  return Number(/request (\d+)/.exec((await created.textContent()) ?? '')![1]);
}

/** The bell shows one more unread within 2 s of `since` (no reload), and the entry opens the request. */
async function expectInBell(approver: Page, before: number, id: number, since: number) {
  // `since`: the asker's screen has said the request is created
  await expect(approver.getByRole('button', { name: `Notifications, ${before + 1} unread` })).toBeVisible({
    timeout: 2_000,
  });
  const ms = Date.now() - since;
  await bell(approver).click();
  const panel = approver.getByRole('region', { name: 'Your notifications' });
  const entry = panel.getByRole('link', { name: new RegExp(`assigned you request ${id} on`) });
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(approver).toHaveURL(
    new RegExp(`/manage-superuser/impersonation/assigned-requests\\?request=${id}$`),
  );
  return ms;
}

/**
 * The bell's unread count, read once its list is in: until then the bell shows no count, whatever
 * there is. The panel shows the list (or says it is empty) from the same answer as the count.
 */
const unreadOf = async (page: Page) => {
  await bell(page).click();
  const panel = page.getByRole('region', { name: 'Your notifications' });
  await expect(
    panel
      .getByRole('listitem')
      .or(panel.getByText(/^Nothing new\./))
      .first(),
  ).toBeVisible();
  const name = (await bell(page).getAttribute('aria-label')) ?? '';
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  return Number(/(\d+) unread/.exec(name)?.[1] ?? 0);
};

test('a request made in one browser appears in the approver’s bell in another, without a reload', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const stamp = Date.now();
  const askerStaff = await createStaff(request, {
    email: `bell-asker-${stamp}@example.com`,
    roles: ['Admin'],
  });
  const site = await createSiteOwner(request, {
    email: `bell-owner-${stamp}@example.com`,
    appname: `bell-site-${stamp}`,
  });

  // The approver is the demo SuperAdmin (assignees are SuperAdmins, whom the API creates through
  // no call; its password is the one createStaff relies on, which no spec changes).
  const approver = await (await browser.newContext()).newPage();
  await signIn(approver, 'superadmin@example.com');
  await expect(bell(approver)).toBeVisible();
  const before = await unreadOf(approver);

  const asker = await (await browser.newContext()).newPage();
  await signIn(asker, askerStaff.email, askerStaff.password);
  const id = await requestAccess(asker, site, 'superadmin@example.com');
  const since = Date.now();
  const ms = await expectInBell(approver, before, id, since);
  console.log(`bell updated ${ms} ms after the request was sent (one process, PGlite)`);

  // read state: the entry opened is read; Escape closes the panel onto the bell
  await approver.goto('/dashboard');
  await expect(
    approver.getByRole('button', { name: before ? `Notifications, ${before} unread` : 'Notifications' }),
  ).toBeVisible();
  await bell(approver).click();
  await expect(approver.getByRole('region', { name: 'Your notifications' })).toBeVisible();
  await approver.keyboard.press('Escape');
  await expect(approver.getByRole('region', { name: 'Your notifications' })).toBeHidden();
  await expect(bell(approver)).toBeFocused();
});

// ---- two API processes on one PostgreSQL database ----

const PG_URL = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379';

function psql(sql: string): boolean {
  try {
    execFileSync('psql', [PG_URL, '-v', 'ON_ERROR_STOP=1', '-tAc', sql], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}
const reachable = (url: string) =>
  new Promise<boolean>((resolve) => {
    const u = new URL(url);
    const s = net.connect(Number(u.port), u.hostname);
    s.setTimeout(1000);
    s.once('connect', () => {
      resolve(true);
      s.destroy();
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      resolve(false);
      s.destroy();
    });
  });
for (const carrier of ['LISTEN/NOTIFY', 'Redis pub/sub'] as const) {
  test.describe(`two API processes on PostgreSQL (${carrier})`, () => {
    test.describe.configure({ timeout: 180_000 });
    let a: ApiProcess | undefined;
    let b: ApiProcess | undefined;
    const db = `sac_e2e_notify_${randomUUID().replace(/-/g, '').slice(0, 10)}`;

    test.afterAll(async () => {
      await Promise.all([stopApi(a), stopApi(b)]);
      psql(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    });

    test('a request made on one process appears in the approver’s bell on the other within 2 s', async ({
      browser,
      playwright,
    }) => {
      test.skip(!psql('SELECT 1'), `PostgreSQL is not reachable at ${PG_URL} (set E2E_PG_URL): skipped`);
      const redis = carrier === 'Redis pub/sub';
      if (redis)
        test.skip(
          !(await reachable(REDIS_URL)),
          `Redis is not reachable at ${REDIS_URL} (set E2E_REDIS_URL): skipped`,
        );
      expect(psql(`CREATE DATABASE ${db}`)).toBe(true);
      const url = new URL(PG_URL);
      url.pathname = `/${db}`;
      const env = {
        DATABASE_URL: url.toString(),
        ...(redis ? { REDIS_URL, REDIS_KEY_PREFIX: `sac-e2e-${db}:` } : {}),
      };
      // one at a time: the first migrates and seeds the demo data, the second finds it there
      a = await startApi(env);
      b = await startApi(env);

      // The approver (the demo SuperAdmin of this database of its own) watches the bell on B.
      const approver = await pageOn(browser, b.url);
      await signIn(approver, 'superadmin@example.com');
      await expect(bell(approver)).toBeVisible();
      const before = await unreadOf(approver);

      // The asker (the demo Admin) asks on A, for a site of a new customer.
      const onA = await playwright.request.newContext({ baseURL: a.url });
      const headers = await apiSignIn(onA, 'superadmin@example.com');
      const stamp = Date.now();
      const created = await onA.post('/admin/customer', {
        headers,
        data: {
          firstname: 'Bell',
          lastname: 'Owner',
          email: `bell-${stamp}@example.com`,
          appname: `bell-${stamp}`,
        },
      });
      expect(created.ok()).toBe(true);
      const { Customer, Site } = (
        (await created.json()) as {
          Data: { Customer: { Uid: string }; Site: { appId: number } };
        }
      ).Data;
      await onA.dispose();
      const asker = await pageOn(browser, a.url);
      await signIn(asker, 'admin@example.com');
      const id = await requestAccess(
        asker,
        { uid: Customer.Uid, appId: Site.appId },
        'superadmin@example.com',
      );
      const since = Date.now();
      const ms = await expectInBell(approver, before, id, since);
      console.log(`bell on B updated ${ms} ms after the request was sent on A (${carrier})`);
    });
  });
}
