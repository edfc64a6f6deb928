import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { LinkMenu } from '../../components/dropdown-menu.tsx';
import { translatePhrase, useLanguage, useT } from '../../lib/i18n.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { visibleNavigation } from '../navigation.ts';
import styles from './top-nav.module.css';

/**
 * Dashboard, Manage Customer (menu), Manage Superuser (menu), Manage Notfications: each only when
 * the viewer may open a screen behind it, a menu with only the tabs they may open (never an empty
 * one; navigation.ts reads both from the route table). On a phone the
 * navigation folds behind a Menu button (a disclosure): it opens as a column under the bar and
 * closes on navigation or Escape.
 */
export function TopNav() {
  const t = useT('chrome');
  const { language } = useLanguage();
  const { pathname } = useLocation();
  const { permissions } = useCurrentUser();
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const navId = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes when the screen changes
  useEffect(() => setOpen(false), [pathname]);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // A dropdown inside answers Escape first (it stops the event); this closes the whole panel.
    if (e.key !== 'Escape' || !open) return;
    setOpen(false);
    toggleRef.current?.focus();
  };
  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        className={styles.navToggle}
        aria-expanded={open}
        aria-controls={navId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className={styles.navToggleBars} aria-hidden="true" />
        {t('menu')}
      </button>
      <nav
        id={navId}
        className={`top-nav${open ? ' is-open' : ''}`}
        aria-label={t('mainNav')}
        onKeyDown={onKeyDown}
      >
        {visibleNavigation(permissions).map((entry) =>
          'items' in entry ? (
            <LinkMenu
              key={entry.id}
              label={translatePhrase(language, entry.label)}
              items={entry.items.map((item) => ({
                id: item.id,
                to: item.to,
                label: translatePhrase(language, item.label),
              }))}
              active={pathname.startsWith(entry.path)}
            />
          ) : (
            <NavLink key={entry.id} to={entry.to} className="nav-item">
              {translatePhrase(language, entry.label)}
            </NavLink>
          ),
        )}
      </nav>
    </>
  );
}
