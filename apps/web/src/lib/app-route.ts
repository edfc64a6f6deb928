import type { Access } from '@sac/contract/endpoints';
import type { ReactNode } from 'react';
import type { ShellPhraseRef } from './i18n.tsx';

/**
 * One route of a feature's table. Every route states the access it needs: 'public', 'session' (any
 * signed-in user) or a permission of the contract's matrix. The app turns these into router routes,
 * wrapping them in the token guard and the permission check.
 */
export interface AppRoute {
  /** The screen's path pattern, from the contract's table (`consolePaths.x.path`). */
  path?: string;
  index?: boolean;
  access: Access;
  /** Only for visitors without a token (the sign-in screens): others go to /dashboard. */
  guestOnly?: boolean;
  /**
   * Names the screen in the sidebar, breadcrumb and document title: a phrase the shell always has
   * (i18n/en/screens.ts), since it names every section's screens before their words are loaded.
   */
  label?: ShellPhraseRef;
  /** Shown as a sidebar tab of its section (default: true when labelled). */
  tab?: boolean;
  /** Groups this tab under a sidebar parent of that name. */
  parent?: ShellPhraseRef;
  /** Text shown instead of the screen when the permission is missing. */
  deniedText?: string;
  element: ReactNode;
  children?: readonly AppRoute[];
}

/** A section of the console: a top-level path with a sidebar of tabs (its labelled child routes). */
export interface AppSection {
  path: string;
  access: Access;
  label: ShellPhraseRef;
  /** The sidebar starts collapsed on these paths (the customer search may hide it). */
  sidebarCollapsedOn?: readonly string[];
  children: readonly AppRoute[];
}
