import { apiTokens } from './api-tokens.ts';
import { audit } from './audit.ts';
import { auditActions } from './audit-actions.ts';
import { customers } from './customers.ts';
import { impersonation } from './impersonation.ts';
import { security } from './security.ts';
import { siteSettings } from './site-settings.ts';
import { staffNotifications } from './staff-notifications.ts';
import { team } from './team.ts';
import { webhooks } from './webhooks.ts';

/**
 * The English namespaces of the signed-in console's sections. They import the contract's message
 * tables (and with them its schemas), so lib/i18n.tsx loads them on demand, with the shell and
 * the owner's public pages, not with the sign-in screen.
 */
export const consoleNamespaces = {
  apiTokens,
  audit,
  auditActions,
  customers,
  impersonation,
  security,
  siteSettings,
  staffNotifications,
  team,
  webhooks,
};
