import { consolePaths } from '@sac/contract/console-paths';
import { useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { signInModeTitle } from '../../features/auth/components/login-page.tsx';
import { buildTitle } from '../../lib/breadcrumb.ts';
import { translate, useLanguage } from '../../lib/i18n.tsx';
import { usePathLabels } from './use-path-labels.ts';

/**
 * Keeps document.title in step with the path (screen | section | dashboard title). The sign-in
 * screen's reset and invitation modes share /login with sign-in: their title names the mode.
 */
export function DocumentTitle() {
  const { pathname, search } = useLocation();
  const { language } = useLanguage();
  const pathLabels = usePathLabels();
  const labels = useMemo(() => {
    if (pathname.replace(/\/+$/, '') !== consolePaths.login.path) return pathLabels;
    const key = signInModeTitle(pathname, new URLSearchParams(search));
    return { ...pathLabels, [consolePaths.login.path]: translate(language, 'auth', key) };
  }, [pathname, search, pathLabels, language]);
  useEffect(() => {
    document.title = buildTitle(pathname, labels);
  }, [pathname, labels]);
  return null;
}
