import { consolePaths } from '@sac/contract/console-paths';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import publicPageStyles from '../../../components/public-page.module.css';
import { broadcastLogout } from '../../../lib/auth-events.ts';
import { useT } from '../../../lib/i18n.tsx';
import { readImpersonation } from '../../../lib/impersonation-mode.ts';
import { clearAuthStorage, readAuth } from '../../../lib/storage.ts';
import { logoutOnServer } from '../api/auth-api.ts';

/**
 * /logout: ends the session on the server (best effort; the tab's impersonation first), clears
 * local storage, tells the other tabs, then goes to /login.
 */
export function LogoutPage() {
  const t = useT('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      const impersonation = readImpersonation();
      if (impersonation) await logoutOnServer(impersonation);
      if (readAuth()) await logoutOnServer();
      clearAuthStorage();
      queryClient.clear();
      broadcastLogout();
      navigate(consolePaths.login(), { replace: true });
    })();
  }, [navigate, queryClient]);
  return (
    <main className={publicPageStyles.authPage}>
      <p className="muted" role="status">
        {t('loggingOut')}
      </p>
    </main>
  );
}
