import { Suspense, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router';
import { Sidebar, type SidebarItem } from '../../components/sidebar.tsx';
import { Skeleton } from '../../components/skeleton.tsx';
import type { AppSection } from '../../lib/app-route.ts';
import { translate, useLanguage, useT } from '../../lib/i18n.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { sectionTabs } from '../route-table.tsx';

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
        label: translate(language, tab.label.ns, tab.label.key as never),
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
          label: translate(language, tab.parent.ns, tab.parent.key as never),
          children: [],
        };
        parents.set(key, parent);
        out.push(parent);
      }
      parent.children.push(item);
    }
    return out;
  }, [section, permissions, language]);

  const sectionName = translate(language, section.label.ns, section.label.key as never);
  const collapsed = (section.sidebarCollapsedOn ?? []).some((p) => pathname === `/${section.path}/${p}`);

  return (
    <div className="section-layout">
      <Sidebar
        key={section.path}
        title={sectionName}
        label={t('sectionNav', { section: sectionName })}
        items={items}
        defaultCollapsed={collapsed}
      />
      <div className="section-content">
        <Suspense fallback={<Skeleton screen />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
