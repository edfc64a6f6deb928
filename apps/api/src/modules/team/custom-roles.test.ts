import { CUSTOM_ROLE_MESSAGES } from '@sac/contract/custom-roles';
import { ERRORS } from '@sac/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomer, insertSite } from '../../../test/customer-fixtures.ts';
import { CONSOLE_ORIGIN, createTestApp, type SessionPair, type TestApp } from '../../../test/harness.ts';
import { insertRequest } from '../../../test/impersonation-fixtures.ts';

let t: TestApp;
let sa: SessionPair;
let admin: SessionPair;
let euOwner: string;
let usOwner: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.addStaff('sa@example.com', ['SuperAdmin']);
  await t.addStaff('admin@example.com', ['Admin']);
  sa = await t.login('sa@example.com');
  admin = await t.login('admin@example.com');
  euOwner = await insertCustomer(t.db, { first: 'Eva', last: 'Europe', email: 'eva@example.com' });
  usOwner = await insertCustomer(t.db, { first: 'Sam', last: 'States', email: 'sam@example.com' });
  await insertSite(t.db, { owner: euOwner, name: 'eu-shop' });
  const us = await insertSite(t.db, { owner: usOwner, name: 'us-shop' });
  await t.db.query("UPDATE sites SET data_center = 'us-east' WHERE app_id = $1", [us.appId]);
});
afterAll(() => t.close());

type Body = Record<string, unknown>;
const role = (over: Body = {}): Body => ({
  Name: 'Support EU',
  Description: 'Support for customers in the EU',
  Permissions: ['customers.read', 'sites.read'],
  Scope: { DataCenters: ['eu-central'], Plans: null },
  ...over,
});
const create = (body: Body, session = sa) => t.callLoose('customRoleCreate', { session, body });
const update = (body: Body, version?: number, session = sa) =>
  t.callLoose('customRoleUpdate', {
    session,
    body,
    headers: version === undefined ? {} : { 'if-match': `"${version}"` },
  });
const remove = (Name: string, session = sa) => t.callLoose('customRoleDelete', { session, body: { Name } });
const listed = async (name: string) =>
  (await t.call('teamRoles', { session: admin })).body.Data.find((r) => r.Name === name);
const trail = async (action: string, name: string) =>
  (
    await t.db.query<{ details: Record<string, unknown> }>(
      'SELECT details FROM activity_log WHERE action = $1 AND target_id = $2 ORDER BY id',
      [action, name],
    )
  ).rows.map((r) => r.details);
const fieldError = (r: Awaited<ReturnType<typeof create>>) => r.error.FieldErrors?.[0];

