import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

const ApiTokensPage = lazy(() => withPhrases(['apiTokens'], import('./components/api-tokens-page.tsx')));

/** Account → API tokens: every signed-in staff member's own tokens. */
export const apiTokenRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.apiTokens.path,
    access: 'session',
    label: { ns: 'chrome', key: 'apiTokens' },
    element: <ApiTokensPage />,
  },
];
