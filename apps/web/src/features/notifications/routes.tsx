import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const NotificationsPage = lazy(() => import('./components/notifications-page.tsx'));

export const notificationsRoutes: readonly AppRoute[] = [
  { path: 'manage-notifications', access: 'session', element: <NotificationsPage /> },
];
