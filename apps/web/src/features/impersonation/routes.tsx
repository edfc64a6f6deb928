import { MESSAGES } from '@sac/contract/messages';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const ImpersonationPlaceholder = lazy(() => import('./components/impersonation-placeholder.tsx'));

/** Impersonation screens, mounted by the app under /manage-superuser. */
export const impersonationRoutes: readonly AppRoute[] = [
  {
    path: 'impersonation/logs',
    access: 'impersonation.logs.read',
    label: { ns: 'impersonation', key: 'logs' },
    deniedText: MESSAGES.noImpersonationAccess,
    element: <ImpersonationPlaceholder screen="logs" />,
  },
  {
    path: 'impersonation/assigned-requests',
    access: 'impersonation.request',
    label: { ns: 'impersonation', key: 'assignedRequests' },
    deniedText: MESSAGES.noImpersonationAccess,
    element: <ImpersonationPlaceholder screen="assignedRequests" />,
  },
];
