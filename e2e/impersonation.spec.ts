import { expect, type Page, test } from '@playwright/test';
import { createStaff } from './support/api.ts';
import { ADA } from './support/demo-sites.ts';
import { waitForLink, waitForLinks } from './support/mail.ts';
import { shoot } from './support/shots.ts';
import { signIn } from './support/sign-in.ts';

// Demo data: Ada Lovelace owns analytical-engine; her consent mail goes to her address.
const APP_ID_OF = async (page: Page) => {
  const r = await page.request.get(`/admin/apps?uid=${ADA.uid}`, {
    headers: {
      'X-Requested-With': 'XMLHttpRequest',
      xtoken: (await page.evaluate(() => localStorage.getItem('lr-admin-token'))) ?? '',
      xsign: (await page.evaluate(() => localStorage.getItem('lr-admin-sign'))) ?? '',
    },
  });
  return ((await r.json()) as { Data: Array<{ appId: number; AppName: string }> }).Data.find(
    (s) => s.AppName === 'analytical-engine',
  )!.appId;
};

test('request, consent from the mailed link, approve, then revoke', async ({ page, request }) => {
  // Three people, a mailed link and five screens: 18 s alone, over 30 s beside the PostgreSQL suite.
  test.setTimeout(process.env.E2E_SHOTS_DIR ? 240_000 : 90_000); // screenshots: 30 more pictures
  const agent = await createStaff(request, { email: 'imp-agent@example.com', roles: ['Admin'] });
  await signIn(page, agent.email, agent.password);
  const appId = await APP_ID_OF(page);
  await page.goto(`/manage-customer/impersonate?uid=${ADA.uid}&appId=${appId}`);
  await page.getByLabel('Priority').selectOption('High');
  // the reason, from the operator's list, and the case, which the server turns into a link
  await page.getByLabel('Reason').selectOption({ label: 'Production incident' });
  await page.getByLabel('Case or ticket (Optional)').fill('INC 2291');
  await page.getByLabel('Description').fill('Checkout fails for some customers');
  await page
    .getByRole('group', { name: 'Assignees' })
    .getByRole('checkbox', { name: /superadmin@example.com/ })
    .check();
  await page.getByRole('group', { name: 'Roles' }).getByRole('checkbox', { name: 'Developer' }).check();
  await page.getByLabel('Duration (minutes)').fill('45');
  await shoot(page, 'reasons-request-form');
  const since = Date.now() - 1;
  await page.getByRole('button', { name: 'Request impersonation' }).click();
  const created = page.getByRole('status').filter({ hasText: 'has been created' });
  await expect(created).toBeVisible();
  const id = Number(/request (\d+)/.exec((await created.textContent()) ?? '')![1]);

  // the owner consents through the link of the mail the SMTP listener received
  const [consentLink, accessLink] = await waitForLinks(ADA.email, since);
  const link = new URL(consentLink!);
  expect(link.pathname).toBe('/impersonation/consent');
  const owner = await page.context().browser()!.newPage({ baseURL: page.url() });
  await owner.goto(link.pathname + link.search);
  await expect(
    owner.getByRole('heading', { name: 'Allow support access to analytical-engine?' }),
  ).toBeVisible();
  await expect(owner.getByText('Checkout fails for some customers')).toBeVisible();
  await expect(owner.getByText('Production incident')).toBeVisible();
  // the owner reads the case's reference; the provider's tracker link is not theirs to follow
  await expect(owner.getByText('INC 2291', { exact: true })).toBeVisible();
  await expect(owner.getByRole('link', { name: /Open case/ })).toHaveCount(0);
  await shoot(owner, 'reasons-consent-page');
  await owner.getByRole('button', { name: 'Allow' }).click();
  await expect(owner.getByRole('heading', { name: 'Your answer is recorded' })).toBeVisible();
  await owner.goto(link.pathname + link.search);
  await expect(owner.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  // the owner's page of every access to the site, from the same mail
  const access = new URL(accessLink!);
  await owner.goto(access.pathname + access.search);
  await expect(owner.getByRole('heading', { name: 'Access to analytical-engine' })).toBeVisible();
  await expect(owner.getByRole('table', { name: 'Access requests' })).toContainText(
    'Checkout fails for some customers',
  );
  await expect(owner.getByRole('table', { name: 'Every step' })).toContainText('You allowed it');
  await expect(owner.getByRole('table', { name: 'Access requests' })).toContainText(
    'Production incident · INC 2291',
  );
  await shoot(owner, 'reasons-site-access');
  await owner.close();

  // a SuperAdmin approves, narrowing nothing, 30 minutes
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Pending');
  // the approver sees the reason and the case in the list and in the request's popup
  const listed = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `View request ${id}` }) });
  await expect(listed).toContainText('Production incident · INC 2291');
  await shoot(page, 'reasons-approver-list');
  await page.getByRole('button', { name: `View request ${id}` }).click();
  const dialog = page.getByRole('dialog', { name: `Impersonation request ${id}` });
  await expect(dialog).toContainText('Production incident');
  const caseLink = dialog.getByRole('link', { name: 'Open case INC 2291 (new tab)' });
  await expect(caseLink).toHaveAttribute('href', 'https://tickets.example.com/browse/INC%202291');
  await expect(caseLink).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(caseLink).toHaveAttribute('target', '_blank');
  await shoot(page, 'reasons-approver-popup', false);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  const approve = page.getByRole('dialog', { name: `Approve request ${id}` });
  await expect(approve.getByLabel('Duration (minutes)')).toHaveValue('45'); // prefilled from the request
  await approve.getByLabel('Duration (minutes)').fill('0');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve.getByText('Please select a duration between 1 - 43,200 (1 month).')).toBeVisible();
  await approve.getByLabel('Duration (minutes)').fill('30');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Request ${id} for analytical-engine approved with 1 role` }),
  ).toBeVisible();

  // revoke the whole site access
  await page.goto('/manage-superuser/impersonation/assigned-requests?status=Approved');
  await page.getByRole('button', { name: `View request ${id}` }).click();
  await page
    .getByRole('dialog', { name: `Impersonation request ${id}` })
    .getByRole('button', { name: 'Revoke' })
    .click();
  const revoke = page.getByRole('dialog', { name: `Revoke request ${id}` });
  await revoke.getByRole('radio', { name: 'Revoke only some roles' }).check();
  await expect(revoke.getByRole('button', { name: 'Revoke' })).toBeDisabled();
  await revoke.getByRole('radio', { name: 'Revoke whole site access' }).check();
  await revoke.getByRole('button', { name: 'Revoke' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Access of request ${id} to analytical-engine has been revoked.` }),
  ).toBeVisible();

  await page.goto('/manage-superuser/impersonation/logs');
  await expect(page.getByRole('table', { name: 'Impersonation log entries' })).toContainText(
    'analytical-engine',
  );
});

