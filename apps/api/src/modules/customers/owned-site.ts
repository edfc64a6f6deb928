import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { type LockedCustomer, lockCustomer } from './customer-writes.repo.ts';
import { findCustomer, findOwnedSite, type SiteRow } from './customers.repo.ts';
import { NO_SUCH_CUSTOMER } from './customers.service.ts';

const NOT_OWNED = 'This customer owns no site with that appId.';

/**
 * The site, if this customer owns it: a site's configuration is its owner's, so a site only
 * shared with the customer answers 404 as one they do not have. `lock` holds the site's row until
 * the transaction `db` ends.
 */
export async function ownedSite(db: Queryable, uid: string, appId: number, lock = false): Promise<SiteRow> {
  const s = await findOwnedSite(db, uid, appId, lock);
  if (!s) throw new AppError('notFound', NOT_OWNED);
  return s;
}

/**
 * The customer of a write, their row locked until the write's transaction `tx` ends (no other
 * write of theirs runs meanwhile); 404 when there is no such customer.
 */
export async function lockedCustomer(tx: Queryable, uid: string): Promise<LockedCustomer> {
  const c = await lockCustomer(tx, uid);
  if (!c) throw new AppError('notFound', NO_SUCH_CUSTOMER);
  return c;
}

/**
 * The site of a write configuring a customer's own site, its row locked until `tx` ends: an
 * unknown customer answers 404 first, then a site they do not own. One statement when the site is
 * theirs: the site row joins its owner's, and the owner cannot go while the site row is locked
 * (sites.owner_uid references customers). Only a refusal reads the customer again, to say which.
 */
export async function customersOwnSite(tx: Queryable, uid: string, appId: number): Promise<SiteRow> {
  const s = await findOwnedSite(tx, uid, appId, true);
  if (s) return s;
  if (!(await findCustomer(tx, uid))) throw new AppError('notFound', NO_SUCH_CUSTOMER);
  throw new AppError('notFound', NOT_OWNED);
}
