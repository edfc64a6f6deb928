import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

const WebhooksPage = lazy(() => withPhrases(['webhooks'], import('./components/webhooks-page.tsx')));
const WebhookPage = lazy(() => withPhrases(['webhooks'], import('./components/webhook-page.tsx')));

/** Manage Superuser → Webhooks (webhooks.manage): the subscriptions, and one with its delivery log. */
export const webhookRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.webhooks.path,
    access: 'webhooks.manage',
    label: { ns: 'screens', key: 'webhooks' },
    element: <WebhooksPage />,
  },
  {
    path: consolePaths.webhook.path,
    access: 'webhooks.manage',
    label: { ns: 'screens', key: 'webhookSubscription' },
    tab: false,
    element: <WebhookPage />,
  },
];
