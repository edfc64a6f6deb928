import { useCallback, useEffect, useId, useSyncExternalStore } from 'react';

// Forms with unsaved changes, by a per-form id. One guard (components/leave-guard.tsx) asks before
// any navigation or unload while this is not empty: a router supports only one blocker at a time.
const dirtyForms = new Set<string>();
const listeners = new Set<() => void>();
let leaving = false;

function changed() {
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether leaving now would drop what someone typed (read at the moment of a navigation). */
export function hasUnsavedChanges(): boolean {
  return !leaving && dirtyForms.size > 0;
}

/** The same, as state, for the parts that render or listen differently while changes are unsaved. */
export function useHasUnsavedChanges(): boolean {
  return useSyncExternalStore(subscribe, hasUnsavedChanges);
}

/**
 * Registers a form's unsaved changes while `dirty`. `leave(go)` runs a navigation the form itself
 * starts after saving (its registration clears only after the next render), without asking.
 */
export function useLeaveGuard(dirty: boolean) {
  const id = useId();
  useEffect(() => {
    if (!dirty) return;
    dirtyForms.add(id);
    changed();
    return () => {
      dirtyForms.delete(id);
      changed();
    };
  }, [dirty, id]);
  const leave = useCallback((go: () => void) => {
    leaving = true;
    try {
      go();
    } finally {
      leaving = false;
    }
  }, []);
  return { leave };
}
