import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';

const SiteConfigurationPage = lazy(() => import('./components/site-configuration-page.tsx'));

/**
 * The customer view's Configuration action, mounted by the app under /manage-customer:
 * site-configuration?uid=&appId=[&section=] (site-settings.read; changes need site-settings.write).
 */
export const siteConfigurationRoutes: readonly AppRoute[] = [
  {
    path: 'site-configuration',
    access: 'site-settings.read',
    label: { ns: 'siteSettings', key: 'siteConfiguration' },
    tab: false,
    element: <SiteConfigurationPage />,
  },
];

/**
 * The same screen inside impersonation mode: the app mounts it in the impersonation frame, which
 * gives it the session's pair; what it may show and change is the grant's, so it needs no staff
 * permission of its own.
 */
export const impersonatedSiteRoutes: readonly AppRoute[] = [
  { index: true, access: 'session', element: <SiteConfigurationPage /> },
];
