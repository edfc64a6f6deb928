import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const NotificationsPage = lazy(() => import('./components/notifications-page.tsx'));
const ComposeNoticePage = lazy(() => import('./components/compose-notice-page.tsx'));
const NoticeDetailsPage = lazy(() => import('./components/notice-details-page.tsx'));
// A public page outside the shell: its words (notifications, common) are in the entry's namespaces.
const UnsubscribePage = lazy(() => import('./components/unsubscribe-page.tsx'));

/** Manage Notfications (spec section 2): customer notices, for holders of notices.send. */
export const notificationsRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.notifications.path,
    access: 'notices.send',
    label: { ns: 'notifications', key: 'heading' },
    element: <NotificationsPage />,
  },
  {
    path: consolePaths.composeNotice.path,
    access: 'notices.send',
    label: { ns: 'notifications', key: 'composeHeading' },
    element: <ComposeNoticePage />,
  },
  {
    path: consolePaths.notice.path,
    access: 'notices.send',
    label: { ns: 'notifications', key: 'detailsHeading' },
    element: <NoticeDetailsPage />,
  },
];

/** The owner's unsubscribe page, public (the link comes in announcement mails). */
export const notificationsPublicRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.unsubscribe.path,
    access: 'public',
    label: { ns: 'notifications', key: 'unsubscribeHeading' },
    element: <UnsubscribePage />,
  },
];
