import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppSection } from '../../lib/app-route.ts';

const ManageSuperuserPage = lazy(() => import('./components/manage-superuser-page.tsx'));
const CreateSuperuserPage = lazy(() => import('./components/create-superuser-page.tsx'));
const PermissionsPage = lazy(() => import('./components/permissions-page.tsx'));
const RolesPage = lazy(() => import('./components/roles-page.tsx'));
const SingleSignOnPage = lazy(() => import('./components/single-sign-on-page.tsx'));
const SuperuserProfilePage = lazy(() => import('./components/superuser-profile-page.tsx'));

/**
 * /manage-superuser: list (default), create, the permission list, role details and staff
 * profiles; the app adds the impersonation and audit tabs, and opens the first tab the viewer may
 * open at the section's own address.
 */
export const teamSection: AppSection = {
  path: consolePaths.team.path,
  access: 'session',
  label: { ns: 'team', key: 'section' },
  children: [
    {
      path: consolePaths.superusers.path,
      access: 'team.read',
      label: { ns: 'team', key: 'manageSuperuser' },
      element: <ManageSuperuserPage />,
    },
    {
      path: consolePaths.createSuperuser.path,
      access: 'team.write',
      label: { ns: 'team', key: 'createSuperuser' },
      element: <CreateSuperuserPage />,
    },
    {
      path: consolePaths.singleSignOn.path,
      access: 'sso.manage',
      label: { ns: 'team', key: 'singleSignOn' },
      element: <SingleSignOnPage />,
    },
    {
      path: consolePaths.permissions.path,
      access: 'session',
      label: { ns: 'team', key: 'permissionList' },
      tab: false,
      element: <PermissionsPage />,
    },
    {
      path: consolePaths.roles.path,
      access: 'session',
      label: { ns: 'team', key: 'roleDetails' },
      tab: false,
      element: <RolesPage />,
    },
    {
      // Anyone opens their own profile; whose else, the server decides (spec section 6).
      path: consolePaths.superuserProfile.path,
      access: 'session',
      label: { ns: 'team', key: 'profile' },
      tab: false,
      element: <SuperuserProfilePage />,
    },
  ],
};
