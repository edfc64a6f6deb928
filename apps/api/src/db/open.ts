import path from 'node:path';
import type { Config } from '../config.ts';
import { type Db, openPgliteDir, openPostgres } from './db.ts';
import { existingPgliteTemplate } from './pglite-template.ts';

/**
 * The database the configuration names: PostgreSQL at DATABASE_URL, else PGlite in ./data (a new
 * directory starts as a copy of the migrated cluster `npm start` prepares, when it is there).
 */
export async function openConfiguredDb(config: Config): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  return openPgliteDir(path.join(config.dataDir, 'pglite'), { template: () => existingPgliteTemplate() });
}