describe('POST /admin/team/custom-roles', () => {
  it('defines a scoped role, lists it with its scope and holders, and records it', async () => {
    const r = await create(role());
    expect(r.status, r.raw.body).toBe(200);
    const want = {
      Name: 'Support EU',
      Description: 'Support for customers in the EU',
      Permissions: ['customers.read', 'sites.read'],
      BuiltIn: false,
      Scope: { DataCenters: ['eu-central'], Plans: null },
      HolderCount: 0,
      Version: 1,
    };
    expect(r.body.Data).toEqual(want);
    expect(await listed('Support EU')).toEqual(want);
    const all = await t.call('teamRoles', { session: admin });
    expect(all.body.DataCenters).toContainEqual({ Code: 'eu-central', Name: 'EU Central (Frankfurt)' });
    expect((await listed('Support'))!.Scope).toBeNull();
    expect(await trail('role.create', 'Support EU')).toEqual([
      {
        after: {
          description: 'Support for customers in the EU',
          permissions: ['customers.read', 'sites.read'],
          dataCenters: ['eu-central'],
          plans: null,
        },
      },
    ]);
  });

  it.each([
    ['an empty name', { Name: '   ' }, 'Name', CUSTOM_ROLE_MESSAGES.nameRequired],
    ['a name over 60 characters', { Name: 'x'.repeat(61) }, 'Name', CUSTOM_ROLE_MESSAGES.nameTooLong],
    ["a built-in role's name in any case", { Name: ' admin ' }, 'Name', CUSTOM_ROLE_MESSAGES.nameBuiltIn],
    ['no permissions', { Permissions: [] }, 'Permissions', CUSTOM_ROLE_MESSAGES.permissionsRequired],
    [
      'an unknown permission',
      { Permissions: ['root'] },
      'Permissions.0',
      CUSTOM_ROLE_MESSAGES.permissionUnknown,
    ],
    [
      'a scoped role with a platform permission',
      { Permissions: ['customers.read', 'team.read', 'audit.read'] },
      'Permissions',
      CUSTOM_ROLE_MESSAGES.notScopable(['team.read', 'audit.read']),
    ],
    [
      'an empty data-center list',
      { Scope: { DataCenters: [], Plans: ['Free'] } },
      'Scope.DataCenters',
      CUSTOM_ROLE_MESSAGES.dataCentersEmpty,
    ],
    [
      'an empty plan list',
      { Scope: { DataCenters: null, Plans: [] } },
      'Scope.Plans',
      CUSTOM_ROLE_MESSAGES.plansEmpty,
    ],
    [
      'an unknown plan',
      { Scope: { DataCenters: null, Plans: ['Gold'] } },
      'Scope.Plans.0',
      CUSTOM_ROLE_MESSAGES.planUnknown,
    ],
    [
      'an unknown data center',
      { Scope: { DataCenters: ['eu-central', 'moon-1'], Plans: null } },
      'Scope.DataCenters',
      CUSTOM_ROLE_MESSAGES.dataCenterUnknown(['moon-1']),
    ],
    [
      "the SuperAdmin's own sso.manage (its holder could map a group of theirs to SuperAdmin)",
      { Permissions: ['sso.manage', 'audit.read'], Scope: null },
      'Permissions',
      CUSTOM_ROLE_MESSAGES.superAdminOnly,
    ],
    [
      "the SuperAdmin's own webhooks.manage (a subscription reads and sends out every site's trail)",
      { Permissions: ['webhooks.manage'], Scope: null },
      'Permissions',
      CUSTOM_ROLE_MESSAGES.superAdminOnly,
    ],
  ])('refuses %s (400, by field)', async (_what, over, field, message) => {
    const r = await create(role({ Name: 'Refused', ...over }));
    expect(r.status).toBe(400);
    expect(fieldError(r)).toEqual({ Field: field, Message: message });
    expect(await listed('Refused')).toBeUndefined();
  });

  it('refuses a name taken whatever its case (409, 1120)', async () => {
    const r = await create(role({ Name: '  support eu ' }));
    expect(r.status).toBe(409);
    expect(r.error.ErrorCode).toBe(ERRORS.roleNameTaken.code);
    expect(fieldError(r)).toEqual({ Field: 'Name', Message: CUSTOM_ROLE_MESSAGES.nameTaken });
  });

  it('takes an unscoped role with any permissions; a scope with both axes open is none', async () => {
    const r = await create(
      role({ Name: 'Trail Readers', Permissions: ['audit.read'], Scope: { DataCenters: null, Plans: null } }),
    );
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Data.Scope).toBeNull();
  });

  it('is for SuperAdmins only: an Admin (team.write) is refused, 902, and it is recorded', async () => {
    const r = await create(role({ Name: 'By Admin' }), admin);
    expect(r.status).toBe(403);
    expect(r.error.ErrorCode).toBe(ERRORS.forbidden.code);
    expect(await listed('By Admin')).toBeUndefined();
    const refused = await t.db.query(
      "SELECT 1 FROM activity_log WHERE action = 'access.refused' AND actor_email = 'admin@example.com' AND details->>'missing' = 'SuperAdmin'",
    );
    expect(refused.rows.length).toBe(1);
  });
});

