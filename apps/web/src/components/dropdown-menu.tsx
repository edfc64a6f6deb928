import {
  type FocusEvent,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link, useLocation } from 'react-router';
import styles from './dropdown-menu.module.css';

export interface MenuLink {
  id: string;
  label: string;
  to: string;
}

/** Where focus goes when a popup opens from the keyboard. */
type FocusOnOpen = 'first' | 'last' | undefined;

/**
 * Open/close state and keys of a popup under a button (WAI-ARIA APG): Escape closes it and gives
 * focus back to the button, focus leaving it or a click outside closes it, navigation closes it;
 * ArrowDown and ArrowUp on the button open it on its first or last item, and move between items
 * (Home and End to the ends) inside it. `itemSelector` names its items.
 */
function usePopup(itemSelector: string) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const focusOnOpen = useRef<FocusOnOpen>(undefined);
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
  const items = useCallback(
    () => [...(rootRef.current?.querySelectorAll<HTMLElement>(itemSelector) ?? [])],
    [itemSelector],
  );
  // Focus moves once the opened popup is shown.
  useEffect(() => {
    if (!open || !focusOnOpen.current) return;
    const all = items();
    (focusOnOpen.current === 'first' ? all[0] : all.at(-1))?.focus();
    focusOnOpen.current = undefined;
  }, [open, items]);
  const openOn = useCallback((where: FocusOnOpen) => {
    focusOnOpen.current = where;
    setOpen(true);
  }, []);

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLElement>) => {
      if (e.key === 'Escape') {
        if (!open) return;
        e.preventDefault();
        setOpen(false);
        buttonRef.current?.focus();
        return;
      }
      const onButton = document.activeElement === buttonRef.current;
      if (onButton && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        e.preventDefault();
        if (!open) openOn(e.key === 'ArrowDown' ? 'first' : 'last');
        else {
          const all = items();
          (e.key === 'ArrowDown' ? all[0] : all.at(-1))?.focus();
        }
        return;
      }
      if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
      const all = items();
      const i = all.indexOf(document.activeElement as HTMLElement);
      if (i < 0 || all.length === 0) return;
      e.preventDefault();
      const next =
        e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? all.length - 1
            : e.key === 'ArrowDown'
              ? (i + 1) % all.length
              : (i - 1 + all.length) % all.length;
      all[next]?.focus();
    },
    [open, items, openOn],
  );
  // Tab (or a click elsewhere) taking focus out of the popup closes it.
  const onBlur = useCallback((e: FocusEvent<HTMLElement>) => {
    const to = e.relatedTarget as Node | null;
    if (to && !rootRef.current?.contains(to)) setOpen(false);
  }, []);
  return { open, setOpen, openOn, rootRef, buttonRef, onKeyDown, onBlur };
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

/**
 * A menu button with a popup menu (role=menu, items `menuitem`s), for actions such as the user
 * menu's: Enter, Space and ArrowDown open it on its first item, ArrowUp on its last.
 */
export function Dropdown({ label, ariaLabel, active, align = 'start', className, children }: DropdownProps) {
  const { open, setOpen, openOn, rootRef, buttonRef, onKeyDown, onBlur } = usePopup('[role="menuitem"]');
  const menuId = useId();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard handling for the menu it wraps
    <div
      ref={rootRef}
      className={`dropdown${className ? ` ${className}` : ''}`}
      onKeyDown={onKeyDown}
      onBlur={onBlur}
    >
      <button
        ref={buttonRef}
        type="button"
        className={`nav-item dropdown-trigger${active ? ' is-active' : ''}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={ariaLabel}
        onClick={(e) => {
          // A key's click (Enter, Space: detail 0) opens on the first item, as a menu button does.
          if (!open && e.detail === 0) openOn('first');
          else setOpen((o) => !o);
        }}
      >
        {label}
        <span className={styles.caret} aria-hidden="true" />
      </button>
      <div
        id={menuId}
        role="menu"
        className={`${styles.dropdownMenu} ${styles[`align-${align}`]}`}
        hidden={!open}
      >
        {children(() => setOpen(false))}
      </div>
    </div>
  );
}

/**
 * Site navigation under a button: the WAI-ARIA disclosure navigation pattern, a button that
 * shows and hides a list of links (not a menu: these go places). Enter and Space toggle it, focus
 * staying on the button and Tab going on into the links; ArrowDown opens it on its first link.
 */
export function LinkMenu({
  label,
  items,
  active,
}: {
  label: string;
  items: readonly MenuLink[];
  active?: boolean;
}) {
  const { open, setOpen, rootRef, buttonRef, onKeyDown, onBlur } = usePopup('a');
  const listId = useId();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard handling for the list it wraps
    <div ref={rootRef} className="dropdown" onKeyDown={onKeyDown} onBlur={onBlur}>
      <button
        ref={buttonRef}
        type="button"
        className={`nav-item dropdown-trigger${active ? ' is-active' : ''}`}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        <span className={styles.caret} aria-hidden="true" />
      </button>
      <ul
        id={listId}
        className={`${styles.dropdownMenu} ${styles.dropdownLinks} ${styles.alignStart}`}
        hidden={!open}
      >
        {items.map((item) => (
          <li key={item.id}>
            <Link className={styles.menuItem} to={item.to} onClick={() => setOpen(false)}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A button that shows and hides a panel of links and buttons (the WAI-ARIA disclosure pattern,
 * as LinkMenu, with any content: the notifications' bell). Escape closes it and gives focus back
 * to the button; focus leaving it, a click outside or navigation closes it; ArrowDown opens it on
 * its first control and the arrows move between its controls.
 */
export function DisclosurePanel({
  label,
  ariaLabel,
  className,
  panelLabel,
  children,
}: {
  label: ReactNode;
  ariaLabel: string;
  className?: string;
  /** The accessible name of the panel (a region). */
  panelLabel: string;
  children: (close: () => void) => ReactNode;
}) {
  const { open, setOpen, rootRef, buttonRef, onKeyDown, onBlur } = usePopup(
    '.disclosure-panel a, .disclosure-panel button',
  );
  const panelId = useId();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keyboard handling for the panel it wraps
    <div
      ref={rootRef}
      className={`dropdown${className ? ` ${className}` : ''}`}
      onKeyDown={onKeyDown}
      onBlur={onBlur}
    >
      <button
        ref={buttonRef}
        type="button"
        className="nav-item dropdown-trigger"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={ariaLabel}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      <section
        id={panelId}
        aria-label={panelLabel}
        className={`${styles.dropdownMenu} disclosure-panel ${styles.alignEnd}`}
        hidden={!open}
      >
        {open ? children(() => setOpen(false)) : null}
      </section>
    </div>
  );
}
