import { STORAGE_KEYS } from '@sac/contract/constants';
import type { SuperUser } from '@sac/contract/team';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { Toaster } from '../../../components/toaster.tsx';
import { I18nProvider } from '../../../lib/i18n.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';

/** Test helpers of the team screens: a signed-in viewer and a stubbed API. */
export const ROLES = [
  {
    Name: 'SuperAdmin',
    Description: 'Runs the platform.',
    Permissions: ['team.read', 'team.write'],
    BuiltIn: true,
  },
  { Name: 'Admin', Description: 'Runs customers.', Permissions: ['team.read', 'team.write'], BuiltIn: true },
  { Name: 'Support', Description: 'Reads customers.', Permissions: ['customers.read'], BuiltIn: true },
];

export const user = (
  uid: string,
  email: string,
  roles: string[],
  extra: Partial<SuperUser> = {},
): SuperUser => ({
  Uid: uid,
  FullName: email.split('@')[0]!,
  Email: [{ Type: 'Primary', Value: email }],
  Roles: roles,
  CreatedDate: '2024-03-07T10:00:00.000Z',
  LastLoginDate: null,
  ...extra,
});

export interface Viewer {
  Uid: string;
  Email: string;
  Role: string[];
  Permissions: string[];
}

type Handler = (body: unknown, url: URL) => { status?: number; body: unknown };

/** Stubs fetch: `${METHOD} ${path}` -> handler; the session answers the viewer. */
export function stubApi(viewer: Viewer, routes: Record<string, Handler>) {
  localStorage.setItem(STORAGE_KEYS.token, 't');
  localStorage.setItem(STORAGE_KEYS.sign, 's');
  const calls: { key: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://api.test');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ key, body });
    if (key === 'GET /admin/session') return Response.json({ ...viewer, Name: 'Viewer' });
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
