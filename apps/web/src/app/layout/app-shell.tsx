import { consolePaths } from '@sac/contract/console-paths';
import { ERRORS } from '@sac/contract/errors';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useCallback, useEffect, useRef } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { LeaveGuard } from '../../components/leave-guard.tsx';
import publicPageStyles from '../../components/public-page.module.css';
import { Skeleton } from '../../components/skeleton.tsx';
import type { SignInState } from '../../features/auth/components/login-page.tsx';
import { StepUpDialog } from '../../features/auth/components/step-up-dialog.tsx';
import { NotificationBell } from '../../features/staff-notifications/components/notification-bell.tsx';
import { onSessionEnded } from '../../lib/auth-events.ts';
import { useProductName } from '../../lib/footer-links.ts';
import { useT } from '../../lib/i18n.tsx';
import { MayOpenProvider } from '../../lib/may-open.tsx';
import { sessionQuery, useCurrentUser } from '../../lib/session.ts';
import { clearAuthStorage } from '../../lib/storage.ts';
import { mayOpen } from '../navigation.ts';
import styles from './app-shell.module.css';
import { Breadcrumb } from './breadcrumb.tsx';
import { CommandPalette } from './command-palette.tsx';
import { Footer } from './footer.tsx';
import { TopNav } from './top-nav.tsx';
import { UserMenu } from './user-menu.tsx';

/** The signed-in chrome: top bar with navigation and user menu, breadcrumb, content, footer. */
export default function AppShell() {
  const t = useT('chrome');
  const productName = useProductName();
  const navigate = useNavigate();
  // Loads the session (roles, permissions); a 901 answer ends the session through the client.
  useQuery(sessionQuery());
  const { permissions } = useCurrentUser();
  const mayOpenHere = useCallback((to: string) => mayOpen(to, permissions), [permissions]);

  useEffect(
    () =>
      onSessionEnded((reason, why) => {
        clearAuthStorage();
        // The sign-in screen says why the session ended (ran out, or ended from elsewhere).
        const state: SignInState | undefined =
          reason === 'expired' ? { sessionEnded: why ?? ERRORS.unauthenticated.text } : undefined;
        navigate(consolePaths.login(), { replace: true, state });
      }),
    [navigate],
  );

  // A new screen: when focus was lost with the old one (on the body) or is in the chrome that led
  // here (a menu item, the breadcrumb), it moves to the content, where Tab goes on and screen
  // readers start. Focus a screen placed itself inside the content stays, and so does focus in a
  // dialog: a screen that loads slowly commits after the user may have opened one (the palette).
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    const main = mainRef.current;
    const active = document.activeElement;
    if (!main || (active && active !== document.body && main.contains(active))) return;
    if (active?.closest('dialog, [role="alertdialog"]')) return;
    main.focus({ preventScroll: true });
  }, [pathname]);

  return (
    // The features ask the route table, through this, whether to link somewhere (the dashboard's cards).
    <MayOpenProvider value={mayOpenHere}>
      <div className={styles.shell}>
        <a className={styles.skipLink} href="#main-content">
          {t('skipToContent')}
        </a>
        <header className={styles.topbar}>
          <Link to={consolePaths.dashboard()} className={styles.brand}>
            <span className={publicPageStyles.brandMark} aria-hidden="true" />
            <span className={publicPageStyles.brandName}>{productName}</span>
          </Link>
          <TopNav />
          <NotificationBell />
          <UserMenu />
        </header>
        <div className={styles.shellBody}>
          <Breadcrumb />
          <main id="main-content" tabIndex={-1} ref={mainRef}>
            <Suspense fallback={<Skeleton screen />}>
              <Outlet />
            </Suspense>
          </main>
        </div>
        <Footer />
        <CommandPalette />
        <LeaveGuard />
        <StepUpDialog />
      </div>
    </MayOpenProvider>
  );
}
