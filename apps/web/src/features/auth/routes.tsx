import { consolePaths } from '@sac/contract/console-paths';
import { lazy } from 'react';
import type { AppRoute } from '../../lib/app-route.ts';
import { withPhrases } from '../../lib/i18n.tsx';
import { LoginPage } from './components/login-page.tsx';

const LogoutPage = lazy(() =>
  import('./components/logout-page.tsx').then((m) => ({ default: m.LogoutPage })),
);
const ChangePasswordPage = lazy(() => import('./components/change-password-page.tsx'));
const MySessionsPage = lazy(() => import('./components/my-sessions-page.tsx'));
const SecondStepPage = lazy(() => import('./components/second-step-page.tsx'));
const EnrolPage = lazy(() => import('./components/enrol-page.tsx'));
const SsoCallbackPage = lazy(() => import('./components/sso-callback-page.tsx'));
const SecurityPage = lazy(() => withPhrases(['security'], import('./components/security-page.tsx')));

/**
 * Top-level routes outside the signed-in shell. The sign-in screen (also forgot and reset password)
 * is the only eager screen of the console: it is the first paint. Every other route is lazy. The
 * labels name the sign-in screens in the document title, in the language chosen there.
 */
export const authPublicRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.login.path,
    access: 'public',
    guestOnly: true,
    label: { ns: 'auth', key: 'loginTitle' },
    element: <LoginPage />,
  },
  {
    path: consolePaths.forgotPassword.path,
    access: 'public',
    guestOnly: true,
    label: { ns: 'auth', key: 'forgotHeading' },
    element: <LoginPage />,
  },
  {
    path: consolePaths.secondStep.path,
    access: 'public',
    guestOnly: true,
    label: { ns: 'auth', key: 'secondStepTitle' },
    element: <SecondStepPage />,
  },
  {
    path: consolePaths.enrol.path,
    access: 'public',
    guestOnly: true,
    label: { ns: 'auth', key: 'enrolTitle' },
    element: <EnrolPage />,
  },
  {
    path: consolePaths.ssoCallback.path,
    access: 'public',
    guestOnly: true,
    label: { ns: 'auth', key: 'ssoCallbackTitle' },
    element: <SsoCallbackPage />,
  },
  { path: consolePaths.logout.path, access: 'public', element: <LogoutPage /> },
];

/** The account screens inside the shell. */
export const accountRoutes: readonly AppRoute[] = [
  {
    path: consolePaths.changePassword.path,
    access: 'session',
    label: { ns: 'auth', key: 'changePasswordHeading' },
    element: <ChangePasswordPage />,
  },
  {
    path: consolePaths.security.path,
    access: 'session',
    label: { ns: 'chrome', key: 'signInSecurity' },
    element: <SecurityPage />,
  },
  {
    path: consolePaths.mySessions.path,
    access: 'session',
    label: { ns: 'auth', key: 'mySessionsHeading' },
    element: <MySessionsPage />,
  },
];
