import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/db.ts';
import type { FieldCrypto } from '../../lib/field-crypto.ts';
import { hashSecret } from '../../lib/secrets.ts';
import {
  type BulkCustomer,
  type BulkLogin,
  type BulkMember,
  type BulkSite,
  insertCustomerRows,
  insertScaleChunk,
} from './bulk-load.repo.ts';

/**
 * The seed's bulk loads of customers' tables (seed/customer-seed.ts, seed/seed-scale-cli.ts): raw
 * speed for demo and scale data, with none of a staff write's rules (no lock, version claim or
 * trail row: no one acts). Nothing else calls them.
 */

/** A customer as the bulk load takes them. */
export type { BulkCustomer };

/** A demo site as the bulk load takes it: its secret in clear (else a random one), its connection string unsealed. */
export type DemoSiteRow = Omit<BulkSite, 'secretHash' | 'sealedDbConn'> & {
  secret?: string;
  customDbConn: string | null;
};

/**
 * Demo customers with their sites, shared sites and sign-ins, in the caller's transaction. A site
 * without a secret gets a random one nobody keeps; a custom connection string is encrypted.
 */
export function bulkLoadDemoCustomers(
  tx: Queryable,
  crypto: FieldCrypto,
  rows: {
    customers: BulkCustomer[];
    sites: DemoSiteRow[];
    members: BulkMember[];
    logins: BulkLogin[];
  },
): Promise<void> {
  return insertCustomerRows(tx, {
    ...rows,
    sites: rows.sites.map((s) => ({
      ...s,
      secretHash: hashSecret(s.secret ?? randomBytes(32).toString('base64url')),
      sealedDbConn: s.customDbConn ? crypto.encrypt(s.customDbConn) : null,
    })),
  });
}

/** One chunk of the scale generator's customers and sites, generated in SQL; answers the rows added. */
export const bulkLoadScaleChunk = (tx: Queryable, chunk: Parameters<typeof insertScaleChunk>[1]) =>
  insertScaleChunk(tx, chunk);
