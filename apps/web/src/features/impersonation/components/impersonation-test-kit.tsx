import { STORAGE_KEYS } from '@sac/contract/constants';
import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { Toaster } from '../../../components/toaster.tsx';
import { I18nProvider } from '../../../lib/i18n.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';

/** Test helpers of the impersonation screens: viewers, requests, a stubbed API. */
export interface Viewer {
  Uid: string;
  Email: string;
  Role: string[];
  Permissions: string[];
  /** A new SuperAdmin in the approval cool-down: when it ends. */
  CanApproveImpersonationFrom?: string | null;
}

export const superAdmin: Viewer = {
  Uid: 'u-super',
  Email: 'superadmin@example.com',
  Role: ['SuperAdmin'],
  Permissions: ['team.read', 'impersonation.request', 'impersonation.approve', 'impersonation.logs.read'],
};
export const admin: Viewer = {
  Uid: 'u-admin',
  Email: 'admin@example.com',
  Role: ['Admin'],
  Permissions: ['team.read', 'sites.read', 'impersonation.request', 'impersonation.logs.read'],
};
export const support: Viewer = {
  Uid: 'u-support',
  Email: 'support@example.com',
  Role: ['Support'],
  Permissions: ['sites.read', 'impersonation.request', 'impersonation.logs.read'],
};

export const CUSTOMER_ROLES = [
  { Name: 'Administrator', Permissions: { EditData: true, ViewData: true, ManageSite: true } },
  { Name: 'Analyst', Permissions: { ViewData: true } },
  { Name: 'Developer', Permissions: { EditData: true, ViewData: true, ManageSettings: true } },
  { Name: 'Support', Permissions: { EditData: true, ViewData: true } },
];

export const TEAM = [
  { Uid: 'u-super', roles: ['SuperAdmin'], email: 'superadmin@example.com' },
  { Uid: 'u-super2', roles: ['SuperAdmin', 'Admin'], email: 'boss@example.com' },
  { Uid: 'u-admin', roles: ['Admin'], email: 'admin@example.com' },
].map((u) => ({
  Uid: u.Uid,
  FullName: u.email,
  Email: [{ Type: 'Primary', Value: u.email }],
  Roles: u.roles,
  CreatedDate: '2024-03-07T10:00:00.000Z',
  LastLoginDate: null,
}));

type Extra = {
  Id?: number;
  AppId?: number;
  AppName?: string;
  Initiator?: string;
  Impersonation?: boolean;
  Request?: Partial<ImpersonationRequest['Request']>;
  Action?: Partial<ImpersonationRequest['Action']>;
};

export const request = (id: number, extra: Extra = {}): ImpersonationRequest => {
  const impersonation = extra.Impersonation ?? true;
  return {
    Id: id,
    AppId: extra.AppId ?? 11,
    AppName: extra.AppName ?? 'analytical-engine',
    Initiator: extra.Initiator ?? 'admin@example.com',
    Impersonation: impersonation,
    Consent: impersonation ? 'granted' : 'pending',
    IsCustomerRequest: false,
    Request: {
      Priority: 'High',
      Description: 'Customer cannot save settings.',
      Assignees: ['superadmin@example.com'],
      ProxyRoles: ['Administrator', 'Analyst'],
      AdditionalPermissions: ['ManageSite'],
      Duration: 90,
      RequestCreatedDate: '2025-01-02T03:04:05.000Z',
      RequestModifiedDate: '2025-01-02T03:04:05.000Z',
      ...extra.Request,
    },
    Action: {
      Status: 'Pending',
      ActionTakenBy: null,
      ActionTakenAt: null,
      ExpiresAt: null,
      ApprovedProxyRoles: [],
      ApprovedAdditionalPermissions: [],
      Reason: '',
      ...extra.Action,
    },
  };
};

type Handler = (body: unknown, url: URL) => { status?: number; body: unknown };

/** Stubs fetch: `${METHOD} ${path}` -> handler; the session answers the viewer (when given). */
export function stubApi(viewer: Viewer | undefined, routes: Record<string, Handler>) {
  if (viewer) {
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 's');
    localStorage.setItem(
      STORAGE_KEYS.loginState,
      JSON.stringify({ Email: viewer.Email, Name: 'Viewer', Role: viewer.Role }),
    );
  }
  const calls: { key: string; url: URL; body: unknown; headers: Record<string, string> }[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://api.test');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ key, url, body, headers });
    if (key === 'GET /admin/session' && viewer && headers.xtoken === 't')
      return Response.json({ ...viewer, Name: 'Viewer' });
    const handler = routes[key];
    if (!handler)
      return Response.json({ ErrorCode: 920, Description: 'There is no such call.' }, { status: 404 });
    const answer = handler(body, url);
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
