import { useEffect, useState } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { useT } from '../lib/i18n.tsx';
import styles from './sidebar.module.css';

export interface SidebarItem {
  id: string;
  label: string;
  /** A leaf's link; parents have children instead. */
  to?: string;
  children?: readonly SidebarItem[];
}

/** The first child link that does not contain the text 'undefined' (spec section 2). */
export function firstChildLink(children: readonly SidebarItem[] | undefined): string | undefined {
  for (const child of children ?? []) {
    if (child.to && !child.to.includes('undefined')) return child.to;
    const nested = firstChildLink(child.children);
    if (nested) return nested;
  }
  return undefined;
}

const containsPath = (item: SidebarItem, pathname: string): boolean =>
  (item.to !== undefined && (pathname === item.to || pathname.startsWith(`${item.to}/`))) ||
  (item.children ?? []).some((c) => containsPath(c, pathname));

interface SidebarProps {
  /** Accessible name of the navigation landmark. */
  label: string;
  /** Visible heading (the section's name). */
  title?: string;
  items: readonly SidebarItem[];
  /** Start collapsed (e.g. the customer search screen may hide the sidebar). */
  defaultCollapsed?: boolean;
}

/**
 * Section sidebar: leaf tabs and parents with a child group. A parent toggles its group and, when
 * opening it, moves to its first usable child link. The whole sidebar collapses and expands.
 */
export function Sidebar({ label, title, items, defaultCollapsed = false }: SidebarProps) {
  const t = useT('chrome');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [collapsed, setCollapsed] = useState(defaultCollapsed);
  const [open, setOpen] = useState<ReadonlySet<string>>(
    () => new Set(items.filter((i) => i.children && containsPath(i, pathname)).map((i) => i.id)),
  );

  // Keep the group of the current screen open when navigation happens elsewhere.
  useEffect(() => {
    const active = items.find((i) => i.children && containsPath(i, pathname));
    if (active) setOpen((prev) => (prev.has(active.id) ? prev : new Set(prev).add(active.id)));
  }, [items, pathname]);

  const toggleParent = (item: SidebarItem) => {
    const opening = !open.has(item.id);
    setOpen((prev) => {
      const next = new Set(prev);
      if (opening) next.add(item.id);
      else next.delete(item.id);
      return next;
    });
    if (opening) {
      const target = firstChildLink(item.children);
      if (target) navigate(target);
    }
  };

  const renderItems = (list: readonly SidebarItem[], depth: number) => (
    <ul className={depth === 0 ? styles.sidebarList : styles.sidebarChildren}>
      {list.map((item) =>
        item.children ? (
          <li key={item.id} className="sidebar-parent">
            <button
              type="button"
              className={`${styles.sidebarLink} ${styles.sidebarParentButton}${containsPath(item, pathname) ? ' is-active-parent' : ''}`}
              aria-expanded={open.has(item.id)}
              aria-controls={`sidebar-group-${item.id}`}
              onClick={() => toggleParent(item)}
            >
              <span>{item.label}</span>
              <span className={styles.sidebarCaret} aria-hidden="true" />
            </button>
            <div id={`sidebar-group-${item.id}`} hidden={!open.has(item.id)}>
              {renderItems(item.children, depth + 1)}
            </div>
          </li>
        ) : (
          <li key={item.id}>
            <NavLink to={item.to ?? '#'} className={styles.sidebarLink}>
              {item.label}
            </NavLink>
          </li>
        ),
      )}
    </ul>
  );

  return (
    <aside className={`${styles.sidebar}${collapsed ? ' is-collapsed' : ''}`}>
      <div className={styles.sidebarHeader}>
        {title && !collapsed ? <p className={styles.sidebarTitle}>{title}</p> : null}
        <button
          type="button"
          className={styles.sidebarCollapse}
          aria-expanded={!collapsed}
          aria-controls="section-sidebar-nav"
          onClick={() => setCollapsed((c) => !c)}
          title={collapsed ? t('expandSidebar') : t('collapseSidebar')}
        >
          <span className={styles.sidebarCollapseIcon} aria-hidden="true" />
          <span className="visually-hidden">{collapsed ? t('expandSidebar') : t('collapseSidebar')}</span>
        </button>
      </div>
      <nav id="section-sidebar-nav" aria-label={label} hidden={collapsed}>
        {renderItems(items, 0)}
      </nav>
    </aside>
  );
}
