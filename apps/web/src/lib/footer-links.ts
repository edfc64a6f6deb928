import type { RuntimeConfig } from './api-base.ts';
import { useT } from './i18n.tsx';

/**
 * The provider's branding from the runtime configuration: the product name and the footer's
 * destinations (PRODUCT_NAME, FOOTER_TERMS_URL, FOOTER_PRIVACY_URL, FOOTER_STATUS_URL on the
 * server). Placeholders until the provider configures them.
 */
export const PLACEHOLDER_LINKS = {
  terms: 'https://www.example.com/terms',
  privacy: 'https://www.example.com/privacy',
  systemStatus: 'https://status.example.com/',
} as const;

let branding: Pick<RuntimeConfig, 'productName' | 'links'> = { productName: null, links: null };

/** Set once at start-up from /runtime-config.json. */
export function setBranding(config: Pick<RuntimeConfig, 'productName' | 'links'>): void {
  branding = { productName: config.productName, links: config.links };
}

export const footerLinks = (): { terms: string; privacy: string; systemStatus: string } =>
  branding.links ?? PLACEHOLDER_LINKS;

/** The product name to show: the provider's, or the console's own phrase. */
export function useProductName(): string {
  const common = useT('common');
  return branding.productName ?? common('productName');
}
