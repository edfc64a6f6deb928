import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

const NotificationSettingsPage = lazy(() =>
  withPhrases(['staffNotifications'], import('./components/notification-settings-page.tsx')),
);

export const staffNotificationRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.notificationSettings.path,
    access: 'session',
    label: { ns: 'staffNotifications', key: 'settingsHeading' },
    element: <NotificationSettingsPage />,
  },
];
