import type { AppContext } from '../../app-context.ts';
import { AppError } from '../../lib/app-error.ts';

/** The site, if this customer owns it: a site's configuration is its owner's. */
export async function ownedSite(
  ctx: AppContext,
  uid: string,
  appId: number,
): Promise<{ app_name: string; features: string[] }> {
  const r = await ctx.db.query<{ app_name: string; features: string[] }>(
    'SELECT app_name, features FROM sites WHERE app_id = $1 AND owner_uid = $2',
    [appId, uid],
  );
  if (!r.rows[0]) throw new AppError('notFound', 'This customer owns no site with that appId.');
  return r.rows[0];
}
