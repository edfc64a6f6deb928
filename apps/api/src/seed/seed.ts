import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_SUPPORT } from '@sac/contract/permissions';
import { generatePassword, isStrongPassword } from '@sac/contract/validation';
import { type Config, loadConfig } from '../config.ts';
import type { Db } from '../db/db.ts';
import { execute, firstRow, qb } from '../db/sql.ts';
import { fieldCrypto, loadFieldKey } from '../lib/field-crypto.ts';
import { hashPassword } from '../lib/password-hash.ts';
import { addStaffMember, countStaff } from '../modules/auth/staff.service.ts';
import { seedDemoCustomers } from './customer-seed.ts';
import type { DemoSiteCredentials } from './demo-customer-data.ts';
import { seedDemoImpersonation } from './impersonation-seed.ts';

export const DEMO_STAFF = [
  { email: 'superadmin@example.com', name: 'Sam Super', roles: [ROLE_SUPER_ADMIN] },
  { email: 'admin@example.com', name: 'Ada Admin', roles: [ROLE_ADMIN] },
  // Sol's roles were last confirmed 80 days ago: the demo shows an access review falling due.
  { email: 'support@example.com', name: 'Sol Support', roles: [ROLE_SUPPORT], confirmedDaysAgo: 80 },
  // A second SuperAdmin: break-glass access is reviewed by another SuperAdmin than its opener.
  { email: 'oncall@example.com', name: 'Omar Oncall', roles: [ROLE_SUPER_ADMIN] },
] as const;

/** A generated demo password that also meets the password rule (upper and lower case). */
function demoPassword(): string {
  for (;;) {
    const p = generatePassword();
    if (isStrongPassword(p)) return p;
  }
}

export interface DemoSignIn {
  emails: string[];
  password: string;
  /** The named demo sites' API keys and secrets, generated on this install. */
  sites?: DemoSiteCredentials[];
}

/**
 * Creates the demo staff, customers, sites, impersonation requests and custom domains on the first
 * start of an empty database. Their password is
 * DEMO_PASSWORD, else generated; it is kept (readable only by this user) in the data directory
 * so later starts can print it again. Returns the sign-ins, or undefined if they are unknown.
 */
export async function seedDemoData(
  db: Db,
  /** `config`: the settings the API's services read (console links, cool-down); the environment's by default. */
  opts: { dataDir: string; demoPassword?: string; now?: Date; config?: Config },
): Promise<DemoSignIn | undefined> {
  const file = path.join(opts.dataDir, 'demo-sign-in.json');
  const seeded = await firstRow(
    db,
    qb.selectFrom('app_meta').select('value').where('key', '=', 'demo_seeded'),
  );
  if (seeded) {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as DemoSignIn;
    } catch {
      return undefined;
    }
  }
  if ((await countStaff(db)) > 0) return undefined; // a real installation: leave it alone
  const password = opts.demoPassword ?? demoPassword();
  // The demo staff share one password, so one argon2 hash serves them all. It runs on libuv's
  // thread pool while the customers are inserted, and is awaited only when the staff rows go in.
  const hashing = hashPassword(password);
  hashing.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const at = opts.now ?? new Date();
  const crypto = fieldCrypto(loadFieldKey(process.env.FIELD_ENCRYPTION_KEY, opts.dataDir));
  const created = await db.transaction(async (tx) => {
    const out = await seedDemoCustomers(tx, {
      at,
      crypto,
      staffEmails: DEMO_STAFF.map((s) => s.email),
      beforeActivity: async () => {
        const passwordHash = await hashing;
        for (const s of DEMO_STAFF) {
          await addStaffMember(tx, {
            uid: randomUUID(),
            email: s.email,
            fullName: s.name,
            passwordHash,
            roles: [...s.roles],
            at,
            ...('confirmedDaysAgo' in s
              ? {
                  rolesConfirmed: {
                    at: new Date(at.getTime() - s.confirmedDaysAgo * 86_400_000),
                    by: DEMO_STAFF[0].email,
                  },
                }
              : {}),
          });
        }
      },
    });
    // Requests in every state, custom domains, recently viewed customers and customer notices,
    // through the API's services.
    await seedDemoImpersonation(tx, {
      at,
      config: opts.config ?? loadConfig(),
      kind: db.kind,
      credentials: out.credentials,
      crypto,
    });
    await execute(tx, qb.insertInto('app_meta').values({ key: 'demo_seeded', value: at.toISOString() }));
    return out;
  });
  const signIn: DemoSignIn = {
    emails: DEMO_STAFF.map((s) => s.email),
    password,
    sites: created.credentials,
  };
  fs.mkdirSync(opts.dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(signIn, null, 2), { mode: 0o600 });
  return signIn;
}
