/**
 * The permission matrix: which permissions exist and which each built-in role holds. The API
 * enforces it on every call; the console reads it only to hide what a user cannot do.
 */
export const PERMISSIONS = [
  'customers.read',
  'customers.write',
  'sites.read',
  'sites.write',
  'team.read',
  'team.write',
  'impersonation.request',
  'impersonation.approve',
  'impersonation.logs.read',
  'site-settings.read',
  'site-settings.write',
  'activity.read',
  'audit.read',
  'notices.send',
  'sso.manage',
  'webhooks.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_SUPER_ADMIN = 'SuperAdmin';
export const ROLE_ADMIN = 'Admin';
export const ROLE_SUPPORT = 'Support';
export const ROLE_AUDITOR = 'Auditor';

/** Built-in roles, created by the first migration; further roles live only on the server. */
export const BUILT_IN_ROLES: Record<string, { description: string; permissions: readonly Permission[] }> = {
  [ROLE_SUPER_ADMIN]: {
    description: 'Runs the platform: manages every staff account and approves impersonation.',
    permissions: PERMISSIONS,
  },
  [ROLE_ADMIN]: {
    description: 'Runs customers, sites and their settings; requests impersonation.',
    permissions: PERMISSIONS.filter(
      (p) =>
        p !== 'impersonation.approve' && p !== 'audit.read' && p !== 'sso.manage' && p !== 'webhooks.manage',
    ),
  },
  [ROLE_SUPPORT]: {
    description: 'Reads customers and sites, their activity, and requests impersonation.',
    permissions: [
      'customers.read',
      'sites.read',
      'site-settings.read',
      'activity.read',
      'impersonation.request',
      'impersonation.logs.read',
    ],
  },
  [ROLE_AUDITOR]: {
    description: 'Reads the staff audit trail and exports it; changes nothing.',
    permissions: ['audit.read', 'activity.read'],
  },
};

/** The union of the permissions that a set of roles grants, given each role's permissions. */
export function permissionsOf(
  roles: readonly string[],
  matrix: Record<string, { permissions: readonly string[] }> = BUILT_IN_ROLES,
): Set<string> {
  const out = new Set<string>();
  for (const role of roles) for (const p of matrix[role]?.permissions ?? []) out.add(p);
  return out;
}

/** What each permission lets a holder do: the console's permission list is built from this. */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  'customers.read': 'Search customers and view their profiles, sites and last logins.',
  'customers.write': 'Create customers and edit their profiles.',
  'sites.read': 'View sites, their plans, features, data centers and databases.',
  'sites.write': 'Add and edit sites, activate or deactivate them.',
  'team.read': 'List super users and open the profiles the profile-access rule allows.',
  'team.write': 'Create super users, change their roles and delete them, within the management rule.',
  'impersonation.request': 'Ask for impersonation of a customer site, and edit or delete own requests.',
  'impersonation.approve': 'Approve, reject and revoke impersonation requests.',
  'impersonation.logs.read': 'Read the impersonation logs.',
  'site-settings.read': 'Read site configuration: security, hashing, custom objects, domains, data sources.',
  'site-settings.write': 'Change site configuration.',
  'activity.read': 'Read activity logs.',
  'audit.read': 'Read the staff audit trail, export it and fetch the key that verifies exports.',
  'notices.send':
    'Write notices to site owners (maintenance, incident, announcement), send or schedule them, cancel scheduled ones and read their delivery logs.',
  'sso.manage':
    'Set up single sign-on: the OpenID provider, its group-to-role table, and whether password sign-in stays on.',
  'webhooks.manage':
    'Subscribe endpoints to events (impersonation, staff, customers, sites, notices), pause, resume and test them, rotate their secrets and read their delivery logs.',
};
