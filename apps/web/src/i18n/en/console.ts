/**
 * The English namespaces of the signed-in console beyond the sign-in screens', each loaded on
 * demand as its own chunk (lib/i18n.tsx): a section's lazy route awaits the namespaces its screen
 * shows (`withPhrases`), the shell awaits its own (`SHELL_NAMESPACES`), so a first view downloads
 * only the words it shows. Most import the contract's message tables (and with them its schemas),
 * which the sign-in screen does not need. A new namespace goes here.
 */
export const consoleNamespaces = {
  apiTokens: () => import('./api-tokens.ts').then((m) => m.apiTokens),
  audit: () => import('./audit.ts').then((m) => m.audit),
  auditActions: () => import('./audit-actions.ts').then((m) => m.auditActions),
  customers: () => import('./customers.ts').then((m) => m.customers),
  impersonation: () => import('./impersonation.ts').then((m) => m.impersonation),
  screens: () => import('./screens.ts').then((m) => m.screens),
  security: () => import('./security.ts').then((m) => m.security),
  siteSettings: () => import('./site-settings.ts').then((m) => m.siteSettings),
  staffNotifications: () => import('./staff-notifications.ts').then((m) => m.staffNotifications),
  team: () => import('./team.ts').then((m) => m.team),
  webhooks: () => import('./webhooks.ts').then((m) => m.webhooks),
};

type Loaders = typeof consoleNamespaces;
/** Each on-demand namespace's phrases, as its file has them. */
export type ConsoleNamespaces = { [N in keyof Loaders]: Awaited<ReturnType<Loaders[N]>> };
