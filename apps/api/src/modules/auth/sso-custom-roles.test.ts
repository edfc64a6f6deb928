import { CUSTOM_ROLE_MESSAGES } from '@sac/contract/custom-roles';
import { ERRORS } from '@sac/contract/errors';
import { SSO_CALLBACK_PATH } from '@sac/contract/sso';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_ORIGIN, createTestApp, type TestApp } from '../../../test/harness.ts';
import { startOidcProvider, type TestOidcProvider } from '../../../test/oidc-provider.ts';

/**
 * The group-to-role table of single sign-on (and SCIM) maps groups to custom roles as well as to
 * the built-in ones: a sign-in takes the custom role with its scope; a name that is no role is
 * refused; and a mapped custom role cannot be deleted, even by a deletion racing the save.
 */

let t: TestApp;
let op: TestOidcProvider;
let admin: { xtoken: string; xsign: string };
const ADDRESS = '198.51.100.8';

beforeAll(async () => {
  t = await createTestApp({ ssoKeyCooldownMs: 0, ssoAllowHttpIssuer: true });
  op = await startOidcProvider({
    redirectUris: [`${CONSOLE_ORIGIN}${SSO_CALLBACK_PATH}`],
    users: { eve: { email: 'eve@example.com', groups: ['eu-support'] } },
  });
  await t.addStaff('root@example.com', ['SuperAdmin']);
  await t.addStaff('eve@example.com', ['Support']);
  admin = await t.login('root@example.com');
  const made = await t.callLoose('customRoleCreate', {
    session: admin,
    body: {
      Name: 'Support EU',
      Description: 'Support for customers in the EU',
      Permissions: ['customers.read', 'sites.read'],
      Scope: { DataCenters: ['eu-central'], Plans: null },
    },
  });
  expect(made.status, made.raw.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await op.close();
});

function saveTable(GroupRoles: { Group: string; Role: string }[]) {
  return t.callLoose('ssoSettingsUpdate', {
    session: admin,
    body: {
      Enabled: true,
      Name: 'Test IdP',
      Issuer: op.issuer,
      ClientId: op.clientId,
      ClientSecret: op.clientSecret,
      GroupsClaim: 'groups',
      CreateOnFirstSignIn: false,
      SecondFactorValues: [],
      PasswordSignIn: true,
      BreakGlassEmail: null,
      GroupRoles,
    },
  });
}

async function ssoSignIn(login: string) {
  const started = await t.call('ssoStart', { remoteAddress: ADDRESS });
  const back = await op.signIn(started.body.Url, login);
  return t.callLoose('ssoFinish', {
    body: {
      Code: back.get('code') ?? 'none',
      State: back.get('state') ?? 'none',
      Binder: started.body.Binder,
    },
    remoteAddress: ADDRESS,
  });
}

describe('single sign-on groups mapped to custom roles', () => {
  it('saves a custom role in the table, lists it, and signs a member of the group in with it', async () => {
    const saved = await saveTable([{ Group: 'eu-support', Role: 'Support EU' }]);
    expect(saved.status, saved.raw.body).toBe(200);
    const read = await t.call('ssoSettings', { session: admin });
    expect(read.body.GroupRoles).toEqual([{ Group: 'eu-support', Role: 'Support EU' }]);
    const r = await ssoSignIn('eve');
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body).toMatchObject({ Email: 'eve@example.com', Role: ['Support EU'] });
  });

  it('refuses a role that does not exist, naming it, and keeps the table as it was', async () => {
    const r = await saveTable([{ Group: 'eu-support', Role: 'No Such Role' }]);
    expect(r.status).toBe(400);
    expect(r.raw.body).toContain('There is no role No Such Role.');
    const read = await t.call('ssoSettings', { session: admin });
    expect(read.body.GroupRoles).toEqual([{ Group: 'eu-support', Role: 'Support EU' }]);
  });

  it('refuses to delete a mapped custom role, and a deletion racing a save leaves no row mapped to nothing', async () => {
    const held = await t.callLoose('customRoleDelete', { session: admin, body: { Name: 'Support EU' } });
    expect(held.status).toBe(409);
    expect(held.error.ErrorCode).toBe(ERRORS.roleInUse.code);

    const made = await t.callLoose('customRoleCreate', {
      session: admin,
      body: { Name: 'Raced', Description: 'x', Permissions: ['customers.read'], Scope: null },
    });
    expect(made.status, made.raw.body).toBe(200);
    await saveTable([{ Group: 'eu-support', Role: 'Support EU' }]);
    const [save, del] = await Promise.all([
      saveTable([
        { Group: 'eu-support', Role: 'Support EU' },
        { Group: 'raced', Role: 'Raced' },
      ]),
      t.callLoose('customRoleDelete', { session: admin, body: { Name: 'Raced' } }),
    ]);
    // one of them wins, the other is refused with its reason; never both, never a 500
    if (save.status === 200) {
      expect(del.status).toBe(409);
      expect(del.error.Description).toBe(CUSTOM_ROLE_MESSAGES.roleMapped(1));
    } else {
      expect(save.status).toBe(400);
      expect(save.raw.body).toContain('There is no role Raced.');
      expect(del.status).toBe(200);
    }
    const mapped = await t.db.query(
      'SELECT g.role FROM staff_group_roles g LEFT JOIN roles r ON r.name = g.role WHERE r.name IS NULL',
    );
    expect(mapped.rows).toEqual([]);
  });
});
