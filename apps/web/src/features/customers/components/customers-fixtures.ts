import type { CustomerSummary, Site } from '@sac/contract/customers';
import type { Viewer } from '../../../testing/api-stub.tsx';

/** Fixtures of the customer screens' tests: a viewer, customers and sites the stubbed API answers. */
export const support: Viewer = {
  Uid: 'u-support',
  Email: 'support@example.com',
  Role: ['Support'],
  Permissions: [
    'customers.read',
    'sites.read',
    'activity.read',
    'site-settings.read',
    'impersonation.request',
  ],
};

export const UID = '3f0c4e2a-8b7d-4c1e-9a55-0d6b2f1e7c90';

export const customer = (n: number, extra: Partial<CustomerSummary> = {}): CustomerSummary => ({
  Uid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  FirstName: 'Customer',
  LastName: String(n),
  FullName: `Customer ${n}`,
  Email: `customer${n}@example.com`,
  Status: 'Active',
  Role: 'Owner',
  CreatedDate: '2024-03-07T10:00:00.000Z',
  ModifiedDate: '2024-05-01T23:30:00.000Z',
  ...extra,
});

export const site = (appId: number, extra: Partial<Site> = {}): Site => ({
  appId,
  AppName: `site-${appId}`,
  ApiKey: `0000000${appId}-aaaa-4bbb-8ccc-dddddddddddd`,
  uid: UID,
  Status: 'active',
  Plan: 'Developer',
  Role: 'Owner',
  CreatedDate: '2024-03-07T10:00:00.000Z',
  ...extra,
});
