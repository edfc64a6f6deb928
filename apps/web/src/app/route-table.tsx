import { consolePaths } from '@sac/contract/console-paths';
import type { RouteObject } from 'react-router';
import { apiTokenRoutes } from '../features/api-tokens/routes.tsx';
import { auditRoutes } from '../features/audit/routes.tsx';
import { accountRoutes, authPublicRoutes } from '../features/auth/routes.tsx';
import { bulkJobRoutes, customersSection } from '../features/customers/routes.tsx';
import {
  breakGlassReviewsRoutes,
  dashboardRoutes,
  trialsEndingRoutes,
} from '../features/dashboard/routes.tsx';
import {
  impersonateSiteRoutes,
  impersonationModeRoute,
  impersonationPublicRoutes,
  impersonationRoutes,
} from '../features/impersonation/routes.tsx';
import { notificationsPublicRoutes, notificationsRoutes } from '../features/notifications/routes.tsx';
import { impersonatedSiteRoutes, siteConfigurationRoutes } from '../features/site-settings/routes.tsx';
import { staffNotificationRoutes } from '../features/staff-notifications/routes.tsx';
import { teamSection } from '../features/team/routes.tsx';
import { webhookRoutes } from '../features/webhooks/routes.tsx';
import type { AppRoute, AppSection } from '../lib/app-route.ts';
import type { ShellPhraseRef } from '../lib/i18n.tsx';
import { FirstAllowedTab, GuestOnly, RequireAccess } from './guards.tsx';

/**
 * The console's route table, composed from the features' tables. To add a screen, add a route to
 * its feature's routes.tsx (with the access it needs); sections get their sidebar tabs from it.
 */
export const publicRoutes: readonly AppRoute[] = [
  ...authPublicRoutes,
  ...impersonationPublicRoutes,
  ...notificationsPublicRoutes,
];

export const sections: readonly AppSection[] = [
  {
    ...customersSection,
    children: [
      ...customersSection.children,
      ...impersonateSiteRoutes,
      ...siteConfigurationRoutes,
      ...trialsEndingRoutes,
    ],
  },
  withFirstAllowedIndex({
    ...teamSection,
    children: [
      ...teamSection.children,
      ...impersonationRoutes,
      ...breakGlassReviewsRoutes,
      ...auditRoutes,
      ...webhookRoutes,
    ],
  }),
];

export const shellRoutes: readonly AppRoute[] = [
  ...dashboardRoutes,
  ...notificationsRoutes,
  ...accountRoutes,
  ...apiTokenRoutes,
  ...staffNotificationRoutes,
  ...bulkJobRoutes,
  impersonationModeRoute(impersonatedSiteRoutes),
];

/**
 * A section whose own address opens the first of its tabs the viewer may open (an Auditor's
 * Manage Superuser opens the audit trail, a SuperAdmin's the team list).
 */
function withFirstAllowedIndex(section: AppSection): AppSection {
  return {
    ...section,
    children: [
      { index: true, access: 'session', element: <FirstAllowedTab tabs={sectionTabs(section)} /> },
      ...section.children.filter((r) => !r.index),
    ],
  };
}

/** Sidebar parents of the sections (a tab with `parent` is grouped under it). */
export interface SectionTab {
  id: string;
  label: ShellPhraseRef;
  to: string;
  access: AppRoute['access'];
  parent?: ShellPhraseRef;
}

export function sectionTabs(section: AppSection): SectionTab[] {
  return section.children
    .filter((r) => r.label && r.path && r.tab !== false)
    .map((r) => ({
      id: r.path!,
      label: r.label!,
      to: r.path!,
      access: r.access,
      ...(r.parent ? { parent: r.parent } : {}),
    }));
}

/** Path -> label of every labelled screen, for the breadcrumb and document title. */
export function pathLabels(): Record<string, ShellPhraseRef> {
  const out: Record<string, ShellPhraseRef> = {
    [consolePaths.account.path]: { ns: 'chrome', key: 'account' },
  };
  const add = (routes: readonly AppRoute[]) => {
    for (const r of routes) {
      if (r.path && r.label) out[r.path] = r.label;
    }
  };
  add(publicRoutes);
  add(shellRoutes);
  for (const s of sections) {
    out[s.path] = s.label;
    add(s.children);
  }
  return out;
}

/** Turns a feature route into a router route wrapped in its permission check. */
export function toRouteObject(r: AppRoute): RouteObject {
  let element = r.element;
  if (r.access !== 'public') {
    element = (
      <RequireAccess access={r.access} deniedText={r.deniedText}>
        {element}
      </RequireAccess>
    );
  }
  if (r.guestOnly) element = <GuestOnly>{element}</GuestOnly>;
  const children = r.children?.map(toRouteObject);
  if (r.index) return { index: true, element };
  return { path: r.path, element, ...(children ? { children } : {}) };
}
