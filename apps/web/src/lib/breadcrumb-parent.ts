import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { buildBreadcrumb, type Crumb } from './breadcrumb.ts';

/**
 * A screen shown under a list that is not in its address (a bulk job's page, under the job's own
 * list) names that list here while it is shown: the breadcrumb then runs through the list
 * (crumbsUnder). Kept with the pathname it was named on, so it never names the parent of the next
 * screen. (Not in breadcrumb.ts: the document title, which the sign-in screen loads, keeps to the
 * path.)
 */
let named: { pathname: string; link: string } | undefined;
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The screen's: its parent's link (with its query) while it is shown; undefined names none. */
export function useBreadcrumbParent(link: string | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!link) return;
    const mine = { pathname, link };
    named = mine;
    changed();
    return () => {
      if (named !== mine) return;
      named = undefined;
      changed();
    };
  }, [pathname, link]);
}

/** The chrome's: the parent the screen at `pathname` named, if it named one. */
export function useNamedParent(pathname: string): string | undefined {
  const now = useSyncExternalStore(
    subscribe,
    () => named,
    () => undefined,
  );
  return now?.pathname === pathname ? now.link : undefined;
}

/**
 * The breadcrumb of the screen at `pathname` shown under `parent` (a link, with its query): the
 * parent's crumbs, the last linking to `parent` as given, then the screen's own name.
 */
export function crumbsUnder(
  pathname: string,
  parent: string,
  labels: Readonly<Record<string, string>> = {},
): Crumb[] {
  const up = buildBreadcrumb(parent.split(/[?#]/)[0]!, labels);
  const own = buildBreadcrumb(pathname, labels).at(-1);
  const last = up.pop();
  return [...up, ...(last ? [{ ...last, to: parent, parent: true as const }] : []), ...(own ? [own] : [])];
}
