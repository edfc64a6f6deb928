import { lazy } from 'react';
import { Navigate } from 'react-router';
import type { AppSection } from '../../lib/app-route.ts';

const CustomerPlaceholder = lazy(() => import('./components/customer-placeholder.tsx'));

/** /manage-customer: search (default), create, edit-site, add-site, view-customer. */
export const customersSection: AppSection = {
  path: 'manage-customer',
  access: 'customers.read',
  label: { ns: 'customers', key: 'section' },
  children: [
    { index: true, access: 'customers.read', element: <Navigate to="search-customer" replace /> },
    {
      path: 'search-customer',
      access: 'customers.read',
      label: { ns: 'customers', key: 'searchCustomer' },
      element: <CustomerPlaceholder screen="searchCustomer" />,
    },
    {
      path: 'create-customer',
      access: 'customers.write',
      label: { ns: 'customers', key: 'createCustomer' },
      element: <CustomerPlaceholder screen="createCustomer" />,
    },
    {
      path: 'edit-site',
      access: 'sites.write',
      label: { ns: 'customers', key: 'editSite' },
      tab: false,
      element: <CustomerPlaceholder screen="editSite" />,
    },
    {
      path: 'add-site',
      access: 'sites.write',
      label: { ns: 'customers', key: 'addSite' },
      tab: false,
      element: <CustomerPlaceholder screen="addSite" />,
    },
    {
      path: 'view-customer',
      access: 'customers.read',
      label: { ns: 'customers', key: 'viewCustomer' },
      tab: false,
      element: <CustomerPlaceholder screen="viewCustomer" />,
    },
  ],
};
