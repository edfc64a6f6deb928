import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import { qb, rows } from '../db/sql.ts';
import type { FieldCrypto } from '../lib/field-crypto.ts';
import { bulkLoadPastCustomerActivity } from '../modules/activity/activity.service.ts';
import { bulkLoadDemoCustomers } from '../modules/customers/bulk-load.service.ts';
import { buildDemoCustomers, DEMO_CUSTOMERS, type DemoSiteCredentials } from './demo-customer-data.ts';

/**
 * Inserts the demo customers with their sites, shared sites, sign-ins and activity: one statement
 * per table (unnest of arrays), so a few hundred milliseconds even on PGlite. Run it in the demo
 * seeding transaction, after the demo staff exist.
 */
export async function seedDemoCustomers(
  tx: Queryable,
  opts: {
    at: Date;
    crypto: FieldCrypto;
    staffEmails: string[];
    /** Runs before the activity rows, which name staff by email (the demo staff are inserted here). */
    beforeActivity?: () => Promise<void>;
  },
): Promise<{
  customers: number;
  sites: number;
  members: number;
  logins: number;
  activity: number;
  credentials: DemoSiteCredentials[];
}> {
  // One after another: queries on one client (a transaction) do not run side by side anyway.
  const sets = await rows(tx, qb.selectFrom('feature_sets').select(['name', 'features']).orderBy('name'));
  const servers = await rows(
    tx,
    qb.selectFrom('global_servers').select(['code', 'data_center']).orderBy('code'),
  );
  const roles = await rows(
    tx,
    qb.selectFrom('customer_roles').select('name').where('name', '<>', 'Owner').orderBy('name'),
  );
  const credentials = [DEMO_CUSTOMERS.ada.site.name, DEMO_CUSTOMERS.charles.site.name].map((name) => ({
    name,
    apiKey: randomUUID(),
    secret: randomBytes(24).toString('base64url'),
  }));
  const data = buildDemoCustomers(
    opts.at,
    {
      featureSets: Object.fromEntries(sets.map((r) => [r.name, r.features])),
      servers: servers.map((r) => [r.code, r.data_center]),
      memberRoles: roles.map((r) => r.name),
    },
    opts.staffEmails,
    credentials,
  );
  const { customers: cs, sites: ss, members: ms, logins: ls, activity: as } = data;

  await bulkLoadDemoCustomers(tx, opts.crypto, { customers: cs, sites: ss, members: ms, logins: ls });
  await opts.beforeActivity?.();
  await bulkLoadPastCustomerActivity(tx, as);

  return {
    customers: cs.length,
    sites: ss.length,
    members: ms.length,
    logins: ls.length,
    activity: as.length,
    credentials,
  };
}
