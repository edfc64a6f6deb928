import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { apiSignIn, createStaff } from './support/api.ts';
import { MAIL_DIR } from './support/env.ts';
import { signIn } from './support/sign-in.ts';
import { createSiteOwner } from './support/site-owner.ts';

/**
 * Issue 18 item 3: a notice to one plan reaches exactly that plan's owners in the SMTP sink, once
 * each; an owner's unsubscribe link stops the next announcement to them, not incident notices.
 */

interface Received {
  to: string[];
  raw: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Every message the sink received whose subject contains `subject`. */
function mailsAbout(subject: string): Received[] {
  if (!fs.existsSync(MAIL_DIR)) return [];
  return fs
    .readdirSync(MAIL_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(MAIL_DIR, f), 'utf8')) as Received)
    .filter((m) => /^subject:.*$/im.exec(m.raw)?.[0].includes(subject));
}

/** A new owner whose only site is on `plan`. */
async function ownerOn(request: APIRequestContext, plan: string, tag: string) {
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const owner = await createSiteOwner(request, {
    email: `notice-${tag}-${stamp}@owners.example`,
    appname: `notice-${tag}-${stamp}`,
  });
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const at = `/admin/site/basicsettings?uID=${owner.uid}&appId=${owner.appId}`;
  const r = await request.put(at, { headers, data: { data: { Plan: plan } } });
  expect(r.status(), await r.text()).toBe(200);
  return owner;
}

test('a notice to one plan reaches exactly its owners; the unsubscribe link stops the next announcement', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const premiumA = await ownerOn(request, 'Developer Premium', 'a');
  const premiumB = await ownerOn(request, 'Developer Premium', 'b');
  const free = await ownerOn(request, 'Free', 'c');
  const staff = await createStaff(request, {
    email: `notices-admin-${Date.now()}@example.com`,
    roles: ['Admin'],
  });
  await signIn(page, staff.email, staff.password);

  await page.getByRole('link', { name: 'Manage Notfications' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Notifications' })).toBeVisible();
  await page.getByRole('link', { name: 'New notice' }).click();

  const subject = `Spring release ${Date.now()}`;
  await page.getByRole('radio', { name: 'Announcement' }).check();
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Text').fill('Custom domains now verify within a minute.');
  await page.getByRole('radio', { name: 'By plan' }).check();
  await page.getByRole('checkbox', { name: 'Developer Premium' }).check();
  const countLine = page.getByText(/^Owner addresses this audience reaches: [\d,]+\.$/);
  await expect(countLine).toBeVisible();
  const expected = Number(
    (/([\d,]+)\.$/.exec((await countLine.textContent()) ?? '')?.[1] ?? '0').replace(/,/g, ''),
  );
  expect(expected).toBeGreaterThanOrEqual(2);

  await page.getByRole('button', { name: 'Send notice' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send this notice now?' });
  await expect(dialog).toContainText(`${expected.toLocaleString('en-US')} owner addresses`);
  await dialog.getByRole('button', { name: 'Send now' }).click();

  // The details screen follows the sending to its end.
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
  await expect(page.locator('.page-header').getByText('Sent', { exact: true })).toBeVisible({
    timeout: 30_000,
  });
  const bar = page.getByRole('progressbar', { name: `Delivery progress of ${subject}` });
  // Resolved when sending started: the preview's count, unless another spec changed a plan meanwhile.
  const total = Number(await bar.getAttribute('max'));
  await expect(bar).toHaveAttribute('value', String(total));

  // The sink got one mail per owner address of the plan: the two new premium owners, not the free one.
  await expect.poll(() => mailsAbout(subject).length, { timeout: 30_000 }).toBe(total);
  const first = mailsAbout(subject);
  const recipients = first.flatMap((m) => m.to);
  expect(new Set(recipients).size).toBe(total);
  expect(recipients).toEqual(expect.arrayContaining([premiumA.email, premiumB.email]));
  expect(recipients).not.toContain(free.email);
  // The delivery log, a page at a time: every row sent, none failed.
  const log = page.getByRole('table', { name: 'Delivery log of the notice' });
  await expect(log.getByRole('row').nth(1)).toContainText('Sent');
  await page.getByLabel('Show').selectOption('failed');
  await expect(log).toContainText('No data available to display.');

  // Owner A follows the unsubscribe link of their mail.
  const mailA = first.find((m) => m.to.includes(premiumA.email))!;
  expect(mailA.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
  const body = mailA.raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  const text = /quoted-printable/i.test(mailA.raw) ? decodeQuotedPrintable(body) : body;
  const link = /https?:\/\/\S+\/unsubscribe\?token=[A-Za-z0-9_.-]+/.exec(text)?.[0];
  expect(link).toBeTruthy();
  const owner = await page.context().browser()!.newContext();
  const ownerPage = await owner.newPage();
  await ownerPage.goto(link!);
  await expect(ownerPage.getByRole('heading', { name: 'Unsubscribe from announcements' })).toBeVisible();
  await ownerPage.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(ownerPage.getByRole('status')).toContainText('will no longer receive announcements');
  // An altered link is refused.
  await ownerPage.goto(`${link!.slice(0, -4)}AAAA`);
  await expect(ownerPage.getByRole('alert')).toContainText('This unsubscribe link is not valid.');
  await owner.close();

  // The next announcement to the plan skips owner A; an incident still reaches them.
  const headers = await apiSignIn(request, staff.email, staff.password);
  const again = `${subject} follow-up`;
  const incident = `${subject} incident`;
  for (const [Kind, Subject] of [
    ['announcement', again],
    ['incident', incident],
  ] as const) {
    const r = await request.post('/admin/notices', {
      headers,
      data: {
        Kind,
        Subject,
        Text: 'More news.',
        Audience: { Type: 'plan', Plans: ['Developer Premium'] },
        SendAt: null,
      },
    });
    expect(r.status(), await r.text()).toBe(200);
  }
  await expect.poll(() => mailsAbout(again).length, { timeout: 30_000 }).toBe(total - 1);
  await expect.poll(() => mailsAbout(incident).length, { timeout: 30_000 }).toBe(total);
  const followUp = mailsAbout(again).flatMap((m) => m.to);
  expect(followUp).not.toContain(premiumA.email);
  expect(followUp).toContain(premiumB.email);
  expect(mailsAbout(incident).flatMap((m) => m.to)).toContain(premiumA.email);
});
