import type { ApplicationSecurity } from '@sac/contract/site-settings';
import { applicationSecurity } from '@sac/contract/site-settings';
import type { Queryable } from '../../db/db.ts';
import { execute, firstRow, qb } from '../../db/sql.ts';

/** What a site's stored settings hold: the fields it saved, read over the defaults. */
const storedSecurity = applicationSecurity.partial();

export async function findSecurity(db: Queryable, appId: number) {
  const r = await firstRow(
    db,
    qb.selectFrom('application_security').select(['settings', 'modified_at']).where('app_id', '=', appId),
  );
  return r && { settings: storedSecurity.parse(r.settings), modified_at: r.modified_at };
}

export async function saveSecurity(
  db: Queryable,
  appId: number,
  settings: ApplicationSecurity,
  at: Date,
): Promise<void> {
  await execute(
    db,
    qb
      .insertInto('application_security')
      .values({ app_id: appId, settings: JSON.stringify(settings), modified_at: at })
      .onConflict((oc) =>
        oc.column('app_id').doUpdateSet((eb) => ({
          settings: eb.ref('excluded.settings'),
          modified_at: eb.ref('excluded.modified_at'),
        })),
      ),
  );
}
