import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { useT } from '../lib/i18n.tsx';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The open dialogs, innermost last: only the innermost one answers keys. */
const openDialogs: HTMLElement[] = [];

const focusables = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];

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
 * A modal dialog (role=dialog, aria-modal) named by its heading. Focus moves into it, stays in it
 * (Tab wraps), and returns to the element that opened it when it closes. Escape closes it and Tab
 * brings focus back into it even when focus has left it (a field blurred, a removed element).
 */
export function Dialog({ title, onClose, busy = false, wide = false, children }: DialogProps) {
  const t = useT('common');
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const backdropRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = busy ? () => {} : onClose;

  // A press on the backdrop (outside the dialog) closes it, as Escape does.
  useEffect(() => {
    const backdrop = backdropRef.current;
    if (!backdrop) return;
    const onDown = (e: MouseEvent) => {
      if (e.target === backdrop) closeRef.current();
    };
    backdrop.addEventListener('mousedown', onDown);
    return () => backdrop.removeEventListener('mousedown', onDown);
  }, []);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const root = ref.current;
    const first =
      root?.querySelector<HTMLElement>('[data-autofocus]') ??
      root?.querySelector('.dialog-body')?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? root)?.focus();
    if (!root) return;
    openDialogs.push(root);
    // Keys pressed while focus is outside the dialog (on the body after a blur, say): the
    // dialog's own handler does not see them, so the innermost dialog answers them here.
    const onDocumentKey = (e: globalThis.KeyboardEvent) => {
      if (openDialogs[openDialogs.length - 1] !== root || root.contains(e.target as Node)) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        closeRef.current();
      } else if (e.key === 'Tab') {
        e.preventDefault();
        const items = focusables(root);
        const target = e.shiftKey ? items[items.length - 1] : items[0];
        (target ?? root).focus();
      }
    };
    document.addEventListener('keydown', onDocumentKey);
    return () => {
      document.removeEventListener('keydown', onDocumentKey);
      openDialogs.splice(openDialogs.indexOf(root), 1);
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      if (!busy) onClose();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const items = focusables(ref.current);
    if (items.length === 0) {
      e.preventDefault();
      return;
    }
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && (document.activeElement === first || document.activeElement === ref.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="dialog-backdrop" ref={backdropRef}>
      <div
        ref={ref}
        className={wide ? 'dialog dialog-wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button
            type="button"
            className="dialog-close"
            aria-label={t('close')}
            disabled={busy}
            onClick={onClose}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  );
}
