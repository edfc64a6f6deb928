import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { AddressLimits } from './lib/address-limits.ts';
import type { Clock } from './lib/clock.ts';
import type { FieldCrypto } from './lib/field-crypto.ts';
import type { Mailer } from './mail/outbox.ts';
import type { AddressFailureStore } from './modules/auth/login-throttle.ts';
import type { LeaseStore } from './ops/leases.ts';
import type { AppMetrics } from './ops/metrics.ts';
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

/** The signed-in staff member behind a call. */
export interface StaffSession {
  sessionId: number;
  uid: string;
  email: string;
  name: string;
  roles: string[];
  permissions: Set<string>;
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
