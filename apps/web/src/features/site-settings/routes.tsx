import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

const SiteConfigurationPage = lazy(() =>
  withPhrases(['siteSettings'], import('./components/site-configuration-page.tsx')),
);
const CustomDomainsPage = lazy(() =>
  withPhrases(['siteSettings'], import('./components/custom-domains-page.tsx')),
);

/**
 * The customer view's Configuration action, mounted by the app under /manage-customer:
 * site-configuration?uid=&appId=[&section=] (site-settings.read; changes need site-settings.write),
 * and custom-domains?status= (every site's custom domains, a sidebar tab).
 */
export const siteConfigurationRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.siteConfiguration.path,
    access: 'site-settings.read',
    label: { ns: 'screens', key: 'siteConfiguration' },
    tab: false,
    element: <SiteConfigurationPage />,
  },
  {
    // Every site's custom domains by status: the list behind the dashboard's domains figures.
    path: consolePaths.customDomains.path,
    access: 'site-settings.read',
    label: { ns: 'screens', key: 'customDomains' },
    element: <CustomDomainsPage />,
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