test('approval is disabled until the customer consents', async ({ page, request }) => {
  const agent = await createStaff(request, { email: 'imp-agent2@example.com', roles: ['Admin'] });
  await signIn(page, agent.email, agent.password);
  const appId = await APP_ID_OF(page);
  await page.goto(`/manage-customer/impersonate?uid=${ADA.uid}&appId=${appId}`);
  await page.getByLabel('Priority').selectOption('Low');
  await page.getByLabel('Reason').selectOption('support-ticket');
  await page.getByLabel('Description').fill('Look at the settings');
  await page
    .getByRole('group', { name: 'Assignees' })
    .getByRole('checkbox', { name: /superadmin@example.com/ })
    .check();
  await page.getByRole('group', { name: 'Roles' }).getByRole('checkbox', { name: 'Analyst' }).check();
  await page.getByRole('button', { name: 'Request impersonation' }).click();
  const created = page.getByRole('status').filter({ hasText: 'has been created' });
  const id = Number(/request (\d+)/.exec((await created.textContent()) ?? '')![1]);
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/impersonation/assigned-requests');
  await page.getByRole('button', { name: `View request ${id}` }).click();
  const approveButton = page
    .getByRole('dialog', { name: `Impersonation request ${id}` })
    .getByRole('button', { name: 'Approve' });
  await expect(approveButton).toBeDisabled();
  await expect(approveButton).toHaveAttribute(
    'title',
    'The customer has not granted permission to impersonate their site.',
  );
});

