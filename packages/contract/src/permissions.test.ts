import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_ROLES,
  PERMISSIONS,
  permissionsOf,
  ROLE_ADMIN,
  ROLE_AUDITOR,
  ROLE_SUPER_ADMIN,
  ROLE_SUPPORT,
} from './permissions.ts';

describe('PERMISSIONS', () => {
  it('has no duplicates', () => {
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });
});

describe('BUILT_IN_ROLES', () => {
  it("names the spec's roles SuperAdmin and Admin", () => {
    expect(ROLE_SUPER_ADMIN).toBe('SuperAdmin');
    expect(ROLE_ADMIN).toBe('Admin');
    expect(Object.keys(BUILT_IN_ROLES)).toEqual(expect.arrayContaining(['SuperAdmin', 'Admin']));
  });

  it('gives SuperAdmin every permission', () => {
    const held = new Set(BUILT_IN_ROLES[ROLE_SUPER_ADMIN]?.permissions);
    for (const p of PERMISSIONS) expect(held.has(p)).toBe(true);
  });

  it('gives Admin every permission except impersonation.approve, audit.read, sso.manage and webhooks.manage', () => {
    const held = new Set(BUILT_IN_ROLES[ROLE_ADMIN]?.permissions);
    expect(held.has('impersonation.approve')).toBe(false);
    expect(held.has('impersonation.request')).toBe(true);
    expect([...held].sort()).toEqual(
      PERMISSIONS.filter(
        (p) =>
          p !== 'impersonation.approve' &&
          p !== 'audit.read' &&
          p !== 'sso.manage' &&
          p !== 'webhooks.manage',
      ).sort(),
    );
  });

  it('lets SuperAdmin and the read-only Auditor read the audit trail, and the Auditor nothing that writes', () => {
    const readers = Object.entries(BUILT_IN_ROLES)
      .filter(([, r]) => r.permissions.includes('audit.read'))
      .map(([name]) => name);
    expect(readers.sort()).toEqual([ROLE_AUDITOR, ROLE_SUPER_ADMIN].sort());
    for (const p of BUILT_IN_ROLES[ROLE_AUDITOR]!.permissions) expect(p).toMatch(/\.read$/);
  });

  it('lets SuperAdmin and Admin send customer notices, not Support or the Auditor', () => {
    const senders = Object.entries(BUILT_IN_ROLES)
      .filter(([, r]) => r.permissions.includes('notices.send'))
      .map(([name]) => name);
    expect(senders.sort()).toEqual([ROLE_ADMIN, ROLE_SUPER_ADMIN].sort());
  });

  it('lets only SuperAdmin approve impersonation', () => {
    const approvers = Object.entries(BUILT_IN_ROLES)
      .filter(([, r]) => r.permissions.includes('impersonation.approve'))
      .map(([name]) => name);
    expect(approvers).toEqual([ROLE_SUPER_ADMIN]);
  });

  it('gives Support read access and impersonation requests, nothing that writes', () => {
    const held = BUILT_IN_ROLES[ROLE_SUPPORT]?.permissions ?? [];
    expect(held).toContain('impersonation.request');
    expect(held.some((p) => p.endsWith('.write'))).toBe(false);
    expect(held).not.toContain('impersonation.approve');
  });

  it('grants only known permissions, each once per role, and describes each role', () => {
    for (const role of Object.values(BUILT_IN_ROLES)) {
      for (const p of role.permissions) expect(PERMISSIONS).toContain(p);
      expect(new Set(role.permissions).size).toBe(role.permissions.length);
      expect(role.description.length).toBeGreaterThan(0);
    }
  });
});

describe('permissionsOf', () => {
  it('is empty for no roles', () => {
    expect(permissionsOf([]).size).toBe(0);
  });

  it('is every permission for SuperAdmin', () => {
    expect([...permissionsOf([ROLE_SUPER_ADMIN])].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('unions the permissions of several roles', () => {
    const matrix = {
      A: { permissions: ['p1', 'p2'] },
      B: { permissions: ['p2', 'p3'] },
      C: { permissions: ['p4'] },
    };
    expect([...permissionsOf(['A', 'B'], matrix)].sort()).toEqual(['p1', 'p2', 'p3']);
    expect([...permissionsOf(['C', 'A'], matrix)].sort()).toEqual(['p1', 'p2', 'p4']);
  });

  it('gives Admin plus SuperAdmin every permission', () => {
    expect(permissionsOf([ROLE_ADMIN, ROLE_SUPER_ADMIN]).size).toBe(PERMISSIONS.length);
  });

  it('adds approval when SuperAdmin joins Admin', () => {
    expect(permissionsOf([ROLE_ADMIN]).has('impersonation.approve')).toBe(false);
    expect(permissionsOf([ROLE_ADMIN, ROLE_SUPER_ADMIN]).has('impersonation.approve')).toBe(true);
  });

  it('ignores unknown roles and repeated roles', () => {
    expect(permissionsOf(['NoSuchRole']).size).toBe(0);
    expect(permissionsOf([ROLE_SUPPORT, 'NoSuchRole', ROLE_SUPPORT])).toEqual(permissionsOf([ROLE_SUPPORT]));
  });

  it('matches role names exactly (case-sensitive)', () => {
    expect(permissionsOf(['superadmin']).size).toBe(0);
  });

  it('does not resolve names inherited from Object.prototype as roles', () => {
    expect(permissionsOf(['toString', 'constructor', '__proto__']).size).toBe(0);
  });
});
