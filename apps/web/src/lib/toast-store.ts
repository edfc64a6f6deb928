import { TOAST_AUTO_CLOSE_MS } from '@sac/contract/constants';

type ToastType = 'success' | 'error' | 'info' | 'warning';
export interface Toast {
  id: number;
  type: ToastType;
  message: string;
}

type Listener = () => void;
let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<Listener>();
const timers = new Map<number, ReturnType<typeof setTimeout>>();

const publish = (next: readonly Toast[]) => {
  toasts = next;
  for (const l of listeners) l();
};

export function dismissToast(id: number): void {
  const t = timers.get(id);
  if (t) clearTimeout(t);
  timers.delete(id);
  publish(toasts.filter((x) => x.id !== id));
}

/** Shows a toast that closes itself after TOAST_AUTO_CLOSE_MS (spec section 9). */
function showToast(type: ToastType, message: string): number {
  const id = nextId++;
  publish([...toasts, { id, type, message }]);
  timers.set(
    id,
    setTimeout(() => dismissToast(id), TOAST_AUTO_CLOSE_MS),
  );
  return id;
}

export const toast = {
  success: (m: string) => showToast('success', m),
  error: (m: string) => showToast('error', m),
  info: (m: string) => showToast('info', m),
  warning: (m: string) => showToast('warning', m),
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
  publish([]);
}
