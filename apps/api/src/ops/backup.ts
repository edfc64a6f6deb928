import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { openPgliteDir, PGLITE_EXTENSIONS } from '../db/db.ts';
import { acquireDirLock } from '../db/dir-lock.ts';

/** The embedded database of a data directory, as openConfiguredDb finds it. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pglite');

/**
 * Writes the embedded database of `dataDir` to `file` as one gzipped tarball (PGlite's
 * dumpDataDir). It opens the database as the server does, under the same lock, so it refuses
 * while a server uses that directory: stop the server first; the copy is then consistent.
 */
export async function backupEmbedded(dataDir: string, file: string): Promise<number> {
  const dir = pgliteDir(dataDir);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`No embedded database in ${dir}.`);
  const db = await openPgliteDir(dir);
  try {
    const blob = await db.dumpDataDir!();
    const bytes = zlib.gzipSync(Buffer.from(await blob.arrayBuffer()));
    const tmp = `${file}.partial`;
    fs.writeFileSync(tmp, bytes, { mode: 0o600 });
    fs.renameSync(tmp, file);
    return bytes.length;
  } finally {
    await db.close();
  }
}

/**
 * Restores a backup made by backupEmbedded into `dataDir`, whose embedded database must not exist
 * yet (move the old one aside first): a restore never overwrites data.
 */
export async function restoreEmbedded(file: string, dataDir: string): Promise<void> {
  const dir = pgliteDir(dataDir);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    throw new Error(`${dir} is not empty: move it aside before restoring into it.`);
  }
  fs.mkdirSync(dir, { recursive: true });
  const release = acquireDirLock(path.join(dataDir, 'pglite.lock'));
  try {
    const raw = fs.readFileSync(file);
    const tar = raw[0] === 0x1f && raw[1] === 0x8b ? zlib.gunzipSync(raw) : raw;
    const blob = new Blob([tar]);
    const pglite = await PGlite.create({ dataDir: dir, loadDataDir: blob, extensions: PGLITE_EXTENSIONS });
    await pglite.query('SELECT 1');
    await pglite.close();
  } finally {
    release();
  }
}
