import type { Permission } from './permissions.ts';

/**
 * Role scopes: a custom role may hold its permissions only over the sites of some data centers
 * and/or plans. A site is in a scope when it matches every axis the scope sets (an axis left null
 * is any); a customer is in it when they own or are a member of a site in it. A principal's scope
 * for one permission is the union of the scopes of the roles that grant it, and none (everything)
 * when any role granting it is unscoped, so a scoped role never narrows what another role gives.
 */
export interface SiteScope {
  /** Data center codes; null: any data center. */
  readonly dataCenters: readonly string[] | null;
  /** Plans; null: any plan. */
  readonly plans: readonly string[] | null;
}

/**
 * The permissions a scope can hold: those over customers and sites. The rest (staff, the trail,
 * single sign-on) are the platform's, not a customer's, and a scoped role cannot hold them.
 */
export const SCOPABLE_PERMISSIONS = [
  'customers.read',
  'customers.write',
  'sites.read',
  'sites.write',
  'impersonation.request',
  'impersonation.approve',
  'impersonation.logs.read',
  'site-settings.read',
  'site-settings.write',
  'activity.read',
  'notices.send',
] as const satisfies readonly Permission[];

export type ScopablePermission = (typeof SCOPABLE_PERMISSIONS)[number];

const SCOPABLE = new Set<string>(SCOPABLE_PERMISSIONS);
export const isScopable = (p: string): p is ScopablePermission => SCOPABLE.has(p);

/**
 * How an endpoint over customer data keeps to the caller's scope:
 * - 'site': the site its query or body names by `appId` must be in scope (checked before the
 *   handler runs, one statement, only for a scoped caller);
 * - 'customer': the same for the customer named by `uid`;
 * - 'customer-account': a write to the customer's account itself (profile, password, email), which
 *   reaches every site they sign in to: each site they own or belong to must be in scope;
 * - 'service': the service keeps to the scope itself: it filters what it reads (lists, searches,
 *   exports, counts) and checks a record it reaches by another key (a request, a notice) or makes;
 * - 'none': it reads nothing of a customer or site (catalogues such as plans and features).
 */
export type ScopeRule = 'site' | 'customer' | 'customer-account' | 'service' | 'none';

/** What a principal's roles scope, per permission; a permission not named is unscoped. */
export type PermissionScopes = Readonly<Record<string, readonly SiteScope[]>>;

/** The caller's scope for one permission: undefined when it reaches every site. */
export const scopeFor = (
  scopes: PermissionScopes | null | undefined,
  permission: string,
): readonly SiteScope[] | undefined => scopes?.[permission];
