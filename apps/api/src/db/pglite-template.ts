import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../config.ts';
import { openPgliteDir } from './db.ts';
import { migrate } from './migrate.ts';
import { pgliteTemplateName } from './pglite-template-key.mjs';

/*
 * A new PGlite data directory starts with initdb and the migrations, which run in WebAssembly and
 * take several seconds of CPU: most of a first `npm start`. So `npm start`'s build step
 * (scripts/start.mjs) makes one migrated, cleanly closed cluster per installed PGlite version and
 * set of migrations, kept in node_modules/.cache (`npm ci` removes it with the rest); an empty
 * data directory is then a copy of it (a file copy: a fraction of a second). Demo data still runs
 * on the new directory as before (it depends on the time, the key and the password of the start).
 * Without the template (or with other migrations) a start simply runs initdb and the migrations.
 */

const DEFAULT_TEMPLATE_CACHE = path.join(REPO_ROOT, 'node_modules', '.cache', 'sac');

/** The template directory for the installed PGlite and the current migration files. */
export function pgliteTemplateDir(cacheDir = DEFAULT_TEMPLATE_CACHE): string {
  return path.join(cacheDir, pgliteTemplateName());
}

/** The current template directory when it has been made, else undefined. */
export function existingPgliteTemplate(cacheDir = DEFAULT_TEMPLATE_CACHE): string | undefined {
  const dir = pgliteTemplateDir(cacheDir);
  return fs.existsSync(path.join(dir, 'PG_VERSION')) ? dir : undefined;
}

/**
 * Makes the template when the current one is missing (and removes templates of other versions or
 * migrations). Returns its directory and whether it was made now.
 */
export async function ensurePgliteTemplate(
  cacheDir = DEFAULT_TEMPLATE_CACHE,
): Promise<{ dir: string; made: boolean }> {
  const dir = pgliteTemplateDir(cacheDir);
  if (existingPgliteTemplate(cacheDir)) return { dir, made: false };
  fs.mkdirSync(cacheDir, { recursive: true });
  // Made aside and renamed, so a start never copies half a cluster.
  const partial = `${dir}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  const db = await openPgliteDir(partial);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  fs.rmSync(`${partial}.lock`, { force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  for (const old of fs.readdirSync(cacheDir)) {
    const p = path.join(cacheDir, old);
    if (old.startsWith('pglite-') && p !== dir && !old.includes('.partial-')) {
      fs.rmSync(p, { recursive: true, force: true });
    }
  }
  return { dir, made: true };
}
