import type { ApplicationSecurity } from '@sac/contract/site-settings';
import type { Queryable } from '../../db/db.ts';

export async function findSecurity(
  db: Queryable,
  appId: number,
): Promise<{ settings: ApplicationSecurity; modified_at: Date } | undefined> {
  const r = await db.query<{ settings: ApplicationSecurity; modified_at: Date }>(
    'SELECT settings, modified_at FROM application_security WHERE app_id = $1',
    [appId],
  );
  return r.rows[0];
}

export async function saveSecurity(
  db: Queryable,
  appId: number,
  settings: ApplicationSecurity,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO application_security (app_id, settings, modified_at) VALUES ($1, $2, $3)
     ON CONFLICT (app_id) DO UPDATE SET settings = EXCLUDED.settings, modified_at = EXCLUDED.modified_at`,
    [appId, JSON.stringify(settings), at],
  );
}
