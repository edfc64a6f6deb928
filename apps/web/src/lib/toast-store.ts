import { TOAST_AUTO_CLOSE_MS } from '@sac/contract/constants';

type ToastType = 'success' | 'error' | 'info' | 'warning';
/** A toast's one action besides closing it (Undo): the toast closes when it is used. */
export interface ToastButton {
  label: string;
  onClick: () => void;
}
export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  button?: ToastButton;
}

type Listener = () => void;
let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();
/** When each running toast closes (ms since the epoch), and what is left of a held one. */
const deadlines = new Map<number, number>();
const held = new Map<number, number>();

const publish = (next: readonly Toast[]) => {
  toasts = next;
  for (const l of listeners) l();
};

export function dismissToast(id: number): void {
  const t = timers.get(id);
  if (t) clearTimeout(t);
  timers.delete(id);
  deadlines.delete(id);
  held.delete(id);
  actions.delete(id);
  publish(toasts.filter((x) => x.id !== id));
}

function runFor(id: number, ms: number) {
  deadlines.set(id, Date.now() + ms);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), ms),
  );
}

/**
 * Stops a toast's clock while the pointer is over it or focus is in it (WCAG 2.2.1: a person
 * reading or reaching its close button keeps it); releaseToast starts what was left again.
 */
export function holdToast(id: number): void {
  const t = timers.get(id);
  if (!t) return;
  clearTimeout(t);
  timers.delete(id);
  held.set(id, Math.max(0, (deadlines.get(id) ?? Date.now()) - Date.now()));
}

export function releaseToast(id: number): void {
  const left = held.get(id);
  if (left === undefined) return;
  held.delete(id);
  // at least a second more, so it does not vanish the moment the pointer leaves
  runFor(id, Math.max(left, 1000));
}

/** The action each toast speaks for (a mutation's key), when it has one. */
const actions = new Map<number, string>();

/**
 * Shows a toast that closes itself after TOAST_AUTO_CLOSE_MS (spec section 9), held while in use.
 * The same words of the same type are never stacked: the toast already shown starts its time again
 * (one bad session made four "Your session has expired"). A toast for an action replaces the
 * toasts that action raised before (a success takes the place of its earlier error).
 */
function showToast(type: ToastType, message: string, action?: string, button?: ToastButton): number {
  if (action !== undefined) dismissActionToasts(action);
  const same = toasts.find((x) => x.type === type && x.message === message);
  if (same) {
    if (action !== undefined) actions.set(same.id, action);
    if (!held.has(same.id)) {
      const t = timers.get(same.id);
      if (t) clearTimeout(t);
      runFor(same.id, TOAST_AUTO_CLOSE_MS);
    }
    return same.id;
  }
  const id = nextId++;
  if (action !== undefined) actions.set(id, action);
  publish([...toasts, { id, type, message, ...(button ? { button } : {}) }]);
  runFor(id, TOAST_AUTO_CLOSE_MS);
  return id;
}

/** Closes the toasts an action raised (its error, once it has succeeded). */
export function dismissActionToasts(action: string): void {
  for (const [id, a] of [...actions]) if (a === action) dismissToast(id);
}

/** `action` names what the toast reports on (a mutation's key): its next toast replaces this one. */
export const toast = {
  success: (m: string, action?: string, button?: ToastButton) => showToast('success', m, action, button),
  error: (m: string, action?: string) => showToast('error', m, action),
  info: (m: string, action?: string) => showToast('info', m, action),
  warning: (m: string, action?: string) => showToast('warning', m, action),
};

export function subscribeToasts(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export const getToasts = (): readonly Toast[] => toasts;

/** Removes every toast (tests, sign-out). */
export function clearToasts(): void {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
  deadlines.clear();
  held.clear();
  actions.clear();
  publish([]);
}
