import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';

export interface MenuLink {
  id: string;
  label: string;
  to: string;
}

/** Open/close state of a popup that closes on Escape, outside clicks and navigation. */
function usePopup() {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close whenever the path changes
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  const onKeyDown = useCallback((e: KeyboardEvent<HTMLElement>) => {
    const root = rootRef.current;
    if (!root) return;
    if (e.key === 'Escape') {
      setOpen(false);
      buttonRef.current?.focus();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const items = [...root.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter(
      (el) => el.offsetParent !== null || !el.closest('[hidden]'),
    );
    if (items.length === 0) return;
    e.preventDefault();
    const i = items.indexOf(document.activeElement as HTMLElement);
    const next = e.key === 'ArrowDown' ? (i + 1) % items.length : (i - 1 + items.length) % items.length;
    items[i === -1 ? 0 : next]?.focus();
  }, []);
  return { open, setOpen, rootRef, buttonRef, onKeyDown };
}

interface DropdownProps {
  label: ReactNode;
  /** Accessible name of the trigger when the label is not plain text. */
  ariaLabel?: string;
  active?: boolean;
  align?: 'start' | 'end';
  className?: string;
  children: (close: () => void) => ReactNode;
}

/** A menu button with a popup menu (role=menu); items are `menuitem`s. */
export function Dropdown({ label, ariaLabel, active, align = 'start', className, children }: DropdownProps) {
  const { open, setOpen, rootRef, buttonRef, onKeyDown } = usePopup();
  const menuId = useId();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard handling for the menu it wraps
    <div ref={rootRef} className={`dropdown${className ? ` ${className}` : ''}`} onKeyDown={onKeyDown}>
      <button
        ref={buttonRef}
        type="button"
        className={`nav-item dropdown-trigger${active ? ' is-active' : ''}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={ariaLabel}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        <span className="caret" aria-hidden="true" />
      </button>
      <div id={menuId} role="menu" className={`dropdown-menu align-${align}`} hidden={!open}>
        {children(() => setOpen(false))}
      </div>
    </div>
  );
}

/** A dropdown whose items are links. */
export function LinkMenu({
  label,
  items,
  active,
}: {
  label: string;
  items: readonly MenuLink[];
  active?: boolean;
}) {
  return (
    <Dropdown label={label} active={active}>
      {(close) =>
        items.map((item) => (
          <Link key={item.id} role="menuitem" className="menu-item" to={item.to} onClick={close}>
            {item.label}
          </Link>
        ))
      }
    </Dropdown>
  );
}
