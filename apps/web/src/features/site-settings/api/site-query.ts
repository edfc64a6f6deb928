// What every settings section's calls share: the site they work on, the query keys by caller
// and site, the query and auth of a call, and the retry rule of impersonated reads.
import type { SettingSet } from '@sac/contract/encryption-settings';
import type { DomainListFilter } from '@sac/contract/site-settings';
import { type ApiAuth, withAuth } from '../../../lib/api-auth.tsx';

/** The site a configuration section works on; who calls comes from `useApiAuth()`. */
export interface SiteRef {
  uid: string;
  appId: number;
}

/** Query keys: by caller (the staff member, or one impersonation pair) then by site. */
export const siteSettingsKeys = {
  all: ['site-settings'] as const,
  site: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.all, a.scope, s.uid, s.appId] as const,
  siteInfo: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'site-info'] as const,
  appSettings: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'app-settings'] as const,
  security: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'security'] as const,
  customObjects: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'custom-objects'] as const,
  customDomains: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'custom-domains'] as const,
  encryption: (a: ApiAuth, s: SiteRef, set: SettingSet) =>
    [...siteSettingsKeys.site(a, s), 'encryption', set] as const,
  fields: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'registration-fields'] as const,
  dataSources: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'data-sources'] as const,
  integrations: (a: ApiAuth, s: SiteRef) => [...siteSettingsKeys.site(a, s), 'integrations'] as const,
  hubDomain: () => [...siteSettingsKeys.all, 'hub-domain'] as const,
  everySiteDomains: (status: DomainListFilter | undefined) =>
    [...siteSettingsKeys.all, 'every-site-domains', status ?? 'all'] as const,
};

export const call = (a: ApiAuth, s: SiteRef, signal?: AbortSignal) => ({
  query: { uid: s.uid, appId: s.appId },
  signal,
  ...withAuth(a),
});
/** Impersonated reads fail at once (a refused call will not change on retry). */
export const retryOf = (a: ApiAuth) => (a.pair ? { retry: false } : {});
