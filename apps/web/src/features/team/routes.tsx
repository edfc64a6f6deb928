import { lazy } from 'react';
import { Navigate } from 'react-router';
import type { AppSection } from '../../lib/app-route.ts';

const TeamPlaceholder = lazy(() => import('./components/team-placeholder.tsx'));

/** /manage-superuser: list (default) and create; the app adds the impersonation tabs. */
export const teamSection: AppSection = {
  path: 'manage-superuser',
  access: 'session',
  label: { ns: 'team', key: 'section' },
  children: [
    { index: true, access: 'team.read', element: <Navigate to="manage-superuser" replace /> },
    {
      path: 'manage-superuser',
      access: 'team.read',
      label: { ns: 'team', key: 'manageSuperuser' },
      element: <TeamPlaceholder screen="manageSuperuser" />,
    },
    {
      path: 'create-superuser',
      access: 'team.write',
      label: { ns: 'team', key: 'createSuperuser' },
      element: <TeamPlaceholder screen="createSuperuser" />,
    },
  ],
};
