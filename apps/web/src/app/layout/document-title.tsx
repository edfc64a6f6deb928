import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { buildTitle } from '../../lib/breadcrumb.ts';
import { usePathLabels } from './use-path-labels.ts';

/** Keeps document.title in step with the path (screen | section | dashboard title). */
export function DocumentTitle() {
  const { pathname } = useLocation();
  const labels = usePathLabels();
  useEffect(() => {
    document.title = buildTitle(pathname, labels);
  }, [pathname, labels]);
  return null;
}
