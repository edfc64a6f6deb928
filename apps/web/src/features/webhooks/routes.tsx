import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const WebhooksPage = lazy(() => import('./components/webhooks-page.tsx'));
const WebhookPage = lazy(() => import('./components/webhook-page.tsx'));

/** Manage Superuser → Webhooks (webhooks.manage): the subscriptions, and one with its delivery log. */
export const webhookRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.webhooks.path,
    access: 'webhooks.manage',
    label: { ns: 'webhooks', key: 'heading' },
    element: <WebhooksPage />,
  },
  {
    path: consolePaths.webhook.path,
    access: 'webhooks.manage',
    label: { ns: 'webhooks', key: 'subscription' },
    tab: false,
    element: <WebhookPage />,
  },
];
