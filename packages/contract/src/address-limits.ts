/**
 * Public doors limited per client address, beside sign-in's own daily limit: which endpoints share
 * a budget, and the budget's default (each a setting of the API).
 */
export const ADDRESS_LIMITS = {
  /** Forgot and reset password: anonymous, and each may mail or hash. */
  passwordReset: { endpoints: ['forgotPassword', 'resetPassword'], calls: 30, windowMs: 3_600_000 },
  /** The site owner's consent, site-access and unsubscribe links, opened from their mail. */
  customerLinks: {
    endpoints: [
      'consentDetails',
      'consentAnswer',
      'siteAccess',
      'siteAccessExport',
      'siteAccessFeed',
      'noticeUnsubscribeDetails',
      'noticeUnsubscribe',
    ],
    calls: 60,
    windowMs: 60_000,
  },
  /** A customer's own request for help, authenticated by the site's API key and secret. */
  customerRequests: { endpoints: ['customerRequestsCreate'], calls: 30, windowMs: 3_600_000 },
  /** Single sign-on's two doors: each start stores a pending sign-in, each finish calls the provider. */
  singleSignOn: { endpoints: ['ssoStart', 'ssoFinish'], calls: 60, windowMs: 60_000 },
  /**
   * SCIM provisioning (/scim/v2, beside the endpoint table): each client address, and each SCIM
   * token apart, has this budget; a full sync of a few thousand members takes minutes, not hours.
   */
  scim: { endpoints: ['scim'], calls: 600, windowMs: 60_000 },
} as const;
export type AddressLimitName = keyof typeof ADDRESS_LIMITS;

/** Each counted endpoint's limit: looked up on every call. */
const LIMIT_OF_ENDPOINT = new Map<string, AddressLimitName>(
  Object.entries(ADDRESS_LIMITS).flatMap(([name, l]) =>
    l.endpoints.map((e): [string, AddressLimitName] => [e, name as AddressLimitName]),
  ),
);

/** The limit an endpoint is counted under, if any. */
export const addressLimitOf = (endpointId: string): AddressLimitName | undefined =>
  LIMIT_OF_ENDPOINT.get(endpointId);
