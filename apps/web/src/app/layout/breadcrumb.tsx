import { consolePaths } from '@sac/contract/console-paths';
import { Link, useLocation } from 'react-router';
import { buildBreadcrumb } from '../../lib/breadcrumb.ts';
import { crumbsUnder, useNamedParent } from '../../lib/breadcrumb-parent.ts';
import { useT } from '../../lib/i18n.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { mayOpen } from '../navigation.ts';
import styles from './breadcrumb.module.css';
import { usePathLabels } from './use-path-labels.ts';

/**
 * Breadcrumb built from the path (or, for a screen shown under a list not in its path, from that
 * list's: breadcrumb-parent.ts); screens the viewer may open are links (navigation.ts), the
 * current one is not.
 */
export function Breadcrumb() {
  const t = useT('chrome');
  const { pathname } = useLocation();
  const labels = usePathLabels();
  const { permissions } = useCurrentUser();
  const parent = useNamedParent(pathname);
  const crumbs = parent ? crumbsUnder(pathname, parent, labels) : buildBreadcrumb(pathname, labels);
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
              ) : (c.parent || c.to in labels) &&
                c.to !== consolePaths.account.path &&
                mayOpen(c.to, permissions) ? (
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
