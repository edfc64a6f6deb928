import { STORAGE_KEYS } from '@sac/contract/constants';
import type { CustomerSummary, Site } from '@sac/contract/customers';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { Toaster } from '../../../components/toaster.tsx';
import { I18nProvider } from '../../../lib/i18n.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';

/** Test helpers of the customer screens: a signed-in viewer and a stubbed API. */
export interface Viewer {
  Uid: string;
  Email: string;
  Role: string[];
  Permissions: string[];
}

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

type Handler = (url: URL) => { status?: number; body: unknown };

/** Stubs fetch: `${METHOD} ${path}` -> handler; the session answers the viewer. */
export function stubApi(viewer: Viewer, routes: Record<string, Handler>) {
  localStorage.setItem(STORAGE_KEYS.token, 't');
  localStorage.setItem(STORAGE_KEYS.sign, 's');
  const calls: URL[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://api.test');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    calls.push(url);
    if (key === 'GET /admin/session') return Response.json({ ...viewer, Name: 'Viewer' });
    const handler = routes[key];
    if (!handler)
      return Response.json({ ErrorCode: 920, Description: 'There is no such call.' }, { status: 404 });
    const answer = handler(url);
    return Response.json(answer.body, { status: answer.status ?? 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

export function renderScreen(path: string, routes: { path: string; element: ReactNode }[]) {
  const router = createMemoryRouter([...routes, { path: '*', element: <p>elsewhere</p> }], {
    initialEntries: [path],
  });
  render(
    <I18nProvider initial="en">
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return router;
}
