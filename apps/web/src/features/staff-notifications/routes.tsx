import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const NotificationSettingsPage = lazy(() => import('./components/notification-settings-page.tsx'));

export const staffNotificationRoutes: readonly AppRoute[] = [
  {
    path: 'account/notifications',
    access: 'session',
    label: { ns: 'staffNotifications', key: 'settingsHeading' },
    element: <NotificationSettingsPage />,
  },
];
