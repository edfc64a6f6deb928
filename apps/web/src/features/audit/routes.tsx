import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const AuditTrailPage = lazy(() => import('./components/audit-trail-page.tsx'));

/** The staff audit trail, mounted by the app under /manage-superuser. */
export const auditRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.auditTrail.path,
    access: 'audit.read',
    label: { ns: 'audit', key: 'auditTrail' },
    element: <AuditTrailPage />,
  },
];
