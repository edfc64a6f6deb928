import path from 'node:path';
import type { Config } from '../config.ts';
import { privateUmask, restrictDataDir } from '../ops/private-data-dir.ts';
import { type Db, openPgliteDir, openPostgres, POOL_WAIT_MS } from './db.ts';
import { existingPgliteTemplate } from './pglite-template.ts';

/**
 * The database the configuration names: PostgreSQL at DATABASE_URL, else PGlite in ./data (a new
 * directory starts as a copy of the migrated cluster `npm start` prepares, when it is there).
 * DATA_DIR and all in it end up its owner's only (0700 and 0600): files this process makes from
 * now on, a copied template (copies keep their source's modes) and what older versions left.
 */
export async function openConfiguredDb(config: Config): Promise<Db> {
  privateUmask();
  const db = config.databaseUrl
    ? openPostgres(config.databaseUrl, undefined, POOL_WAIT_MS, config.storeTimeouts)
    : await openPgliteDir(path.join(config.dataDir, 'pglite'), { template: () => existingPgliteTemplate() });
  restrictDataDir(config.dataDir);
  return db;
}
