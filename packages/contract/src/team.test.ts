import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.ts';
import { BUILT_IN_ROLES } from './permissions.ts';
import {
  assignableRoles,
  canManageStaff,
  createSuperUserBody,
  rolesToUnassign,
  updateRolesBody,
} from './team.ts';

const ALL = ['SuperAdmin', 'Admin', 'Support', 'Auditor'];
const who = (uid: string, roles: string[]) => ({ uid, roles });

describe('canManageStaff', () => {
  it('nobody manages themselves', () => {
    for (const roles of [['SuperAdmin'], ['Admin'], ['Support']]) {
      expect(canManageStaff(who('a', roles), who('a', roles))).toBe(false);
    }
  });
  it('a SuperAdmin manages everyone else, other SuperAdmins included', () => {
    for (const t of [['SuperAdmin'], ['Admin'], ['Support'], []])
      expect(canManageStaff(who('a', ['SuperAdmin']), who('b', t))).toBe(true);
  });
  it('an Admin manages only staff holding neither Admin nor SuperAdmin', () => {
    expect(canManageStaff(who('a', ['Admin']), who('b', ['Support']))).toBe(true);
    expect(canManageStaff(who('a', ['Admin']), who('b', ['Support', 'Admin']))).toBe(false);
    expect(canManageStaff(who('a', ['Admin']), who('b', ['SuperAdmin']))).toBe(false);
  });
  it('other roles manage nobody', () => {
    expect(canManageStaff(who('a', ['Support']), who('b', ['Auditor']))).toBe(false);
  });
});

describe('assignableRoles', () => {
  it('never offers SuperAdmin at creation', () => {
    for (const actor of [['SuperAdmin'], ['Admin'], ['SuperAdmin', 'Admin']]) {
      expect(assignableRoles(actor, ALL, 'create')).not.toContain('SuperAdmin');
    }
    expect(assignableRoles(['SuperAdmin'], ALL, 'create')).toEqual(['Admin', 'Support', 'Auditor']);
  });
  it('lets a SuperAdmin grant SuperAdmin through a role change', () => {
    expect(assignableRoles(['SuperAdmin'], ALL, 'update')).toEqual(ALL);
  });
  it('an Admin gives neither Admin nor SuperAdmin; others give nothing', () => {
    expect(assignableRoles(['Admin'], ALL, 'update')).toEqual(['Support', 'Auditor']);
    expect(assignableRoles(['Support'], ALL, 'create')).toEqual([]);
  });

  it("keeps a non-SuperAdmin to roles whose every permission they hold (a custom role's too)", () => {
    const matrix = {
      ...BUILT_IN_ROLES,
      'Support EU': { permissions: ['customers.read'] },
      'Trail Readers': { permissions: ['audit.read'] },
    };
    const all = [...ALL, 'Support EU', 'Trail Readers'];
    expect(assignableRoles(['Admin'], all, 'update', matrix)).toEqual(['Support', 'Support EU']);
    expect(assignableRoles(['SuperAdmin'], all, 'update', matrix)).toEqual(all);
  });

  it('never turns a permission the giver holds only in a scope into a wider one by giving it', () => {
    const eu = { dataCenters: ['eu-central', 'eu-west'], plans: null };
    const matrix = {
      ...BUILT_IN_ROLES,
      'EU approvers': { permissions: ['impersonation.approve'], scope: eu },
      'All approvers': { permissions: ['impersonation.approve'], scope: null },
      'Frankfurt approvers': {
        permissions: ['impersonation.approve'],
        scope: { dataCenters: ['eu-central'], plans: ['Free'] },
      },
      'US approvers': {
        permissions: ['impersonation.approve'],
        scope: { dataCenters: ['us-east'], plans: null },
      },
      // Admin holds sites.read everywhere: any scope of it is theirs to give
      'Sites US': { permissions: ['sites.read'], scope: { dataCenters: ['us-east'], plans: null } },
    };
    const all = [...ALL, ...Object.keys(matrix).filter((r) => !ALL.includes(r))];
    expect(assignableRoles(['Admin', 'EU approvers'], all, 'update', matrix)).toEqual([
      'Support',
      'EU approvers',
      'Frankfurt approvers',
      'Sites US',
    ]);
  });
});

describe('rolesToUnassign', () => {
  it('is every role not chosen', () => {
    expect(rolesToUnassign(ALL, ['Support'])).toEqual(['SuperAdmin', 'Admin', 'Auditor']);
    expect(rolesToUnassign(ALL, ALL)).toEqual([]);
  });
});

describe('create and update schemas', () => {
  it('needs an email and at least one role, name optional and trimmed', () => {
    const bad = createSuperUserBody.safeParse({ email: '', role: [] });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages).toContain(MESSAGES.emailRequired);
    expect(messages).toContain('Roles field is required.');
    expect(createSuperUserBody.parse({ email: ' a@example.com ', role: ['Support'] })).toEqual({
      email: 'a@example.com',
      role: ['Support'],
      name: '',
    });
    expect(
      createSuperUserBody.safeParse({ email: 'a@example', role: ['Support'] }).error?.issues[0]?.message,
    ).toBe(MESSAGES.emailInvalid);
  });
  it('refuses a role both assigned and unassigned', () => {
    const r = updateRolesBody.safeParse({
      role: ['Support'],
      unAssignRoles: ['Support'],
      uid: '00000000-0000-4000-8000-000000000000',
    });
    expect(r.success).toBe(false);
  });
});
