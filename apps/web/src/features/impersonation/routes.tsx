import { consolePaths } from '@sac/contract/console-paths';
import { MESSAGES } from '@sac/contract/messages';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

const RequestsPage = lazy(() => withPhrases(['impersonation'], import('./components/requests-page.tsx')));
const LogsPage = lazy(() => withPhrases(['impersonation'], import('./components/logs-page.tsx')));
const RequestImpersonationPage = lazy(() =>
  withPhrases(['impersonation'], import('./components/request-impersonation-page.tsx')),
);
// Public pages outside the shell: they load their phrases, and the screens' names (the title), themselves.
const ConsentPage = lazy(() =>
  withPhrases(['impersonation', 'screens'], import('./components/consent-page.tsx')),
);
const SiteAccessPage = lazy(() =>
  withPhrases(['impersonation', 'screens'], import('./components/site-access-page.tsx')),
);
const ImpersonatedSiteFrame = lazy(() =>
  withPhrases(['impersonation'], import('./components/impersonated-site-frame.tsx')),
);

/**
 * Impersonation screens, mounted by the app under /manage-superuser: in the sidebar, the children
 * of an Impersonation parent (spec section 2: parent and child tabs).
 */
export const impersonationRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.impersonationLogs.path,
    access: 'impersonation.logs.read',
    label: { ns: 'screens', key: 'impersonationLogs' },
    parent: { ns: 'screens', key: 'impersonation' },
    deniedText: MESSAGES.noImpersonationAccess,
    element: <LogsPage />,
  },
  {
    path: consolePaths.impersonationRequests.path,
    access: 'impersonation.request',
    label: { ns: 'screens', key: 'assignedRequests' },
    parent: { ns: 'screens', key: 'impersonation' },
    deniedText: MESSAGES.noImpersonationAccess,
    element: <RequestsPage />,
  },
];

/** The customer view's Impersonate action, mounted by the app under /manage-customer. */
export const impersonateSiteRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.impersonate.path,
    access: 'impersonation.request',
    label: { ns: 'screens', key: 'impersonateSite' },
    tab: false,
    deniedText: MESSAGES.noImpersonationAccess,
    element: <RequestImpersonationPage />,
  },
];

/**
 * Impersonation mode, mounted by the app in the signed-in shell at /impersonation/site?uid=&appId=:
 * the frame (banner, countdown, heartbeat, end, granted access) around the screens the app mounts
 * inside it, which call with the impersonation session's pair.
 */
export const impersonationModeRoute = (inside: readonly AppRoute[]): AppRoute => ({
  path: consolePaths.impersonatedSite.path,
  access: 'impersonation.request',
  label: { ns: 'screens', key: 'impersonatedSite' },
  deniedText: MESSAGES.noImpersonationAccess,
  element: <ImpersonatedSiteFrame />,
  children: inside,
});

/**
 * The site owner's pages, public and outside the sign-in guard (the links come by email): consent
 * to one request, and the record of every access to their site.
 */
export const impersonationPublicRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.impersonationConsent.path,
    access: 'public',
    label: { ns: 'screens', key: 'consent' },
    element: <ConsentPage />,
  },
  {
    path: consolePaths.siteAccess.path,
    access: 'public',
    label: { ns: 'screens', key: 'siteAccess' },
    element: <SiteAccessPage />,
  },
];