describe('PUT /admin/team/custom-roles', () => {
  it('changes the definition at the version read, refuses a stale one (412, 930), and records both sides', async () => {
    await create(role({ Name: 'Plans Only', Permissions: ['sites.read'], Scope: { Plans: ['Free'] } }));
    const edited = role({
      Name: 'Plans Only',
      Description: 'Free and Developer sites',
      Permissions: ['sites.read', 'sites.write'],
      Scope: { DataCenters: null, Plans: ['Developer', 'Free'] },
    });
    const r = await update(edited, 1);
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Data).toMatchObject({
      Version: 2,
      Permissions: ['sites.read', 'sites.write'],
      Scope: { DataCenters: null, Plans: ['Free', 'Developer'] },
    });
    const stale = await update({ ...edited, Description: 'mine' }, 1);
    expect(stale.status).toBe(412);
    expect(stale.error.ErrorCode).toBe(ERRORS.conflict.code);
    expect((await listed('Plans Only'))!.Description).toBe('Free and Developer sites');
    const [row] = await trail('role.update', 'Plans Only');
    expect(row).toEqual({
      before: {
        description: 'Support for customers in the EU',
        permissions: ['sites.read'],
        dataCenters: null,
        plans: ['Free'],
      },
      after: {
        description: 'Free and Developer sites',
        permissions: ['sites.read', 'sites.write'],
        dataCenters: null,
        plans: ['Free', 'Developer'],
      },
      holders: 0,
    });
  });

  it('refuses a built-in role (409, 1121) and a role that does not exist (404)', async () => {
    const builtIn = await update(role({ Name: 'Support', Scope: null }));
    expect(builtIn.status).toBe(409);
    expect(builtIn.error.ErrorCode).toBe(ERRORS.builtInRoleFixed.code);
    const none = await update(role({ Name: 'Nobody Has This' }));
    expect(none.status).toBe(404);
    expect(none.error.Description).toBe(CUSTOM_ROLE_MESSAGES.noSuchRole);
    const del = await remove('Auditor');
    expect(del.status).toBe(409);
    expect(del.error.ErrorCode).toBe(ERRORS.builtInRoleFixed.code);
  });

  it("reaches its holders' live sessions and tokens at once: the next call has the new scope and permissions", async () => {
    await create(role({ Name: 'Readers', Permissions: ['customers.read'] }));
    await t.addStaff('reader@example.com', ['Readers']);
    const reader = await t.login('reader@example.com');
    const profile = (uid: string) => t.call('customerProfile', { session: reader, query: { uid } });
    const made = await t.call('apiTokenCreate', {
      session: reader,
      body: { Name: 'Reader token', ExpiresInDays: 7, Permissions: ['customers.read'] },
    });
    expect(made.status, made.raw.body).toBe(200);
    const byToken = (uid: string) =>
      t.call('customerProfile', { query: { uid }, headers: { authorization: `Bearer ${made.body.Token}` } });
    expect((await profile(euOwner)).status).toBe(200);
    expect((await byToken(usOwner)).status).toBe(403);
    const outside = await profile(usOwner);
    expect(outside.status).toBe(403);
    expect(outside.error.ErrorCode).toBe(ERRORS.outOfScope.code);

    // the scope widened: the same session reaches the US customer
    const v2 = await update(role({ Name: 'Readers', Permissions: ['customers.read'], Scope: null }), 1);
    expect(v2.body.Data.HolderCount).toBe(1);
    expect((await profile(usOwner)).status).toBe(200);
    expect((await byToken(usOwner)).status).toBe(200);

    // the permission taken: the same session is refused
    await update(role({ Name: 'Readers', Permissions: ['sites.read'], Scope: null }), 2);
    const gone = await profile(euOwner);
    expect(gone.status).toBe(403);
    expect(gone.error.ErrorCode).toBe(ERRORS.forbidden.code);
    expect((await byToken(euOwner)).status).toBe(403);
  });
});

describe('DELETE /admin/team/custom-roles', () => {
  it('is refused while staff hold it or a group maps to it, naming how many; then deletes and records', async () => {
    await create(role({ Name: 'Short Lived' }));
    const u1 = await t.addStaff('held1@example.com', ['Short Lived']);
    await t.addStaff('held2@example.com', ['Short Lived', 'Support']);
    const held = await remove('Short Lived');
    expect(held.status).toBe(409);
    expect(held.error.ErrorCode).toBe(ERRORS.roleInUse.code);
    expect(held.error.Description).toBe(CUSTOM_ROLE_MESSAGES.roleHeld(2));

    await t.db.query("DELETE FROM staff_roles WHERE role = 'Short Lived'");
    await t.db.query(
      "INSERT INTO staff_group_roles (group_value, role) VALUES ('eu-support', 'Short Lived')",
    );
    const mapped = await remove('Short Lived');
    expect(mapped.status).toBe(409);
    expect(mapped.error.Description).toBe(CUSTOM_ROLE_MESSAGES.roleMapped(1));

    await t.db.query("DELETE FROM staff_group_roles WHERE role = 'Short Lived'");
    const r = await remove('Short Lived');
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body).toEqual({ IsDeleted: true, Name: 'Short Lived' });
    expect(await listed('Short Lived')).toBeUndefined();
    expect(await trail('role.delete', 'Short Lived')).toHaveLength(1);
    expect(u1).toBeTruthy();
    expect((await remove('Short Lived')).status).toBe(404);
  });
});

