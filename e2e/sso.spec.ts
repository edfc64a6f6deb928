import { expect, type Page, test } from '@playwright/test';
import { startOidcProvider, type TestOidcProvider } from '../apps/api/test/oidc-provider.ts';
import { apiSignIn, createStaff } from './support/api.ts';
import { axeSerious } from './support/axe.ts';
import { BASE_URL } from './support/env.ts';
import { signIn } from './support/sign-in.ts';

/**
 * Single sign-on in the browser against a real OpenID provider run in this process
 * (apps/api/test/oidc-provider.ts): the SuperAdmin sets it up on its screen's API, a staff member
 * signs in with the "Sign in with <name>" button, types their user at the provider, and lands on
 * the dashboard with a session. Single sign-on is switched off again for the specs that follow.
 */

let op: TestOidcProvider;
const EMAIL = `sso-e2e-${Date.now()}@example.com`;
/** A custom role the group table maps to, deleted again once the table no longer does. */
const custom = `SSO Role ${Date.now()}`;

test.beforeAll(async () => {
  op = await startOidcProvider({
    redirectUris: [`${BASE_URL}/sso/callback`],
    users: { ssouser: { email: EMAIL, name: 'Sso User', groups: ['e2e-support'] } },
  });
});
test.afterAll(async ({ request }) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  await request.put('/admin/sso-settings', { headers, data: settings(false) });
  await request.delete('/admin/team/custom-roles', { headers, data: { Name: custom } });
  await op.close();
});

async function noSeriousViolation(page: Page) {
  expect(await axeSerious(page)).toEqual([]);
}

const settings = (enabled: boolean) => ({
  Enabled: enabled,
  Name: 'Test IdP',
  Issuer: op.issuer,
  ClientId: op.clientId,
  ClientSecret: op.clientSecret,
  GroupsClaim: 'groups',
  CreateOnFirstSignIn: false,
  SecondFactorValues: ['mfa'],
  PasswordSignIn: true,
  BreakGlassEmail: null,
  GroupRoles: [{ Group: 'e2e-support', Role: 'Support' }],
});

test('a staff member signs in with the provider button and lands on the dashboard', async ({
  page,
  request,
}) => {
  await createStaff(request, { email: EMAIL, roles: ['Auditor'] });
  const headers = await apiSignIn(request, 'superadmin@example.com');
  const saved = await request.put('/admin/sso-settings', { headers, data: settings(true) });
  expect(saved.status(), await saved.text()).toBe(200);

  await page.goto('/login');
  const button = page.getByRole('button', { name: 'Sign in with Test IdP' });
  await expect(button).toBeVisible();
  // the password form stays beside it while password sign-in is on
  await expect(page.getByLabel('Email')).toBeVisible();
  await noSeriousViolation(page);
  await button.click();
  await expect(page).toHaveURL(new RegExp(`^${op.issuer}/interaction/`));
  await page.getByLabel('User').fill('ssouser');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: EMAIL })).toBeVisible();
  // the provider's group gave the role
  const session = await page.evaluate(async () => {
    const r = await fetch('/admin/session', {
      headers: {
        'X-Requested-With': 'XMLHttpRequest',
        xtoken: localStorage.getItem('lr-admin-token') ?? '',
        xsign: localStorage.getItem('lr-admin-sign') ?? '',
      },
    });
    return (await r.json()) as { Role: string[] };
  });
  expect(session.Role).toEqual(['Support']);
});

test('a callback with an unknown or spent state is refused, with the way back to the sign-in screen', async ({
  page,
}) => {
  await page.goto('/sso/callback?code=used&state=notastate');
  await expect(page.getByRole('alert')).toContainText('Single sign-on did not complete.');
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the SuperAdmin sets single sign-on up on its screen; the secret is never shown', async ({
  page,
  request,
}) => {
  const headers = await apiSignIn(request, 'superadmin@example.com');
  expect((await request.put('/admin/sso-settings', { headers, data: settings(true) })).status()).toBe(200);
  // a custom role is offered in the group table beside the built-in ones
  const made = await request.post('/admin/team/custom-roles', {
    headers,
    data: {
      Name: custom,
      Description: 'Mapped from a provider group',
      Permissions: ['customers.read'],
      Scope: null,
    },
  });
  expect(made.status(), await made.text()).toBe(200);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/single-sign-on');
  await expect(page.getByRole('heading', { level: 1, name: 'Single sign-on' })).toBeVisible();
  await page.getByLabel('Role', { exact: true }).first().selectOption(custom);
  await expect(page.getByLabel('Issuer')).toHaveValue(op.issuer);
  await expect(page.getByLabel('Client secret')).toHaveValue('');
  await noSeriousViolation(page);
  await expect(page.getByText(`${BASE_URL}/sso/callback`)).toBeVisible();
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('The discovery document and 1 signing key(s) were read.')).toBeVisible();
  await page.getByLabel('Name on the sign-in button').fill('Company SSO');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Single sign-on settings saved.')).toBeVisible();
  const saved = await (await request.get('/admin/sso-settings', { headers })).json();
  expect(saved.GroupRoles).toEqual([{ Group: 'e2e-support', Role: custom }]);
});

test('a SuperAdmin makes a SCIM token on the Single sign-on screen, sees it once, and revokes it', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, 'superadmin@example.com');
  await page.goto('/manage-superuser/single-sign-on');
  const card = page.getByRole('region', { name: 'Provisioning (SCIM)' });
  await expect(card).toContainText('/scim/v2');
  await card.getByLabel('Token name').fill('Okta e2e');
  await card.getByRole('button', { name: 'Make a SCIM token' }).click();
  await card.getByRole('button', { name: 'Copy the SCIM token' }).click();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^scim_/);
  const bearer = { Authorization: `Bearer ${token}` };
  expect((await request.get('/scim/v2/ServiceProviderConfig', { headers: bearer })).status()).toBe(200);
  await noSeriousViolation(page);

  const shots = process.env.E2E_SHOTS_DIR;
  if (shots)
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [360, 1024, 1920]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `${shots}/scim-${width}-${scheme}.png`, fullPage: true });
      }

  await card.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(token)).toHaveCount(0);
  await card.getByRole('button', { name: 'Revoke Okta e2e' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('The SCIM token was revoked.')).toBeVisible();
  expect((await request.get('/scim/v2/ServiceProviderConfig', { headers: bearer })).status()).toBe(401);
});
