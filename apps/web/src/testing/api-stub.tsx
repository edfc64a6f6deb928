import { type Language, STORAGE_KEYS } from '@sac/contract/constants';
import { ENDPOINT_ROUTES, type EndpointId } from '@sac/contract/endpoint-routes';
import type { BodyOf, ResponseOf } from '@sac/contract/endpoints';
import type { Permission } from '@sac/contract/permissions';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, Outlet, type RouteObject, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { LeaveGuard } from '../components/leave-guard.tsx';
import { Toaster } from '../components/toaster.tsx';
import { I18nProvider } from '../lib/i18n.tsx';
import { createQueryClient } from '../lib/query-client.ts';

/**
 * The console's test kit: a signed-in viewer, a fetch stub answering the contract's endpoints by
 * id (typed by each endpoint's body and answer), and a router to render screens in.
 */
export interface Viewer {
  Uid: string;
  Email: string;
  Role: string[];
  Permissions: Permission[];
  /** A new SuperAdmin in the approval cool-down: when it ends. */
  CanApproveImpersonationFrom?: string | null;
}

export const viewer = (role: string, permissions: Permission[]): Viewer => ({
  Uid: `u-${role.toLowerCase()}`,
  Email: `${role.toLowerCase()}@example.com`,
  Role: [role],
  Permissions: permissions,
});

type DeepPartial<T> = T extends readonly (infer U)[]
  ? readonly DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** An error answer: the API's envelope (or, to test a broken server, any text). */
interface ErrorBody {
  ErrorCode: number;
  Description: string;
  Message?: string;
  RequestId?: string;
  FieldErrors?: { Field: string; Message: string }[];
}

export interface StubCall {
  id: EndpointId;
  url: URL;
  body: unknown;
  headers: Record<string, string>;
}

type Answer<I extends EndpointId> = (
  | { status?: 200; body: DeepPartial<ResponseOf<I>> }
  | { status: number; body: Partial<ErrorBody> | string }
) & { headers?: Record<string, string> };

/** Per endpoint id: the answer to give, from the call's body and address. */
export type StubRoutes = {
  [I in EndpointId]?: (call: { body: BodyOf<I>; url: URL; headers: Record<string, string> }) => Answer<I>;
};

const ROUTE_IDS = new Map<string, EndpointId>(
  Object.values(ENDPOINT_ROUTES).map((r) => [`${r.method} ${r.path}`, r.id as EndpointId]),
);

/** An error answer with the envelope's fields. */
export const errorAnswer = (status: number, ErrorCode: number, Description: string) => ({
  status,
  body: { ErrorCode, Description, Message: Description, RequestId: 'test' },
});

/**
 * Stubs fetch with the routes. With a viewer, the stored staff pair is 't'/'s' and GET
 * /admin/session with it answers the viewer (unless the routes answer it). A call no route
 * answers gets 404 (920); every call is recorded, with its endpoint id.
 */
export function stubApi(who: Viewer | undefined, routes: StubRoutes) {
  if (who) {
    localStorage.setItem(STORAGE_KEYS.token, 't');
    localStorage.setItem(STORAGE_KEYS.sign, 's');
    localStorage.setItem(
      STORAGE_KEYS.loginState,
      JSON.stringify({ Email: who.Email, Name: 'Viewer', Role: who.Role }),
    );
  }
  const calls: StubCall[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://api.test');
    const id = ROUTE_IDS.get(`${init.method ?? 'GET'} ${url.pathname}`);
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const headers = (init.headers ?? {}) as Record<string, string>;
    if (!id) return Response.json({ ErrorCode: 920, Description: 'There is no such call.' }, { status: 404 });
    calls.push({ id, url, body, headers });
    const handler = routes[id] as
      | ((c: { body: unknown; url: URL; headers: Record<string, string> }) => Answer<EndpointId>)
      | undefined;
    if (!handler && id === 'session' && who && headers.xtoken === 't') {
      return Response.json({ ...who, Name: 'Viewer' });
    }
    if (!handler)
      return Response.json({ ErrorCode: 920, Description: 'There is no such call.' }, { status: 404 });
    const answer = handler({ body, url, headers });
    // A file answer (an export) is sent as its text.
    if (typeof answer.body === 'string') {
      return new Response(answer.body, { status: answer.status ?? 200, headers: answer.headers });
    }
    return Response.json(answer.body, { status: answer.status ?? 200, headers: answer.headers });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (id: EndpointId) => calls.filter((c) => c.id === id) };
}

/** Renders routes at `path` with the console's providers (language, queries, toasts). */
export function renderScreen(path: string, routes: RouteObject[]) {
  // The app shell's guard against leaving unsaved changes, around the screens under test.
  const shell = (
    <>
      <Outlet />
      <LeaveGuard />
    </>
  );
  const router = createMemoryRouter(
    [{ element: shell, children: [...routes, { path: '*', element: <p>elsewhere</p> }] }],
    { initialEntries: [path] },
  );
  return renderRouter(router);
}

/** Renders a router with the console's providers (language, queries, toasts). */
export function renderRouter<R extends Parameters<typeof RouterProvider>[0]['router']>(
  router: R,
  language: Language = 'en',
): R {
  render(
    <I18nProvider initial={language}>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return router;
}