describe('giving custom roles', () => {
  it('a SuperAdmin gives one through the team screens; the holder count follows', async () => {
    const r = await t.callLoose('teamCreate', {
      session: sa,
      body: { role: ['Support EU'], email: 'eu-agent@example.com', name: 'EU Agent' },
      headers: { origin: CONSOLE_ORIGIN },
    });
    expect(r.status, r.raw.body).toBe(200);
    expect((await listed('Support EU'))!.HolderCount).toBe(1);
  });

  it('an Admin gives only roles whose every permission they hold (935 otherwise)', async () => {
    // within Admin's permissions: given
    const ok = await t.callLoose('teamCreate', {
      session: admin,
      body: { role: ['Support EU'], email: 'by-admin@example.com', name: 'By Admin' },
      headers: { origin: CONSOLE_ORIGIN },
    });
    expect(ok.status, ok.raw.body).toBe(200);
    // audit.read is not Admin's: neither the custom role nor the built-in Auditor
    for (const name of ['Trail Readers', 'Auditor']) {
      const r = await t.callLoose('teamCreate', {
        session: admin,
        body: { role: [name], email: `no-${name.length}@example.com`, name: 'No' },
        headers: { origin: CONSOLE_ORIGIN },
      });
      expect(r.status).toBe(403);
      expect(r.error.ErrorCode).toBe(ERRORS.roleNotAssignable.code);
      expect(r.error.Description).toContain(name);
    }
    const change = await t.call('teamUpdateRoles', {
      session: admin,
      body: { uid: ok.body.Data.Uid, role: ['Trail Readers'], unAssignRoles: ['Support EU'] },
    });
    expect(change.status).toBe(403);
    expect(change.error.ErrorCode).toBe(ERRORS.roleNotAssignable.code);
  });
});

describe('a sensitive act', () => {
  it('a SuperAdmin gives a custom role by a role change too', async () => {
    const uid = await t.addStaff('changed@example.com', ['Support']);
    const r = await t.call('teamUpdateRoles', {
      session: sa,
      body: { uid, role: ['Support EU'], unAssignRoles: ['Support'] },
    });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body.Data.Roles).toEqual(['Support EU']);
  });

  it('asks for a recent sign-in (911) before any custom-role write, and writes nothing', async () => {
    await t.addStaff('late@example.com', ['SuperAdmin']);
    const late = await t.login('late@example.com');
    t.clock.advance(11 * 60_000);
    for (const r of [
      await create(role({ Name: 'Too Late' }), late),
      await update(role({ Name: 'Support EU' }), undefined, late),
      await remove('Trail Readers', late),
    ]) {
      expect(r.status).toBe(403);
      expect(r.error.ErrorCode).toBe(ERRORS.stepUpRequired.code);
    }
    expect(await listed('Too Late')).toBeUndefined();
    expect(await listed('Trail Readers')).toBeDefined();
  });
});

describe('a role that comes to approve impersonation', () => {
  it('holds its holders to the approver cool-down as a new grant would (948)', async () => {
    // a SuperAdmin just signed in (the writes need a recent sign-in; earlier tests moved the clock)
    sa = await t.login('sa@example.com');
    expect(
      (await create(role({ Name: 'Late Approvers', Permissions: ['impersonation.request'], Scope: null })))
        .status,
    ).toBe(200);
    await t.addStaff('edited-approver@example.com', ['Late Approvers']);
    const edited = await update(
      role({
        Name: 'Late Approvers',
        Permissions: ['impersonation.request', 'impersonation.approve'],
        Scope: null,
      }),
    );
    expect(edited.status, edited.raw.body).toBe(200);
    const { appId } = await insertSite(t.db, { owner: euOwner, name: 'late-approvals' });
    const { id } = await insertRequest(t.db, {
      appId,
      initiator: 'admin@example.com',
      assignees: ['edited-approver@example.com'],
      consent: 'granted',
    });
    const late = await t.login('edited-approver@example.com');
    const r = await t.call('impersonationAction', {
      session: late,
      query: { requestId: String(id) },
      body: { Status: 'Approve', ProxyRoles: ['Developer'], AdditionalPermissions: [], Duration: 30 },
    });
    expect(r.status, r.raw.body).toBe(403);
    expect(r.error.ErrorCode).toBe(948);
  });
});
