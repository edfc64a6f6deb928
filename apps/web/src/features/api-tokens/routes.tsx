import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const ApiTokensPage = lazy(() => import('./components/api-tokens-page.tsx'));

/** Account → API tokens: every signed-in staff member's own tokens. */
export const apiTokenRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.apiTokens.path,
    access: 'session',
    label: { ns: 'apiTokens', key: 'heading' },
    element: <ApiTokensPage />,
  },
];
