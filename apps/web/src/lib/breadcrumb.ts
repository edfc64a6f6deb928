import { DASHBOARD_TITLE } from '@sac/contract/constants';

export interface Crumb {
  label: string;
  to: string;
  /** The screen's parent named by the screen (a list with its query): a link whoever may open it. */
  parent?: true;
}

/**
 * 'manage-superuser' -> 'Manage Superuser'. A segment that is not words (letters, digits, '-',
 * '_', spaces) is not a screen name but something typed into the address bar: it names nothing,
 * so a crafted link cannot write its own text into the breadcrumb or the window title.
 */
export function humanize(segment: string): string {
  let text = segment;
  try {
    text = decodeURIComponent(segment);
  } catch {
    // keep the raw segment
  }
  if (!/^[\p{L}\p{N}\s_-]+$/u.test(text)) return '';
  return text
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * The breadcrumb of a path: one crumb per segment, each linking to the path up to it. `labels`
 * names known paths (e.g. '/manage-superuser/impersonation/logs' -> 'Impersonation Logs');
 * other segments are humanized.
 */
export function buildBreadcrumb(pathname: string, labels: Readonly<Record<string, string>> = {}): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  return (
    segments
      .map((segment, i) => {
        const to = `/${segments.slice(0, i + 1).join('/')}`;
        return { to, label: labels[to] ?? patternLabel(to, labels) ?? humanize(segment) };
      })
      .filter((crumb) => crumb.label !== '')
      // A section whose default screen has its name ('/manage-superuser/manage-superuser') is one crumb, the screen.
      .filter((crumb, i, all) => crumb.label !== all[i + 1]?.label)
  );
}

/** The label of a pattern key with ':param' segments ('/manage-superuser/profile/:uid') matching `path`. */
function patternLabel(path: string, labels: Readonly<Record<string, string>>): string | undefined {
  const segments = path.split('/');
  for (const [key, label] of Object.entries(labels)) {
    if (!key.includes('/:')) continue;
    const parts = key.split('/');
    if (parts.length === segments.length && parts.every((p, i) => p.startsWith(':') || p === segments[i])) {
      return label;
    }
  }
  return undefined;
}

/**
 * The document title of a path: the leaf screen, then its section when different, then the
 * dashboard title: '/manage-superuser/create-superuser' -> 'Create Superuser | Manage Superuser |
 * Super Admin Console'; '/manage-superuser' -> 'Manage Superuser | Super Admin Console'.
 */
export function buildTitle(pathname: string, labels: Readonly<Record<string, string>> = {}): string {
  const crumbs = buildBreadcrumb(pathname, labels);
  const section = crumbs[0]?.label;
  const leaf = crumbs[crumbs.length - 1]?.label;
  const parts: string[] = [];
  if (leaf) parts.push(leaf);
  if (section && section !== leaf) parts.push(section);
  parts.push(DASHBOARD_TITLE);
  return parts.join(' | ');
}
