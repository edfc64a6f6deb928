import { consolePaths } from '@sac/contract/console-paths';
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { SHELL_NAMESPACES, withPhrases } from '../lib/i18n.tsx';
import { RequireToken } from './guards.tsx';
import { DocumentTitle } from './layout/document-title.tsx';
import { RouteError } from './route-error.tsx';
import { publicRoutes, sections, shellRoutes, toRouteObject } from './route-table.tsx';

// The signed-in shell loads on demand, with its own phrases (the screens' names, the bell's): the
// sign-in screen's bundle stays small, and each section's words come with the section's route.
const AppShell = lazy(() => withPhrases(SHELL_NAMESPACES, import('./layout/app-shell.tsx')));
const SectionLayout = lazy(() => import('./layout/section-layout.tsx'));

function Root() {
  return (
    <>
      <DocumentTitle />
      <Suspense fallback={null}>
        <Outlet />
      </Suspense>
    </>
  );
}

export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <Root />,
      errorElement: <RouteError />,
      children: [
        ...publicRoutes.map(toRouteObject),
        {
          element: <RequireToken />,
          children: [
            {
              element: <AppShell />,
              children: [
                { index: true, element: <Navigate to={consolePaths.dashboard()} replace /> },
                ...shellRoutes.map(toRouteObject),
                ...sections.map((section) =>
                  toRouteObject({
                    path: section.path,
                    access: section.access,
                    element: <SectionLayout section={section} />,
                    children: section.children,
                  }),
                ),
                { path: '*', element: <Navigate to={consolePaths.dashboard()} replace /> },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export const createRouter = () => createBrowserRouter(buildRoutes());
