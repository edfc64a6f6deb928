import { BULK_ROUTES } from './endpoint-routes-bulk.ts';
import { CUSTOMERS_ROUTES } from './endpoint-routes-customers.ts';
import { EVENTS_ROUTES } from './endpoint-routes-events.ts';
import { OPERATIONS_ROUTES } from './endpoint-routes-operations.ts';
import { SIGN_IN_ROUTES } from './endpoint-routes-sign-in.ts';
import { SITE_SETTINGS_ROUTES } from './endpoint-routes-site-settings.ts';
import { TOKENS_ROUTES } from './endpoint-routes-tokens.ts';
import type { Permission } from './permissions.ts';
import type { ScopeRule } from './role-scopes.ts';

/*
 * The endpoint table without schemas: id, method, path and access of every endpoint, and nothing
 * that needs zod. The console's client calls endpoints from it, so the sign-in screen does not
 * load every schema of the contract. endpoints.ts adds summary, tag and the zod schemas per id
 * (the API registers its routes from that full table; OpenAPI derives from it); a test keeps the
 * two tables on the same ids. Each table is joined from one part per area (endpoint-routes-*.ts,
 * endpoint-details-*.ts).
 */

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint: anyone ('public'), anyone signed in ('session'), or a holder of one
 * permission of the matrix.
 */
export type Access = 'public' | 'session' | Permission;

export interface EndpointRoute {
  /** Stable name, used by the console client and the authorization-matrix test. */
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: Access;
  /**
   * Open to an impersonation session (account/switchapp) of the site named by the query's appId,
   * when the approved customer roles and additional permissions include this customer permission.
   * Calls without it are refused to impersonation sessions. The console reads it too, to show an
   * impersonator which sections the grant reaches.
   */
  readonly impersonation?: string;
  /**
   * A sensitive action: the session's last sign-in or step-up must be within STEP_UP_MINUTES,
   * else 911 (stepUpRequired), which the console answers by asking the user to confirm it is them.
   */
  readonly stepUp?: true;
  /**
   * Opened as a plain link, from a download link or a feed reader, which cannot send the ajax
   * marker: the API takes it without one. Only public GETs that change nothing and are
   * authenticated by a token in their query (nothing for a forged cross-site request to use).
   */
  readonly plainLink?: true;
  /**
   * How the call keeps to a scoped role's data centers and plans (role-scopes.ts); every endpoint
   * whose access is a scopable permission says, and no other does.
   */
  readonly scope?: ScopeRule;
}

/** Method, path and access of every endpoint, keyed by id (the parts in the table's order). */
export const ENDPOINT_ROUTES = {
  ...SIGN_IN_ROUTES,
  ...CUSTOMERS_ROUTES,
  ...OPERATIONS_ROUTES,
  ...SITE_SETTINGS_ROUTES,
  ...TOKENS_ROUTES,
  ...EVENTS_ROUTES,
  ...BULK_ROUTES,
} as const satisfies Record<string, EndpointRoute>;

export type EndpointId = keyof typeof ENDPOINT_ROUTES;
