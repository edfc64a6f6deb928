import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppSection } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

const ManageSuperuserPage = lazy(() =>
  withPhrases(['team'], import('./components/manage-superuser-page.tsx')),
);
const CreateSuperuserPage = lazy(() =>
  withPhrases(['team'], import('./components/create-superuser-page.tsx')),
);
const PermissionsPage = lazy(() => withPhrases(['team'], import('./components/permissions-page.tsx')));
const RolesPage = lazy(() => withPhrases(['team'], import('./components/roles-page.tsx')));
const SingleSignOnPage = lazy(() => withPhrases(['team'], import('./components/single-sign-on-page.tsx')));
const SuperuserProfilePage = lazy(() =>
  withPhrases(['team'], import('./components/superuser-profile-page.tsx')),
);

/**
 * /manage-superuser: list (default), create, the permission list, role details and staff
 * profiles; the app adds the impersonation and audit tabs, and opens the first tab the viewer may
 * open at the section's own address.
 */
export const teamSection: AppSection = {
  path: consolePaths.team.path,
  access: 'session',
  label: { ns: 'chrome', key: 'manageSuperuser' },
  children: [
    {
      path: consolePaths.superusers.path,
      access: 'team.read',
      label: { ns: 'chrome', key: 'manageSuperuser' },
      element: <ManageSuperuserPage />,
    },
    {
      path: consolePaths.createSuperuser.path,
      access: 'team.write',
      label: { ns: 'screens', key: 'createSuperuser' },
      element: <CreateSuperuserPage />,
    },
    {
      path: consolePaths.singleSignOn.path,
      access: 'sso.manage',
      label: { ns: 'screens', key: 'singleSignOn' },
      element: <SingleSignOnPage />,
    },
    {
      path: consolePaths.permissions.path,
      access: 'session',
      label: { ns: 'screens', key: 'permissionList' },
      tab: false,
      element: <PermissionsPage />,
    },
    {
      path: consolePaths.roles.path,
      access: 'session',
      label: { ns: 'screens', key: 'roleDetails' },
      tab: false,
      element: <RolesPage />,
    },
    {
      // Anyone opens their own profile; whose else, the server decides (spec section 6).
      path: consolePaths.superuserProfile.path,
      access: 'session',
      label: { ns: 'screens', key: 'superuserProfile' },
      tab: false,
      element: <SuperuserProfilePage />,
    },
  ],
};
