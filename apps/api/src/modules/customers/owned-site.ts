import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../lib/app-error.ts';
import { findOwnedSite, type SiteRow } from './customers.repo.ts';

/**
 * The site, if this customer owns it: a site's configuration is its owner's, so a site only
 * shared with the customer answers 404 as one they do not have. `lock` holds the site's row until
 * the transaction `db` ends.
 */
export async function ownedSite(db: Queryable, uid: string, appId: number, lock = false): Promise<SiteRow> {
  const s = await findOwnedSite(db, uid, appId, lock);
  if (!s) throw new AppError('notFound', 'This customer owns no site with that appId.');
  return s;
}
