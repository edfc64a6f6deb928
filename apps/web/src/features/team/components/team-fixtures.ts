import type { SuperUser } from '@sac/contract/team';

/** Fixtures of the team screens' tests: the roles and super users the stubbed API answers. */
export const ROLES = [
  {
    Name: 'SuperAdmin',
    Description: 'Runs the platform.',
    Permissions: ['team.read', 'team.write', 'customers.read'],
    BuiltIn: true,
    Scope: null,
    HolderCount: 1,
    Version: 1,
  },
  {
    Name: 'Admin',
    Description: 'Runs customers.',
    Permissions: ['team.read', 'team.write', 'customers.read'],
    BuiltIn: true,
    Scope: null,
    HolderCount: 2,
    Version: 1,
  },
  {
    Name: 'Support',
    Description: 'Reads customers.',
    Permissions: ['customers.read'],
    BuiltIn: true,
    Scope: null,
    HolderCount: 1,
    Version: 1,
  },
];

export const user = (
  uid: string,
  email: string,
  roles: string[],
  extra: Partial<SuperUser> = {},
): SuperUser => ({
  Uid: uid,
  FullName: email.split('@')[0]!,
  Email: [{ Type: 'Primary', Value: email }],
  Roles: roles,
  CreatedDate: '2024-03-07T10:00:00.000Z',
  LastLoginDate: null,
  Version: 1,
  ...extra,
});
