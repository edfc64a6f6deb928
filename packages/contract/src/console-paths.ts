/**
 * Every address of the console, in one table: each screen's path pattern (what its route mounts,
 * spec section 2) and a link builder typed from it. The console's route tables take their `path`
 * from here and its links are built here; the API builds the console addresses it mails here too.
 * A new screen's address is one line of this table (docs/architecture.md).
 *
 * `consolePaths.superuserProfile.path` is '/manage-superuser/profile/:uid';
 * `consolePaths.superuserProfile({ uid })` is the link. A screen's query, when it takes one, is
 * declared with `query<…>()` and typed the same way: `consolePaths.customerView({ uid })` is
 * '/manage-customer/view-customer?uid=…'. Undefined query values are left out; the query keeps the
 * caller's key order.
 */

type QueryValue = string | number | undefined;
type Query = Record<string, QueryValue>;

/** The `:name` segments of a path pattern. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** What a link to a screen takes: its pattern's params (strings) and its declared query. */
type LinkArgs<P extends string, Q extends Query> = { [K in ParamNames<P>]: string } & Q;

/**
 * A link built by this table (a pathname and query). The API's mail links take only these, so an
 * address written by hand fails to compile.
 */
export type ConsoleLink = string & { readonly consoleLink: true };

/** A screen: its pattern, and called with its params and query, the link to it. */
export interface ConsoleScreen<P extends string, Q extends Query> {
  readonly path: P;
  (
    ...args: Record<never, never> extends LinkArgs<P, Q> ? [args?: LinkArgs<P, Q>] : [args: LinkArgs<P, Q>]
  ): ConsoleLink;
}

/** The type of a screen's query (a marker: only its type is read). */
const query = <Q extends Query>(): Q => ({}) as Q;

function screen<P extends string, Q extends Query = Record<never, never>>(
  path: P,
  _query?: Q,
): ConsoleScreen<P, Q> {
  const link = (args: Record<string, QueryValue> = {}): ConsoleLink => {
    const params = new Set<string>();
    const pathname = path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
      params.add(name);
      return encodeURIComponent(String(args[name]));
    });
    const parts: string[] = [];
    for (const [key, value] of Object.entries(args)) {
      if (params.has(key) || value === undefined) continue;
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
    return (parts.length ? `${pathname}?${parts.join('&')}` : pathname) as ConsoleLink;
  };
  return Object.assign(link, { path }) as ConsoleScreen<P, Q>;
}

export const consolePaths = {
  // Outside the sign-in guard.
  login: screen('/login'),
  forgotPassword: screen('/forgotpassword'),
  secondStep: screen('/login/second-step'),
  enrol: screen('/login/enrol'),
  /** Where the OpenID provider sends the browser back (SSO_CALLBACK_PATH, the redirect URI). */
  ssoCallback: screen('/sso/callback'),
  logout: screen('/logout'),
  /** The site owner's consent to one request (the link comes by email). */
  impersonationConsent: screen('/impersonation/consent'),
  /** The record of every access to the owner's site (the link comes by email). */
  siteAccess: screen('/impersonation/site-access'),
  /** The owner's unsubscribe page (the link comes in announcement mails). */
  unsubscribe: screen('/unsubscribe', query<{ token?: string }>()),

  // The signed-in shell.
  dashboard: screen('/dashboard'),
  notifications: screen('/manage-notifications'),
  composeNotice: screen('/manage-notifications/compose'),
  notice: screen('/manage-notifications/notice', query<{ id: number }>()),
  /** Not a screen: the breadcrumb's name of the account screens. */
  account: screen('/account'),
  changePassword: screen('/account/change-password'),
  security: screen('/account/security'),
  mySessions: screen('/account/sessions'),
  apiTokens: screen('/account/api-tokens'),
  notificationSettings: screen('/account/notifications'),
  /** The site seen through the tab's impersonation session. */
  impersonatedSite: screen('/impersonation/site', query<{ uid: string; appId: number }>()),
  /**
   * A bulk job of any list (a customer's sites, the requests, the team, a colleague's sessions):
   * its progress, items, cancel, approval and undo, under its own list in the breadcrumb.
   */
  bulkJob: screen('/bulk-job', query<{ id: number }>()),

  // Manage Customer.
  customers: screen('/manage-customer'),
  customerSearch: screen('/manage-customer/search-customer'),
  createCustomer: screen('/manage-customer/create-customer'),
  editSite: screen('/manage-customer/edit-site', query<{ uid: string; appId: number }>()),
  addSite: screen('/manage-customer/add-site', query<{ uid: string }>()),
  customerView: screen('/manage-customer/view-customer', query<{ uid: string }>()),
  impersonate: screen('/manage-customer/impersonate', query<{ uid: string; appId: number }>()),
  /** A site's configuration, opened at one section (custom-domains, …) when `section` is given. */
  siteConfiguration: screen(
    '/manage-customer/site-configuration',
    query<{ uid: string; appId: number; section?: string }>(),
  ),
  /** Every site's custom domains, filtered by status (pending, failing, verified) or all. */
  customDomains: screen('/manage-customer/custom-domains', query<{ status?: string }>()),
  /** Sites whose trial ends within `days` days (7 when absent): the list behind the dashboard's card. */
  trialsEnding: screen('/manage-customer/trials-ending', query<{ days?: number }>()),
  /** Where a bulk job's page was before it had its own (mails and bells sent then): it sends on to bulkJob. */
  bulkJobBefore: screen('/manage-customer/bulk-job', query<{ id: number }>()),

  // Manage Superuser.
  team: screen('/manage-superuser'),
  superusers: screen('/manage-superuser/manage-superuser'),
  createSuperuser: screen('/manage-superuser/create-superuser'),
  singleSignOn: screen('/manage-superuser/single-sign-on'),
  webhooks: screen('/manage-superuser/webhooks'),
  webhook: screen('/manage-superuser/webhook', query<{ id: number }>()),
  permissions: screen('/manage-superuser/permissions'),
  roles: screen('/manage-superuser/roles'),
  superuserProfile: screen('/manage-superuser/profile/:uid'),
  impersonationLogs: screen('/manage-superuser/impersonation/logs'),
  /** Every open break-glass review (or recently closed, or both): the list behind the dashboard's card. */
  breakGlassReviews: screen(
    '/manage-superuser/impersonation/break-glass-reviews',
    query<{ state?: 'closed' | 'all' }>(),
  ),
  /** Filtered by a display status (Pending, Approved, …), or with one request's popup open. */
  impersonationRequests: screen(
    '/manage-superuser/impersonation/assigned-requests',
    query<{ status?: string; request?: number }>(),
  ),
  /** The staff audit trail filtered by action over a preset range (24h, 7d, …). */
  auditTrail: screen(
    '/manage-superuser/audit-trail',
    query<{ action?: string; range?: string; result?: 'done' | 'refused' | 'failed' }>(),
  ),
} as const;
