/**
 * Footer destinations. The spec names the links but not their addresses; these are the provider's
 * public pages (placeholders until the provider's addresses are configured).
 */
export const FOOTER_LINKS = {
  terms: 'https://www.example.com/terms',
  privacy: 'https://www.example.com/privacy',
  systemStatus: 'https://status.example.com/',
} as const;
