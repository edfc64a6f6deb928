import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type SyntheticEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
} from 'react';
import { useT } from '../lib/i18n.tsx';
import styles from './dialog.module.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The toast slot of each open dialog, the last opened last. A modal dialog is in the top layer,
 * above the page's toaster: the toaster shows its toasts in the topmost dialog's slot, above the
 * dialog's content and in its flow, so a toast is seen and never covers what the dialog shows.
 */
let slots: readonly HTMLElement[] = [];
const slotListeners = new Set<() => void>();
const setSlots = (next: readonly HTMLElement[]) => {
  slots = next;
  for (const l of slotListeners) l();
};
export function subscribeDialogSlot(l: () => void): () => void {
  slotListeners.add(l);
  return () => slotListeners.delete(l);
}
/** Where toasts go while a dialog is open; null when none is. */
export const getDialogToastSlot = (): HTMLElement | null => slots.at(-1) ?? null;

interface DialogProps {
  title: string;
  /** Called on Escape, the close button and the backdrop; not called while `busy`. */
  onClose: () => void;
  busy?: boolean;
  /** A wider dialog, for detail lists. */
  wide?: boolean;
  children: ReactNode;
}

/**
 * Tab at either end goes round to the other end: the inert page cannot take focus, but the
 * browser would hand it to its own controls (the address bar) and leave it on the body.
 */
function keepTabInside(root: HTMLDialogElement, e: KeyboardEvent<HTMLDialogElement>) {
  const target = e.target as Element;
  if (e.key !== 'Tab' || target.closest('dialog') !== root) return;
  const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (!first || !last) {
    e.preventDefault();
  } else if (e.shiftKey && (active === first || active === root)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog: the platform's `<dialog>` opened with `showModal()`, named by its heading. The
 * browser puts it in the top layer, makes the rest of the page inert (no click, focus or find
 * reaches it) and turns Escape into a `cancel` event. Focus moves to the `data-autofocus` element,
 * else the first field of the body, and returns to the element that opened it when it closes.
 */
export function Dialog({ title, onClose, busy = false, wide = false, children }: DialogProps) {
  const t = useT('common');
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const slotRef = useRef<HTMLDivElement>(null);

  // A layout effect: the dialog is modal before the first paint, and closed while still in the
  // page when it goes (a removed dialog is not closed, and its opener would not get focus back).
  useLayoutEffect(() => {
    const root = ref.current;
    if (!root) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!root.open) root.showModal();
    const slot = slotRef.current;
    if (slot) setSlots([...slots, slot]);
    const first =
      root.querySelector<HTMLElement>('[data-autofocus]') ??
      root.querySelector(`.${styles.body}`)?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? root).focus();
    return () => {
      if (slot) setSlots(slots.filter((x) => x !== slot));
      root.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // The browser's guard against dialogs that never close lets a second Escape close the dialog even
  // when its `cancel` is refused, so while busy Escape is stopped at the key, before it asks.
  useEffect(() => {
    if (!busy) return;
    // Only Escape aimed at this dialog: one opened above it (a step-up) must still close on Escape.
    const stop = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && ref.current?.contains(e.target as Node)) e.preventDefault();
    };
    document.addEventListener('keydown', stop, true);
    return () => document.removeEventListener('keydown', stop, true);
  }, [busy]);

  /**
   * Escape: the caller closes the dialog (by no longer rendering it), so the browser must not. React
   * passes a nested dialog's `cancel` up to this one's handler too: only this dialog's own counts.
   */
  const onCancel = (e: SyntheticEvent<HTMLDialogElement>) => {
    if (e.target !== e.currentTarget) return;
    e.preventDefault();
    if (!busy) onClose();
  };

  /** A press on the backdrop lands on the dialog element itself, outside its box. */
  const onMouseDown = (e: MouseEvent<HTMLDialogElement>) => {
    if (e.target !== ref.current) return;
    const box = ref.current.getBoundingClientRect();
    const inside =
      e.clientX >= box.left && e.clientX <= box.right && e.clientY >= box.top && e.clientY <= box.bottom;
    if (inside || busy) return;
    e.preventDefault(); // the press would move focus after the dialog has gone, from its opener
    onClose();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (ref.current) keepTabInside(ref.current, e);
  };

  return (
    <dialog
      ref={ref}
      className={wide ? `${styles.dialog} ${styles.wide}` : styles.dialog}
      aria-labelledby={titleId}
      tabIndex={-1}
      onCancel={onCancel}
      onMouseDown={onMouseDown}
      onKeyDown={onKeyDown}
    >
      <div className={styles.header}>
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className={styles.close}
          aria-label={t('close')}
          disabled={busy}
          onClick={onClose}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div ref={slotRef} className={styles.toastSlot} />
      <div className={styles.body}>{children}</div>
    </dialog>
  );
}
