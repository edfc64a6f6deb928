import { Suspense, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Sidebar, type SidebarItem } from '../../components/sidebar.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import type { AppSection } from '../../lib/app-route.ts';
import { translatePhrase, useLanguage, useT } from '../../lib/i18n.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { sectionTabs } from '../route-table.tsx';
import styles from './section-layout.module.css';

/** A section: its sidebar of tabs (those the user may open) and the content pane. */
export default function SectionLayout({ section }: { section: AppSection }) {
  const { language } = useLanguage();
  const t = useT('chrome');
  const { permissions } = useCurrentUser();
  const { pathname } = useLocation();

  const items = useMemo(() => {
    const out: SidebarItem[] = [];
    const parents = new Map<string, SidebarItem & { children: SidebarItem[] }>();
    for (const tab of sectionTabs(section)) {
      if (tab.access !== 'session' && tab.access !== 'public' && !permissions.has(tab.access)) continue;
      const item: SidebarItem = {
        id: tab.id,
        to: tab.to,
        label: translatePhrase(language, tab.label),
      };
      if (!tab.parent) {
        out.push(item);
        continue;
      }
      const key = `${tab.parent.ns}.${tab.parent.key}`;
      let parent = parents.get(key);
      if (!parent) {
        parent = {
          id: key,
          label: translatePhrase(language, tab.parent),
          children: [],
        };
        parents.set(key, parent);
        out.push(parent);
      }
      parent.children.push(item);
    }
    return out;
  }, [section, permissions, language]);

  const sectionName = translatePhrase(language, section.label);
  const collapsed = (section.sidebarCollapsedOn ?? []).includes(pathname);

  return (
    <div className={styles.sectionLayout}>
      <Sidebar
        key={section.path}
        title={sectionName}
        label={t('sectionNav', { section: sectionName })}
        items={items}
        defaultCollapsed={collapsed}
      />
      <div className={styles.sectionContent}>
        <Suspense fallback={<Skeleton screen />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
