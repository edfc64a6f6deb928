import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { apiSignIn, createStaff } from './support/api.ts';
import { axeSerious } from './support/axe.ts';
import { RUN_DIR } from './support/env.ts';
import { waitForLink } from './support/mail.ts';
import { signIn } from './support/sign-in.ts';
import { createSiteOwner } from './support/site-owner.ts';

/**
 * Webhooks (issue 34 item 1): a receiver on loopback (the e2e API allows private addresses and
 * looks for events every second) is subscribed through the console; an impersonation request is
 * made and consented through the API and approved on the console's screen; the subscription's
 * page shows impersonation.approved delivered, and the receiver got it signed.
 */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let receiver: http.Server;
let hookUrl = '';

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/console`;
});
test.afterAll(async ({ request }) => {
  // The subscription goes, so no other spec's events are sent to a receiver that has stopped.
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const list = (await (await request.get('/admin/webhooks', { headers })).json()) as {
    Data: { Id: number; Url: string }[];
  };
  for (const s of list.Data.filter((x) => x.Url === hookUrl))
    await request.delete('/admin/webhooks', { headers, data: { Id: s.Id } });
  await new Promise((resolve) => receiver.close(resolve));
});

async function noSeriousViolation(page: Page) {
  expect(await axeSerious(page)).toEqual([]);
}

async function shots(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const)
    for (const width of [360, 1024, 1920]) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(300); // the relayout at the new width is painted
      await page.screenshot({ path: `${RUN_DIR}/webhooks-${name}-${width}-${scheme}.png`, fullPage: true });
    }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Standard Webhooks: v1, base64 HMAC-SHA256 under the secret's key over "id.timestamp.body". */
const sign = (secret: string, id: string, ts: string, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
    .update(`${id}.${ts}.${body}`)
    .digest('base64')}`;

test('subscribe a receiver on the console, approve a request, see the delivery in the log', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await signIn(page, 'superadmin@example.com');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('button', { name: 'Manage Superuser' }).click();
  await nav.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No webhook subscriptions yet' })).toBeVisible();
  await noSeriousViolation(page);

  await page.getByRole('button', { name: 'New subscription' }).click();
  const form = page.getByRole('dialog', { name: 'New webhook subscription' });
  await expect(form.getByText(/allows loopback and private network addresses/)).toBeVisible();
  await form.getByRole('button', { name: 'Create subscription' }).click();
  await expect(form.getByText('Choose at least one event type.')).toBeVisible();
  await form.getByLabel('Endpoint URL').fill(hookUrl);
  await form.getByLabel('Description').fill('e2e receiver');
  const impersonation = form.getByRole('group', { name: 'Impersonation', exact: true });
  await impersonation.getByRole('checkbox', { name: 'impersonation.requested' }).check();
  await impersonation.getByRole('checkbox', { name: 'impersonation.approved' }).check();
  await noSeriousViolation(page);
  await form.getByRole('button', { name: 'Create subscription' }).click();

  const shown = page.getByRole('dialog', { name: 'Signing secret' });
  await expect(shown).toContainText('you will not see it again');
  const secret = (await shown.locator('code').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_/);
  await noSeriousViolation(page);
  await shown.getByRole('button', { name: 'Done, I copied it' }).click();
  await expect(page.getByText(secret)).toHaveCount(0);
  const row = page
    .getByRole('table', { name: 'Subscriptions' })
    .getByRole('row')
    .filter({ hasText: hookUrl });
  await expect(row).toContainText('2 types');
  await expect(row).toContainText('Active');

  // A request by an agent and the owner's consent, through the API.
  const agent = await createStaff(request, { email: 'hook-agent@example.com', roles: ['Admin'] });
  const headers = await apiSignIn(request, agent.email, agent.password);
  const owned = await createSiteOwner(request, { email: 'hook-owner@example.com', appname: 'hook-site' });
  const since = Date.now() - 1;
  const created = await request.post('/admin/impersonation/requests', {
    headers,
    data: {
      data: {
        AppId: owned.appId,
        Priority: 'High',
        Description: 'Webhook delivery check',
        ReasonCode: 'support-ticket',
        Assignees: ['superadmin@example.com'],
        ProxyRoles: ['Analyst'],
        AdditionalPermissions: [],
        Duration: 30,
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

  // The SuperAdmin approves on the console's screen.
  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Pending');
  await page.getByRole('button', { name: `View request ${id}` }).click();
  await page
    .getByRole('dialog', { name: `Impersonation request ${id}` })
    .getByRole('button', { name: 'Approve' })
    .click();
  const approve = page.getByRole('dialog', { name: `Approve request ${id}` });
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Request ${id} for hook-site approved` }),
  ).toBeVisible();

  // The subscription's page shows the approval delivered (Refresh until the sender got to it).
  await page.goto('/manage-superuser/webhooks');
  await page.getByRole('link', { name: hookUrl }).click();
  await expect(page).toHaveURL(/\/manage-superuser\/webhook\?id=\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription' })).toBeVisible();
  const log = page.getByRole('list', { name: 'Delivery log' });
  const approved = log.getByRole('listitem', { name: /^impersonation\.approved / });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(approved.locator('.status-badge')).toHaveText('Delivered', { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  await expect(log.getByRole('listitem', { name: /^impersonation\.requested / })).toBeVisible();
  await expect(approved).toContainText('HTTP 204');
  await approved.getByText('Show payload and attempts').click();
  await expect(approved.locator('pre')).toContainText('"type": "impersonation.approved"');

  // The receiver got it, signed with the secret shown once.
  const got = received.find((r) => r.body.includes('"type":"impersonation.approved"'));
  expect(got).toBeDefined();
  const webhookId = String(got!.headers['webhook-id']);
  const ts = String(got!.headers['webhook-timestamp']);
  expect(webhookId).not.toBe('undefined');
  expect(String(got!.headers['webhook-signature']).split(' ')).toContain(
    sign(secret, webhookId, ts, got!.body),
  );
  await expect(approved).toContainText(webhookId);
  await noSeriousViolation(page);
  await shots(page, 'detail');

  // Paused, "Send again" is off and says why; resumed, it is back.
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
  await expect(approved.getByRole('button', { name: 'Send again' })).toBeDisabled();
  await expect(approved).toContainText('Resume the subscription to send events again.');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(approved.getByRole('button', { name: 'Send again' })).toBeEnabled();

  await page.goto('/manage-superuser/webhooks');
  await expect(row).toContainText('2 delivered');
  await expect(row).toContainText('0 failed');
  await noSeriousViolation(page);
  await shots(page, 'list');
});
