import type { Access } from '@sac/contract/endpoints';
import { NavLink, useLocation } from 'react-router';
import { LinkMenu } from '../../components/dropdown-menu.tsx';
import { translate, useLanguage, useT } from '../../lib/i18n.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { sections, sectionTabs } from '../route-table.tsx';

const SECTION_NAV_LABEL = {
  'manage-customer': 'manageCustomer',
  'manage-superuser': 'manageSuperuser',
} as const;

/** Dashboard, Manage Customer (menu), Manage Superuser (menu), Manage Notfications. */
export function TopNav() {
  const t = useT('chrome');
  const { language } = useLanguage();
  const { pathname } = useLocation();
  const { permissions } = useCurrentUser();
  const allowed = (access: Access) => access === 'public' || access === 'session' || permissions.has(access);
  return (
    <nav className="top-nav" aria-label={t('mainNav')}>
      <NavLink to="/dashboard" className="nav-item">
        {t('dashboard')}
      </NavLink>
      {sections.map((s) => {
        const key = SECTION_NAV_LABEL[s.path as keyof typeof SECTION_NAV_LABEL];
        const items = sectionTabs(s)
          .filter((tab) => allowed(tab.access))
          .map((tab) => ({
            id: tab.id,
            to: tab.to,
            label: translate(language, tab.label.ns, tab.label.key as never),
          }));
        return (
          <LinkMenu
            key={s.path}
            label={key ? t(key) : translate(language, s.label.ns, s.label.key as never)}
            items={items}
            active={pathname.startsWith(`/${s.path}`)}
          />
        );
      })}
      <NavLink to="/manage-notifications" className="nav-item">
        {t('manageNotifications')}
      </NavLink>
    </nav>
  );
}
