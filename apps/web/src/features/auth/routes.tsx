import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { LoginPage } from './components/login-page.tsx';
import { LogoutPage } from './components/logout-page.tsx';

const ChangePasswordPage = lazy(() => import('./components/change-password-page.tsx'));

/** Top-level routes outside the signed-in shell. The sign-in screen is eager: it is the first paint. */
export const authPublicRoutes: readonly AppRoute[] = [
  { path: '/login', access: 'public', guestOnly: true, element: <LoginPage /> },
  { path: '/forgotpassword', access: 'public', guestOnly: true, element: <LoginPage /> },
  { path: '/logout', access: 'public', element: <LogoutPage /> },
];

/** The account screens inside the shell. */
export const accountRoutes: readonly AppRoute[] = [
  {
    path: 'account/change-password',
    access: 'session',
    label: { ns: 'auth', key: 'changePasswordHeading' },
    element: <ChangePasswordPage />,
  },
];
