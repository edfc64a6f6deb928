import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import { Navigate } from 'react-router';
import type { AppRoute, AppSection } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';

const SearchCustomerPage = lazy(() =>
  withPhrases(['customers'], import('./components/search-customer-page.tsx')),
);
const ViewCustomerPage = lazy(() =>
  withPhrases(['customers'], import('./components/view-customer-page.tsx')),
);
const SiteWizardPage = lazy(() => withPhrases(['customers'], import('./components/site-wizard-page.tsx')));
const BulkJobPage = lazy(() => withPhrases(['customers'], import('./components/bulk-job-page.tsx')));

/**
 * /manage-customer: search (default), create, edit-site, add-site, view-customer. Create, add-site
 * and edit-site share one form screen (the site wizard; it also checks sites.write, and create
 * customers.write). The app adds the impersonation feature's impersonate screen and the
 * site-settings feature's site-configuration screen (the customer view's Configuration action).
 */
export const customersSection: AppSection = {
  path: consolePaths.customers.path,
  access: 'customers.read',
  label: { ns: 'chrome', key: 'manageCustomer' },
  children: [
    {
      index: true,
      access: 'customers.read',
      element: <Navigate to={consolePaths.customerSearch()} replace />,
    },
    {
      path: consolePaths.customerSearch.path,
      access: 'customers.read',
      label: { ns: 'screens', key: 'searchCustomer' },
      element: <SearchCustomerPage />,
    },
    {
      path: consolePaths.createCustomer.path,
      access: 'customers.write',
      label: { ns: 'screens', key: 'createCustomer' },
      element: <SiteWizardPage mode="create" />,
    },
    {
      path: consolePaths.editSite.path,
      access: 'sites.write',
      label: { ns: 'screens', key: 'editSite' },
      tab: false,
      element: <SiteWizardPage mode="edit" />,
    },
    {
      path: consolePaths.addSite.path,
      access: 'sites.write',
      label: { ns: 'screens', key: 'addSite' },
      tab: false,
      element: <SiteWizardPage mode="add" />,
    },
    {
      path: consolePaths.customerView.path,
      access: 'customers.read',
      label: { ns: 'screens', key: 'viewCustomer' },
      tab: false,
      element: <ViewCustomerPage />,
    },
  ],
};

/**
 * /bulk-job?id=: a bulk job of any list (a customer's sites, the requests, the team, a colleague's
 * sessions), under its list in the breadcrumb. The API answers it to those who hold its list's
 * permission and refuses the others in words the page shows, so any signed-in member may open it.
 */
export const bulkJobRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.bulkJob.path,
    access: 'session',
    label: { ns: 'screens', key: 'bulkJob' },
    element: <BulkJobPage />,
  },
  // where links mailed and belled before the page had its own address go: the page sends them on
  { path: consolePaths.bulkJobBefore.path, access: 'session', element: <BulkJobPage /> },
];
