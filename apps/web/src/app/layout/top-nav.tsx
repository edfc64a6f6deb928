import { consolePaths } from '@sac/contract/console-paths';
import type { Access } from '@sac/contract/endpoints';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { LinkMenu } from '../../components/dropdown-menu.tsx';
import { translatePhrase, useLanguage, useT } from '../../lib/i18n.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { sections, sectionTabs } from '../route-table.tsx';
import styles from './top-nav.module.css';

const SECTION_NAV_LABEL = {
  [consolePaths.customers.path]: 'manageCustomer',
  [consolePaths.team.path]: 'manageSuperuser',
} as const;

/**
 * Dashboard, Manage Customer (menu), Manage Superuser (menu), Manage Notfications. On a phone the
 * navigation folds behind a Menu button (a disclosure): it opens as a column under the bar and
 * closes on navigation or Escape.
 */
export function TopNav() {
  const t = useT('chrome');
  const { language } = useLanguage();
  const { pathname } = useLocation();
  const { permissions } = useCurrentUser();
  const allowed = (access: Access) => access === 'public' || access === 'session' || permissions.has(access);
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
        <NavLink to={consolePaths.dashboard()} className="nav-item">
          {t('dashboard')}
        </NavLink>
        {sections.map((s) => {
          const key = SECTION_NAV_LABEL[s.path as keyof typeof SECTION_NAV_LABEL];
          const items = sectionTabs(s)
            .filter((tab) => allowed(tab.access))
            .map((tab) => ({
              id: tab.id,
              to: tab.to,
              label: translatePhrase(language, tab.label),
            }));
          return (
            <LinkMenu
              key={s.path}
              label={key ? t(key) : translatePhrase(language, s.label)}
              items={items}
              active={pathname.startsWith(s.path)}
            />
          );
        })}
        <NavLink to={consolePaths.notifications()} className="nav-item">
          {t('manageNotifications')}
        </NavLink>
      </nav>
    </>
  );
}
