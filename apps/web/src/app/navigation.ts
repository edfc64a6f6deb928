import { consolePaths } from '@sac/contract/console-paths';
import type { Access } from '@sac/contract/endpoints';
import type { AppRoute, AppSection } from '../lib/app-route.ts';
import type { ShellPhraseRef } from '../lib/i18n.tsx';
import { holdsAccess } from '../lib/may-open.tsx';
import { sections, sectionTabs, shellRoutes } from './route-table.tsx';

/**
 * The console's navigation, and who may open what, read from the route table alone: each route
 * states the access it needs (the contract's permission matrix gives each role its permissions),
 * so the top navigation, its dropdowns, the command palette, the breadcrumb and the dashboard's
 * links show an entry only when the viewer may open a screen behind it.
 */

/** The top navigation's entries (spec section 2): Dashboard, two section menus, Manage Notfications. */
export type NavEntry =
  | { id: string; label: ShellPhraseRef; to: string }
  | { id: string; label: ShellPhraseRef; section: AppSection };

export const NAVIGATION: readonly NavEntry[] = [
  { id: 'dashboard', label: { ns: 'chrome', key: 'dashboard' }, to: consolePaths.dashboard() },
  {
    id: 'manage-customer',
    label: { ns: 'chrome', key: 'manageCustomer' },
    section: sectionAt(consolePaths.customers.path),
  },
  {
    id: 'manage-superuser',
    label: { ns: 'chrome', key: 'manageSuperuser' },
    section: sectionAt(consolePaths.team.path),
  },
  {
    id: 'manage-notifications',
    label: { ns: 'chrome', key: 'manageNotifications' },
    to: consolePaths.notifications(),
  },
];

function sectionAt(path: string): AppSection {
  const s = sections.find((x) => x.path === path);
  if (!s) throw new Error(`no section at ${path}`);
  return s;
}

/** An entry as the viewer sees it: a link, or a menu of the tabs they may open (never empty). */
export type VisibleNavEntry =
  | { id: string; label: ShellPhraseRef; to: string }
  | {
      id: string;
      label: ShellPhraseRef;
      path: string;
      items: Array<{ id: string; label: ShellPhraseRef; to: string }>;
    };

/** The tabs of a section the viewer may open (the section's own access first). */
export function allowedTabs(section: AppSection, permissions: ReadonlySet<string>) {
  if (!holdsAccess(section.access, permissions)) return [];
  return sectionTabs(section).filter((tab) => holdsAccess(tab.access, permissions));
}

/** The navigation entries the viewer may use: an entry whose screens they may not open is left out. */
export function visibleNavigation(permissions: ReadonlySet<string>): VisibleNavEntry[] {
  const out: VisibleNavEntry[] = [];
  for (const entry of NAVIGATION) {
    if ('section' in entry) {
      const items = allowedTabs(entry.section, permissions).map((t) => ({
        id: t.id,
        label: t.label,
        to: t.to,
      }));
      if (items.length > 0) out.push({ id: entry.id, label: entry.label, path: entry.section.path, items });
    } else if (mayOpen(entry.to, permissions)) {
      out.push(entry);
    }
  }
  return out;
}

/** Does a route pattern ('/manage-superuser/profile/:uid') match a pathname? */
function matches(pattern: string, pathname: string): boolean {
  const p = pattern.split('/');
  const s = pathname.split('/');
  return p.length === s.length && p.every((part, i) => part.startsWith(':') || part === s[i]);
}

/** The accesses a route and the routes around it need, for the route at `pathname`; undefined: no route. */
function accessChain(routes: readonly AppRoute[], pathname: string, outer: Access[]): Access[] | undefined {
  for (const r of routes) {
    if (!r.path) continue;
    const chain = [...outer, r.access];
    if (matches(r.path, pathname)) return chain;
    if (r.children) {
      const inner = accessChain(r.children, pathname, chain);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * May the viewer open the address `to` (a path, with or without its query)? A section's own
 * address opens its first tab the viewer may open, so it may be opened when one is; an address
 * that is no screen of the table (the breadcrumb's '/account') may not.
 */
export function mayOpen(to: string, permissions: ReadonlySet<string>): boolean {
  const pathname = to.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/';
  for (const s of sections) {
    if (pathname === s.path) return allowedTabs(s, permissions).length > 0;
    const chain = accessChain(s.children, pathname, [s.access]);
    if (chain) return chain.every((a) => holdsAccess(a, permissions));
  }
  const chain = accessChain(shellRoutes, pathname, []);
  return chain?.every((a) => holdsAccess(a, permissions)) ?? false;
}
