import type { EndpointRoute } from '@sac/contract/endpoint-routes';
import type { PermissionScopes, SiteScope } from '@sac/contract/role-scopes';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { AddressLimits } from './lib/address-limits.ts';
import type { Clock } from './lib/clock.ts';
import type { FieldCrypto } from './lib/field-crypto.ts';
import type { LeaseStore } from './lib/leases.ts';
import type { AppMetrics } from './lib/metrics.ts';
import type { StaffEventBus } from './lib/staff-event-bus.ts';
import type { Mailer } from './mail/outbox.ts';
import type { UserInputSandbox } from './user-input/user-input-sandbox.ts';

/** What every module's service works with; built once in app.ts and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  /** Encrypts secrets kept at rest, such as custom database connection strings. */
  crypto: FieldCrypto;
  /** Set when REDIS_URL is: shared sign-in limits and job leases live there. */
  redis?: Redis;
  /** Failed sign-ins per client address and day: in Redis when configured, else the database. */
  addressFailures: AddressFailureStore;
  /** Per-address budgets of the public doors (password reset, customer links and requests). */
  addressLimits: AddressLimits;
  /** Which instance runs each periodic job: Redis when configured, else the database. */
  leases: LeaseStore;
  metrics: AppMetrics;
  /** "Staff member X has new notifications", across instances (lib/staff-event-bus.ts). */
  staffEvents: StaffEventBus;
  /** Who makes each endpoint call and whether they may (plugins/auth.ts). */
  callAuth: CallAuth;
  /** Where users' schemas and patterns run: off the event loop, one at a time, with a time budget. */
  sandbox: UserInputSandbox;
  /** Where hashing previews run PBKDF2: its own thread at the lowest priority, one at a time. */
  previewSandbox: UserInputSandbox;
  /**
   * This process: its id (the holder of job leases), whether it is still putting in the demo data
   * of a first start (API calls wait for it meanwhile), and whether it is shutting down.
   */
  ops: { instanceId: string; starting: boolean; draining: boolean };
}

/** The signed-in staff member behind a call, by a console session or an API token. */
export interface StaffSession {
  /** The console session; 0 for a call made with an API token. */
  sessionId: number;
  uid: string;
  email: string;
  name: string;
  roles: string[];
  /**
   * What the call may do. With an API token: the token's permissions that its owner still holds
   * (a role taken from the owner narrows every token they made at once).
   */
  permissions: Set<string>;
  /** What the holder's scoped roles limit, per permission (role-scopes.ts); absent: nothing. */
  scopes?: PermissionScopes;
  /**
   * The sites this call reaches: the scope of its endpoint's permission, set by authentication;
   * absent: every site. The route's scope rule keeps the call to it.
   */
  scope?: readonly SiteScope[];
  /** The holder's last proof beyond the session itself: its sign-in, or a later step-up. */
  verifiedAt: Date;
  /** Set when the call was made with an API token: the trail names it beside its owner. */
  apiToken?: { id: number; name: string };
  /** Set when the session is an impersonation session (account/switchapp). */
  impersonation?: {
    requestId: number;
    appId: number;
    appName: string;
    permissions: Set<string>;
    expiresAt: Date;
  };
}

/** Who made a call and from where: what every audit row needs. */
export interface Caller {
  session: StaffSession | undefined;
  clientAddress: string;
  userAgent: string | null;
}

/**
 * Failed sign-ins per client address and UTC day. Two homes: the database (the default, so the
 * counts survive restarts and are shared by instances on one PostgreSQL) or Redis (REDIS_URL).
 */
export interface AddressFailureStore {
  readonly kind: 'database' | 'redis';
  failuresToday(address: string, at: Date): Promise<number>;
  /**
   * Counts one failure, atomically; answers the count after it. Sign-in counts each attempt here
   * before it checks the password, so attempts that arrive together are counted one by one.
   */
  recordFailure(address: string, at: Date): Promise<number>;
  /** Takes back the count of an attempt that turned out right. */
  forgive(address: string, at: Date): Promise<void>;
}

/** Authentication and authorization of endpoint calls, in the order endpoint-route.ts runs them. */
export interface CallAuth {
  /**
   * The staff session of a call to a signed-in endpoint (undefined for a public one): 401 without
   * a live session, 403 without the endpoint's staff permission (an impersonation session is
   * judged by authorizeImpersonation instead).
   */
  authenticate(def: EndpointRoute, request: FastifyRequest): Promise<StaffSession | undefined>;
  /** For an impersonation session, once the query is parsed: its site and grant, or 403; logged. */
  authorizeImpersonation(
    def: EndpointRoute,
    session: StaffSession | undefined,
    query: unknown,
    request: FastifyRequest,
  ): Promise<void>;
  /**
   * Records a refused staff call in the trail (folded per actor, endpoint and what was missing);
   * never rejects: a failure to record is logged, and the refusal answered as it was.
   */
  recordRefusal(
    actor: { uid: string; email: string; apiToken?: { id: number; name: string } | undefined },
    def: EndpointRoute,
    missing: string,
    refusal: { status: number; code: number },
    clientAddress: string,
  ): Promise<void>;
}

/** One refused staff call: who, which endpoint ('METHOD /path'), and what they lacked. */
export interface Refusal {
  actorUid: string;
  actorEmail: string;
  endpoint: string;
  /** The permission missing, or what else refused the call ('a live session', 'SuperAdmin cool-down'). */
  missing: string;
  status: number;
  errorCode: number;
  clientAddress: string | null;
  /** The API token the refused call was made with. */
  apiToken?: { id: number; name: string } | undefined;
}
