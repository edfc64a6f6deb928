import { consolePaths } from '@sac/contract/console-paths';
import type { Access } from '@sac/contract/endpoints';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useT } from '../lib/i18n.tsx';
import { holdsAccess } from '../lib/may-open.tsx';
import { useCurrentUser } from '../lib/session.ts';
import { hasToken } from '../lib/storage.ts';

/** Every route but /login, /forgotpassword and /logout needs a stored token (spec section 2). */
export function RequireToken() {
  const location = useLocation();
  if (!hasToken()) return <Navigate to={consolePaths.login()} replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** The sign-in screens are for visitors without a token; others go to /dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  if (hasToken()) return <Navigate to={consolePaths.dashboard()} replace />;
  return children;
}

/** Shows the screen only when the user holds the route's permission. */
export function RequireAccess({
  access,
  deniedText,
  children,
}: {
  access: Access;
  deniedText?: string;
  children: ReactNode;
}) {
  const t = useT('common');
  const { permissions } = useCurrentUser();
  if (holdsAccess(access, permissions)) return children;
  return (
    <section className="card empty-state" aria-labelledby="screen-title">
      <h1 id="screen-title" className="visually-hidden">
        {deniedText ?? t('forbidden')}
      </h1>
      <p className="form-alert" role="alert">
        {deniedText ?? t('forbidden')}
      </p>
    </section>
  );
}

/** Opens the first of a section's tabs the viewer holds the access of; else says they may not. */
export function FirstAllowedTab({ tabs }: { tabs: ReadonlyArray<{ to: string; access: Access }> }) {
  const { permissions } = useCurrentUser();
  const first = tabs.find((tab) => holdsAccess(tab.access, permissions));
  if (first) return <Navigate to={first.to} replace />;
  return <RequireAccess access={tabs[0]?.access ?? 'session'}>{null}</RequireAccess>;
}
