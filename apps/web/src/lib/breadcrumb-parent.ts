import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

/**
 * A screen shown under a list that is not in its address (a bulk job's page, under the job's own
 * list) names that list here while it is shown: the breadcrumb and the window's title then run
 * through the list (breadcrumb.ts, `parent`). Kept with the pathname it was named on, so it never
 * names the parent of the next screen.
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
