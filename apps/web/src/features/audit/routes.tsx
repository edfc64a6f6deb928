import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

const AuditTrailPage = lazy(() =>
  withPhrases(['audit', 'auditActions'], import('./components/audit-trail-page.tsx')),
);

/** The staff audit trail, mounted by the app under /manage-superuser. */
export const auditRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.auditTrail.path,
    access: 'audit.read',
    label: { ns: 'screens', key: 'auditTrail' },
    element: <AuditTrailPage />,
  },
];
