import { consolePaths } from '@sac/contract/console-paths';
import { Link, useLocation } from 'react-router';
import { buildBreadcrumb } from '../../lib/breadcrumb.ts';
import { useT } from '../../lib/i18n.tsx';
import styles from './breadcrumb.module.css';
import { usePathLabels } from './use-path-labels.ts';

/** Breadcrumb built from the path; screens with a route are links, the current one is not. */
export function Breadcrumb() {
  const t = useT('chrome');
  const { pathname } = useLocation();
  const labels = usePathLabels();
  const crumbs = buildBreadcrumb(pathname, labels);
  if (crumbs.length === 0) return null;
  return (
    <nav className={styles.breadcrumb} aria-label={t('breadcrumb')}>
      <ol>
        {crumbs.map((c, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={c.to}>
              {last ? (
                <span aria-current="page">{c.label}</span>
              ) : c.to in labels && c.to !== consolePaths.account.path ? (
                <Link to={c.to}>{c.label}</Link>
              ) : (
                <span>{c.label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
