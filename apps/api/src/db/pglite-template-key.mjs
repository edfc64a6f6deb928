// The name of the PGlite template directory (see pglite-template.ts): the installed PGlite's
// version and a hash of the migration files. Plain JavaScript, so scripts/start.mjs can tell
// whether the template is current without loading the API.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The installed PGlite's version ('unknown' when it cannot be read). */
export function pgliteVersion() {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
    const up = path.dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}

/** `pglite-<version>-<hash of the migration files>`. */
export function pgliteTemplateName(migrationsDir = MIGRATIONS_DIR) {
  const hash = createHash('sha256');
  const files = fs
    .readdirSync(migrationsDir)
    .filter((f) => /^\d{4}-.+\.sql$/.test(f))
    .sort();
  for (const f of files) hash.update(`${f}\0${fs.readFileSync(path.join(migrationsDir, f), 'utf8')}\0`);
  return `pglite-${pgliteVersion()}-${hash.digest('hex').slice(0, 16)}`;
}
