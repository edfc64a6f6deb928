import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { Clock } from './lib/clock.ts';
import type { FieldCrypto } from './lib/field-crypto.ts';
import type { Mailer } from './mail/mailer.ts';

/** What every module's service works with; built once in app.ts and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  /** Encrypts secrets kept at rest, such as custom database connection strings. */
  crypto: FieldCrypto;
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