test('impersonate with an approved grant: allowed and refused calls, then revocation ends it', async ({
  page,
  request,
  browser,
}) => {
  const agent = await createStaff(request, { email: 'imp-agent3@example.com', roles: ['Admin'] });
  // a grant for the agent: request through the API, the owner consents from the mail, a SuperAdmin approves
  const ajax = { 'X-Requested-With': 'XMLHttpRequest' };
  const login = async (email: string, password: string) => {
    const r = await request.post('/admin/login', { headers: ajax, data: { email, password } });
    const { xtoken, xsign } = (await r.json()) as { xtoken: string; xsign: string };
    return { ...ajax, xtoken, xsign };
  };
  const agentHeaders = await login(agent.email, agent.password);
  const apps = await request.get(`/admin/apps?uid=${ADA.uid}`, { headers: agentHeaders });
  const appId = ((await apps.json()) as { Data: Array<{ appId: number; AppName: string }> }).Data.find(
    (s) => s.AppName === 'analytical-engine',
  )!.appId;
  const since = Date.now() - 1;
  const created = await request.post('/admin/impersonation/requests', {
    headers: agentHeaders,
    data: {
      data: {
        AppId: appId,
        Priority: 'High',
        Description: 'Fix the web app URLs',
        ReasonCode: 'support-ticket',
        Assignees: ['superadmin@example.com'],
        ProxyRoles: ['Support'],
        AdditionalPermissions: ['ManageSettings'],
        Duration: 60,
      },
    },
  });
  const id = ((await created.json()) as { Data: { Id: number } }).Data.Id;
  const token = new URL(await waitForLink(ADA.email, since)).searchParams.get('token');
  await request.post('/admin/impersonation/consent', { headers: ajax, data: { token, granted: true } });
  const boss = await login('superadmin@example.com', 'Demo#Pass1');
  const approved = await request.post(`/admin/impersonation/request/action?requestId=${id}`, {
    headers: boss,
    data: {
      Status: 'Approve',
      ProxyRoles: ['Support'],
      AdditionalPermissions: ['ManageSettings'],
      Duration: 30,
    },
  });
  expect(approved.status()).toBe(200);
  // a running trial, so that a save which rewrote the plan would show
  const basics = await request.get(`/admin/site/basicsettings?uID=${ADA.uid}&appId=${appId}`, {
    headers: boss,
  });
  const b = ((await basics.json()) as { Data: { ProductionUrl: string; StagingUrl: string } }).Data;
  const trial = await request.put(`/admin/site/basicsettings?uID=${ADA.uid}&appId=${appId}`, {
    headers: boss,
    data: {
      data: { ProductionUrl: b.ProductionUrl, StagingUrl: b.StagingUrl, Plan: 'Developer', TrialDays: 10 },
    },
  });
  expect(trial.status()).toBe(200);

  // the agent impersonates from the customer view
  await signIn(page, agent.email, agent.password);
  await page.goto(`/manage-customer/view-customer?uid=${ADA.uid}`);
  await page
    .getByRole('table', { name: 'Owned sites' })
    .getByRole('link', { name: 'Impersonate' })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Impersonate analytical-engine' })).toBeVisible();
  await page.getByRole('button', { name: 'Start impersonation' }).click();
  const banner = page.getByRole('region', { name: 'Impersonation' });
  await expect(banner).toContainText('Impersonating analytical-engine as Support');
  await expect(banner.getByRole('timer')).toHaveText(/^(29|30):\d\d$/);

  // The impersonator sees the site configuration's tabs, opening on the overview.
  await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'Overview' })).toContainText('analytical-engine');

  // allowed: edit the web apps (ManageSettings was granted); plan and trial stay exactly as they were
  const facts = async () => {
    const r = await request.get(`/admin/appinfobyid?uId=${ADA.uid}&appId=${appId}`, { headers: boss });
    const d = ((await r.json()) as { Data: Record<string, unknown> }).Data;
    return { Plan: d.Plan, PlanStatus: d.PlanStatus, TrialEndsAt: d.TrialEndsAt, Billing: d.Billing };
  };
  const before = await facts();
  expect(before.PlanStatus).toBe('Trial');
  await page.getByRole('tab', { name: 'Web apps' }).click();
  await page.getByLabel('Staging URL (Optional)').fill('https://staging.analytical.example');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  expect(await facts()).toEqual(before);

  // refused, with the reason: activating or deactivating needs ManageSite, which was not granted
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(
    page.getByText(
      'Activating or deactivating the site needs ManageSite, which your impersonation grant does not include.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Deactivate site' })).toHaveCount(0);
  // and the server refuses the call itself, whoever sends it with the session's pair
  const pair = JSON.parse(
    (await page.evaluate(() => sessionStorage.getItem('lr-admin-impersonation'))) ?? '{}',
  ) as { xtoken: string; xsign: string };
  const refused = await request.put(`/admin/site/status?uId=${ADA.uid}&appId=${appId}`, {
    headers: { ...ajax, xtoken: pair.xtoken, xsign: pair.xsign },
    data: { Status: 'inactive' },
  });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { Description: string }).Description).toBe(
    'This call is outside the impersonated site or its approved permissions.',
  );

  // the SuperAdmin revokes; the next call of the session is refused and the admin stays signed in
  const revoked = await request.post(
    `/admin/impersonation/request/action?requestId=${id}&revokeAction=site`,
    {
      headers: boss,
      data: { Status: 'Revoke' },
    },
  );
  expect(revoked.status()).toBe(200);
  await page.getByRole('tab', { name: 'Web apps' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Impersonation ended' })).toBeVisible();
  await expect(
    page.getByText('The impersonation has ended: it expired or was revoked.').first(),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Back to the customer' }).click();
  await expect(page.getByRole('heading', { name: 'View Customer' })).toBeVisible();
  void browser;

  // every step is in the impersonation log, among its newest 200 (a page is 50 unless asked)
  const log = await request.get('/admin/impersonation/logs?limit=200', { headers: boss });
  const events = ((await log.json()) as { Data: Array<{ RequestId: number; Event: string }> }).Data.filter(
    (e) => e.RequestId === id,
  ).map((e) => e.Event);
  expect(events).toEqual(
    expect.arrayContaining([
      'request',
      'consent-granted',
      'approve',
      'session-start',
      'call',
      'call-refused',
      'revoke',
    ]),
  );
});

test("a requester is not offered the roles other staff's live requests hold on the site", async ({
  page,
  request,
}) => {
  const holder = await createStaff(request, { email: 'imp-holder@example.com', roles: ['Admin'] });
  const asker = await createStaff(request, { email: 'imp-asker@example.com', roles: ['Support'] });
  const ajax = { 'X-Requested-With': 'XMLHttpRequest' };
  const r = await request.post('/admin/login', {
    headers: ajax,
    data: { email: holder.email, password: holder.password },
  });
  const { xtoken, xsign } = (await r.json()) as { xtoken: string; xsign: string };
  const holderHeaders = { ...ajax, xtoken, xsign };
  const apps = await request.get(`/admin/apps?uid=${ADA.uid}`, { headers: holderHeaders });
  const appId = ((await apps.json()) as { Data: Array<{ appId: number; AppName: string }> }).Data.find(
    (s) => s.AppName === 'analytical-engine',
  )!.appId;
  const held = await request.post('/admin/impersonation/requests', {
    headers: holderHeaders,
    data: {
      data: {
        AppId: appId,
        Priority: 'Low',
        Description: 'Review the team settings',
        ReasonCode: 'support-ticket',
        Assignees: ['superadmin@example.com'],
        ProxyRoles: ['Administrator'],
        AdditionalPermissions: [],
        Duration: 60,
      },
    },
  });
  expect(held.ok(), await held.text()).toBe(true);

  // the Support requester cannot list that request, yet is not offered its role
  await signIn(page, asker.email, asker.password);
  await page.goto(`/manage-customer/impersonate?uid=${ADA.uid}&appId=${appId}`);
  const roles = page.getByRole('group', { name: 'Roles' });
  await expect(roles.getByRole('checkbox', { name: 'Developer' })).toBeVisible();
  await expect(roles.getByRole('checkbox', { name: 'Administrator' })).toHaveCount(0);
  await expect(
    page.getByText(/already requested or granted for this app by another request: .*Administrator/),
  ).toBeVisible();
});
