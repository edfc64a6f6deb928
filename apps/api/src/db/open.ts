import path from 'node:path';
import type { Config } from '../config.ts';
import { privateUmask, restrictDataDir } from '../lib/private-data-dir.ts';
import { type Db, openPgliteDir, openPostgres, POOL_WAIT_MS } from './db.ts';
import { DataDirInUse } from './dir-lock.ts';
import { grantApplicationRole, migrate, trailOwnerWarning } from './migrate.ts';
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
    ? patientPostgres(config, config.databaseUrl)
    : await openPgliteDir(path.join(config.dataDir, 'pglite'), { template: () => existingPgliteTemplate() });
  restrictDataDir(config.dataDir);
  return db;
}

/**
 * PostgreSQL for what an operator starts (a CLI, a server's start): batch work with no caller
 * waiting for a quick 503, so it waits for a server that answers late on a loaded host; one that
 * does not answer at all still opens the circuit (its check). A server holds its calls to the
 * budget once it serves (server.ts).
 */
function patientPostgres(config: Config, url: string, max?: number): Db {
  const db = openPostgres(url, max, POOL_WAIT_MS, config.storeTimeouts);
  db.circuit?.holdWhile(() => false);
  return db;
}

/**
 * openConfiguredDb for a process the operator starts (the server, the CLIs): when another process
 * holds the embedded database, its one line is all that is printed, and the process exits 1.
 */
export async function openConfiguredDbOrExit(config: Config): Promise<Db> {
  try {
    return await openConfiguredDb(config);
  } catch (e) {
    if (!(e instanceof DataDirInUse)) throw e;
    console.error(e.message);
    process.exit(1);
  }
}

/**
 * On the embedded database, drops the job leases (job_leases) a process left behind: its directory
 * lock makes this process the database's only user, so every lease in it is a dead process's, and
 * after a `kill -9` the jobs (the SIEM stream, the webhook sender…) need not wait for their expiry.
 * On PostgreSQL other instances may hold theirs: nothing is touched. Answers how many were dropped.
 */
export async function dropOrphanedLeases(db: Db): Promise<number> {
  if (db.kind !== 'pglite') return 0;
  return (await db.query('DELETE FROM job_leases RETURNING name')).rows.length;
}

/**
 * Migrates the configured database. With DATABASE_OWNER_URL (PostgreSQL), the migrations run as
 * that role, which then grants the application's role (DATABASE_URL's) what it needs; without it
 * they run on `db`, and a warning comes back when that role owns the staff trail.
 */
export async function migrateConfigured(
  config: Config,
  db: Db,
): Promise<{ applied: number[]; warning: string | undefined }> {
  if (!config.databaseOwnerUrl || db.kind !== 'postgres') {
    const applied = await migrate(db);
    return { applied, warning: await trailOwnerWarning(db) };
  }
  const appRole = (await db.query<{ r: string }>('SELECT current_user::text AS r')).rows[0]!.r;
  const owner = patientPostgres(config, config.databaseOwnerUrl, 1);
  try {
    const applied = await migrate(owner);
    await grantApplicationRole(owner, appRole);
    return { applied, warning: await trailOwnerWarning(db) };
  } finally {
    await owner.close();
  }
}
