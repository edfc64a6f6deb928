import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

// The dashboard's cards show the words of impersonation requests and of the trail's actions.
const DASHBOARD_NAMESPACES = ['impersonation', 'audit', 'auditActions'] as const;
const DashboardPage = lazy(() =>
  withPhrases(DASHBOARD_NAMESPACES, import('./components/dashboard-page.tsx')),
);
const TrialsEndingPage = lazy(() => import('./components/trials-ending-page.tsx'));
// Its rows show the case as the impersonation screens do (reason-view.tsx's words).
const BreakGlassReviewsPage = lazy(() =>
  withPhrases(['impersonation'], import('./components/break-glass-reviews-page.tsx')),
);

export const dashboardRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.dashboard.path,
    access: 'session',
    label: { ns: 'dashboard', key: 'heading' },
    element: <DashboardPage />,
  },
];

/**
 * The whole list behind the dashboard's trials card, mounted by the app under Manage Customer (a
 * sidebar tab, where the other lists of sites are): whoever sees the card may open it.
 */
export const trialsEndingRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.trialsEnding.path,
    access: 'sites.read',
    label: { ns: 'dashboard', key: 'trialsList' },
    element: <TrialsEndingPage />,
  },
];

/**
 * The whole list behind the dashboard's break-glass card, mounted by the app under Manage
 * Superuser (beside the impersonation screens); not a sidebar tab: reached from the card, whose
 * viewers (SuperAdmins) are those the API answers.
 */
export const breakGlassReviewsRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.breakGlassReviews.path,
    access: 'impersonation.approve',
    label: { ns: 'dashboard', key: 'breakGlassTitle' },
    tab: false,
    element: <BreakGlassReviewsPage />,
  },
];
