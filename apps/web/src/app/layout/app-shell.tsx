import { ERRORS } from '@sac/contract/errors';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { onSessionEnded } from '../../lib/auth-events.ts';
import { useT } from '../../lib/i18n.tsx';
import { sessionQuery } from '../../lib/session.ts';
import { clearAuthStorage } from '../../lib/storage.ts';
import { toast } from '../../lib/toast-store.ts';
import { Breadcrumb } from './breadcrumb.tsx';
import { Footer } from './footer.tsx';
import { TopNav } from './top-nav.tsx';
import { UserMenu } from './user-menu.tsx';

/** The signed-in chrome: top bar with navigation and user menu, breadcrumb, content, footer. */
export default function AppShell() {
  const t = useT('chrome');
  const common = useT('common');
  const navigate = useNavigate();
  // Loads the session (roles, permissions); a 901 answer ends the session through the client.
  useQuery(sessionQuery());

  useEffect(
    () =>
      onSessionEnded((reason) => {
        clearAuthStorage();
        if (reason === 'expired') toast.info(ERRORS.unauthenticated.text);
        navigate('/login', { replace: true });
      }),
    [navigate],
  );

  return (
    <div className="shell">
      <a className="skip-link" href="#main-content">
        {t('skipToContent')}
      </a>
      <header className="topbar">
        <Link to="/dashboard" className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span className="brand-name">{common('productName')}</span>
        </Link>
        <TopNav />
        <UserMenu />
      </header>
      <div className="shell-body">
        <Breadcrumb />
        <main id="main-content" tabIndex={-1}>
          <Suspense
            fallback={
              <p className="muted" role="status">
                {common('loading')}
              </p>
            }
          >
            <Outlet />
          </Suspense>
        </main>
      </div>
      <Footer />
    </div>
  );
}
