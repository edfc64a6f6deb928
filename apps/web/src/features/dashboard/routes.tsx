import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const DashboardPage = lazy(() => import('./components/dashboard-page.tsx'));

export const dashboardRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.dashboard.path,
    access: 'session',
    label: { ns: 'dashboard', key: 'heading' },
    element: <DashboardPage />,
  },
];
